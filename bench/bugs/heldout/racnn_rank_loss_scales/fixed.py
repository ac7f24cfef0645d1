import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaleNet(nn.Module):
    """One scale of a recurrent attention CNN: a classifier and an attention proposal (crop box)."""

    def __init__(self, num_classes=5, width=8):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(width * 16, num_classes)
        self.apn = nn.Sequential(nn.Linear(width * 16, 3), nn.Sigmoid())

    def forward(self, x):
        f = self.features(x).flatten(1)
        return self.classifier(f), self.apn(f)


def crop_and_zoom(images, boxes, size=32):
    out = []
    for img, (cx, cy, half) in zip(images, boxes):
        h = img.shape[-1]
        half = int(h * (0.25 + 0.25 * half.item()))
        x0 = int((h - 2 * half) * cx.item())
        y0 = int((h - 2 * half) * cy.item())
        patch = img[:, y0:y0 + 2 * half, x0:x0 + 2 * half]
        out.append(F.interpolate(patch[None], size=(size, size), mode="bilinear", align_corners=False)[0])
    return torch.stack(out)


class Manager:
    def __init__(self, margin=0.05, lr=1e-3):
        self.scales = nn.ModuleList([ScaleNet(), ScaleNet()])
        self.margin = margin
        self.optimizer = torch.optim.SGD(self.scales.parameters(), lr=lr, momentum=0.9)

    def criterion_rank(self, scores1, scores2, target):
        ps1 = F.softmax(scores1, dim=1).gather(1, target.view(-1, 1))
        ps2 = F.softmax(scores2, dim=1).gather(1, target.view(-1, 1))
        return torch.clamp(ps1 - ps2 + self.margin, min=0).mean()

    def do_batch(self, batch, label):
        scores, x = [], batch
        for net in self.scales:
            logits, box = net(x)
            scores.append(logits)
            x = crop_and_zoom(x, box.detach())
        self.optimizer.zero_grad()
        cls_loss = sum(F.cross_entropy(s, label) for s in scores)
        cls_loss.backward(retain_graph=True)
        for i in range(1, len(scores)):
            self.criterion_rank(scores[i - 1], scores[i], label).backward(retain_graph=i < len(scores) - 1)
        self.optimizer.step()
        return cls_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    manager = Manager()
    for epoch in range(2):
        images, labels = torch.rand(4, 3, 32, 32), torch.randint(0, 5, (4,))
        print(epoch, manager.do_batch(images, labels))
