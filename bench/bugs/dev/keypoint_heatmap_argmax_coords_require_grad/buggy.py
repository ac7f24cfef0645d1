"""Heatmap keypoint regressor trained directly on pixel coordinates."""
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_KEYPOINTS = 4
HEATMAP = 16


class HeatmapNet(nn.Module):
    def __init__(self, num_keypoints=NUM_KEYPOINTS):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Conv2d(16, num_keypoints, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


def heatmap_to_coords(heatmaps):
    b, k, h, w = heatmaps.shape
    _, flat_idx = torch.max(heatmaps.view(b, k, -1), dim=-1)
    coords = torch.stack([flat_idx % w, flat_idx // w], dim=-1)
    coords.requires_grad = True
    return coords


def main():
    torch.manual_seed(0)
    model = HeatmapNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(3):
        images = torch.randn(4, 1, HEATMAP, HEATMAP)
        target = torch.randint(0, HEATMAP, (4, NUM_KEYPOINTS, 2)).float()
        heatmaps = model(images)
        pred = heatmap_to_coords(heatmaps)
        loss = F.smooth_l1_loss(pred.float(), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: coord loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
