import torch
from torch.utils.data import DataLoader, Dataset

from model import TrajectoryGenerator


class TrajectoryDataset(Dataset):
    """Each item is one pedestrian's track: (obs_len + pred_len, 2) positions."""

    def __init__(self, num_peds: int = 40, obs_len: int = 8, pred_len: int = 8) -> None:
        self.obs_len = obs_len
        steps = torch.randn(num_peds, obs_len + pred_len, 2) * 0.1
        self.tracks = steps.cumsum(dim=1)

    def __len__(self) -> int:
        return len(self.tracks)

    def __getitem__(self, idx: int):
        track = self.tracks[idx]
        rel = torch.zeros_like(track)
        rel[1:] = track[1:] - track[:-1]
        return track[: self.obs_len], track[self.obs_len :], rel[: self.obs_len], rel[self.obs_len :]


def seq_collate(data):
    obs_seq, pred_seq, obs_rel, pred_rel = zip(*data)
    # (batch, seq, 2) -> (seq, batch, 2), the LSTM's time-major layout
    obs_traj = torch.stack(obs_seq).permute(1, 0, 2)
    pred_traj = torch.stack(pred_seq).permute(1, 0, 2)
    obs_traj_rel = torch.stack(obs_rel).permute(1, 0, 2)
    pred_traj_rel = torch.stack(pred_rel).permute(1, 0, 2)
    return obs_traj, pred_traj, obs_traj_rel, pred_traj_rel


def l2_loss(pred_traj: torch.Tensor, pred_traj_gt: torch.Tensor) -> torch.Tensor:
    return ((pred_traj_gt - pred_traj) ** 2).sum(dim=2).mean()


def main(epochs: int = 2) -> None:
    loader = DataLoader(TrajectoryDataset(), batch_size=8, shuffle=True, collate_fn=seq_collate)
    generator = TrajectoryGenerator()
    optimizer = torch.optim.Adam(generator.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for obs_traj, pred_traj_gt, obs_traj_rel, pred_traj_gt_rel in loader:
            pred_traj_rel = generator(obs_traj_rel)
            loss = l2_loss(pred_traj_rel, pred_traj_gt_rel)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
