import torch
from torch.utils.data import DataLoader, Dataset

from model import PoseLifter

FRAMES, JOINTS = 9, 17


class ChunkedPoses(Dataset):
    """Sliding windows of 2D detections around each frame, with that frame's 3D pose."""

    def __init__(self, n_frames=40, pad=FRAMES // 2):
        g = torch.Generator().manual_seed(0)
        self.poses_2d = torch.randn(n_frames + 2 * pad, JOINTS * 2, generator=g)
        self.poses_3d = torch.randn(n_frames, JOINTS * 3, generator=g)
        self.pad = pad

    def __len__(self):
        return len(self.poses_3d)

    def __getitem__(self, i):
        window = self.poses_2d[i:i + 2 * self.pad + 1]
        return window.unsqueeze(0), self.poses_3d[i]


def mpjpe(predicted, target):
    return torch.mean(torch.norm((predicted - target).view(-1, JOINTS, 3), dim=-1))


def main(epochs=1):
    model = PoseLifter(FRAMES, JOINTS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, amsgrad=True)
    loader = DataLoader(ChunkedPoses(), batch_size=8, shuffle=True)
    for epoch in range(epochs):
        for inputs_2d, gt_3d in loader:
            output_3d = model(inputs_2d)
            loss = mpjpe(output_3d, gt_3d)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
