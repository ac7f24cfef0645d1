import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from detector.data import ShipChips, detection_collate
from detector.model import CenterHead


def center_targets(boxes: torch.Tensor, shape: torch.Size, stride: int) -> torch.Tensor:
    target = torch.zeros(shape)
    centers = ((boxes[:, :2] + boxes[:, 2:4]) / 2 / stride).long()
    for (cx, cy), cls in zip(centers.tolist(), boxes[:, 4].long().tolist()):
        target[cls, min(cy, shape[1] - 1), min(cx, shape[2] - 1)] = 1.0
    return target


def train(epochs: int = 1) -> None:
    torch.manual_seed(0)
    loader = DataLoader(ShipChips(), batch_size=4, shuffle=True, collate_fn=detection_collate)
    model = CenterHead()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for images, targets in loader:
            heat = model(images)
            gt = torch.stack([center_targets(t, heat.shape[1:], model.stride) for t in targets])
            loss = F.binary_cross_entropy_with_logits(heat, gt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
