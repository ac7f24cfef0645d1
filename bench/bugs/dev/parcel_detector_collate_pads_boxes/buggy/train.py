import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from dataset import PAD_CLASS, ParcelImages, pad_collate
from net import GridDetector


def grid_loss(pred: torch.Tensor, targets: torch.Tensor, grid: int) -> torch.Tensor:
    obj_target = torch.zeros(pred.shape[:3])
    box_loss = pred.new_zeros(())
    cls_loss = pred.new_zeros(())
    for b in range(targets.size(0)):
        real = targets[b][targets[b, :, 4] != PAD_CLASS]
        cells = (real[:, :2] * grid).long().clamp(max=grid - 1)
        for (cx, cy), box in zip(cells.tolist(), real):
            obj_target[b, cy, cx] = 1.0
            box_loss = box_loss + F.mse_loss(pred[b, cy, cx, 1:5].sigmoid(), box[:4])
            cls_loss = cls_loss + F.cross_entropy(pred[b, cy, cx, 5:][None], box[4:].long())
    obj_loss = F.binary_cross_entropy_with_logits(pred[..., 0], obj_target)
    return obj_loss + (box_loss + cls_loss) / targets.size(0)


def main() -> None:
    torch.manual_seed(0)
    loader = DataLoader(ParcelImages(), batch_size=4, shuffle=True, collate_fn=pad_collate)
    model = GridDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    for epoch in range(2):
        for frames, targets in loader:
            loss = grid_loss(model(frames), targets, model.grid)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
