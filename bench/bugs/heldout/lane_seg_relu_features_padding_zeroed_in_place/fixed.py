"""Lane segmentation on right-padded road images: the padding columns of the feature map are zeroed
so they do not leak into the existence head."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class LaneNet(nn.Module):
    def __init__(self, num_lanes=4, width=16):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, stride=2, padding=1)
        self.conv = nn.Conv2d(width, width, 3, padding=1)
        self.seg_head = nn.Conv2d(width, num_lanes + 1, 1)
        self.exist_head = nn.Linear(width, num_lanes)

    def forward(self, images, valid_width):
        h = F.relu(self.conv(F.relu(self.stem(images))))
        w_valid = valid_width // 2
        h = h.clone()
        h[..., w_valid:] = 0
        seg = F.interpolate(self.seg_head(h), scale_factor=2, mode="bilinear", align_corners=False)
        exist = self.exist_head(h.sum(dim=(2, 3)) / (h.shape[2] * w_valid))
        return seg, exist


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--height", type=int, default=32)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--valid-width", type=int, default=48)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = LaneNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for it in range(3):
        images = torch.randn(2, 3, args.height, args.width)
        images[..., args.valid_width:] = 0
        labels = torch.randint(0, 5, (2, args.height, args.width))
        exists = (torch.rand(2, 4) > 0.5).float()
        seg, exist = model(images, args.valid_width)
        loss = F.cross_entropy(seg, labels) + 0.1 * F.binary_cross_entropy_with_logits(exist, exists)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
