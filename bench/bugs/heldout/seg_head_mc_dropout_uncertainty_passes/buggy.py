"""A small segmentation head, then Monte Carlo dropout at inference for a per-pixel uncertainty map."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegHead(nn.Module):
    def __init__(self, in_ch=3, mid=16, num_classes=4, p=0.2):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, mid, 3, padding=1), nn.BatchNorm2d(mid), nn.ReLU(), nn.Dropout2d(p),
            nn.Conv2d(mid, mid, 3, padding=1), nn.BatchNorm2d(mid), nn.ReLU(), nn.Dropout2d(p),
        )
        self.cls = nn.Conv2d(mid, num_classes, 1)

    def forward(self, x):
        return self.cls(self.body(x))


def enable_mc_dropout(model):
    model.eval()
    for m in model.modules():
        if isinstance(m, (nn.Dropout, nn.Dropout2d)):
            m.train()


def mc_predict(model, images, n_samples=8):
    enable_mc_dropout(model)
    with torch.no_grad():
        probs = torch.stack([F.softmax(model(images), dim=1) for _ in range(n_samples)])
    mean = probs.mean(0)
    entropy = -(mean * mean.clamp_min(1e-8).log()).sum(1)
    return mean.argmax(1), entropy


def main():
    torch.manual_seed(0)
    model = SegHead()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(3):
        images = torch.randn(2, 3, 16, 16)
        masks = torch.randint(0, 4, (2, 16, 16))
        model.train()
        opt.zero_grad()
        loss = F.cross_entropy(model(images), masks)
        loss.backward()
        opt.step()
    pred, uncertainty = mc_predict(model, torch.randn(2, 3, 16, 16))
    print(f"predicted classes {pred.unique().tolist()}, mean entropy {uncertainty.mean().item():.3f}")


if __name__ == "__main__":
    main()
