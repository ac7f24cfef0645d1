"""PointNet part segmentation with shape-annotated tensors."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor
from torch.utils.data import DataLoader, Dataset


def shared_mlp(channels):
    layers = []
    for cin, cout in zip(channels[:-1], channels[1:]):
        layers += [nn.Conv1d(cin, cout, 1), nn.BatchNorm1d(cout), nn.ReLU()]
    return nn.Sequential(*layers)


class PointNetSeg(nn.Module):
    def __init__(self, n_parts: int = 4, local=(3, 32, 64), glob=(64, 128)):
        super().__init__()
        self.local = shared_mlp(list(local))
        self.glob = shared_mlp(list(glob))
        self.head = nn.Sequential(shared_mlp([local[-1] + glob[-1], 64]), nn.Conv1d(64, n_parts, 1))

    def forward(self, points: Float[Tensor, "batch 3 num_points"]) -> Float[Tensor, "batch parts num_points"]:
        local = self.local(points)
        global_feat = self.glob(local).max(dim=2, keepdim=True).values.expand(-1, -1, points.shape[-1])
        return self.head(torch.cat([local, global_feat], dim=1))


def part_accuracy(logits: Float[Tensor, "batch parts num_points"], labels: Int[Tensor, "batch num_points"]) -> float:
    return (logits.argmax(1) == labels).float().mean().item()


class ShapePartDataset(Dataset):
    """Shapes sampled as (num_points, xyz) with a part label per point."""

    def __init__(self, n_shapes=24, n_points=256):
        g = torch.Generator().manual_seed(0)
        self.points = torch.rand(n_shapes, n_points, 3, generator=g) * 2 - 1
        self.labels = (self.points[..., 2] > 0).long() * 2 + (self.points[..., 0] > 0).long()

    def __len__(self):
        return len(self.points)

    def __getitem__(self, i):
        return self.points[i], self.labels[i]


def main():
    model = PointNetSeg()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(ShapePartDataset(), batch_size=8, shuffle=True)
    for epoch in range(2):
        for points, labels in loader:
            logits = model(points.transpose(1, 2))
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {part_accuracy(logits, labels):.2f}")


if __name__ == "__main__":
    main()
