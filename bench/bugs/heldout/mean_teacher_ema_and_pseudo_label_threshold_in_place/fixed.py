import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class WideBlockNet(nn.Module):
    def __init__(self, in_dim=20, width=48, n_classes=5, dropout=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, width), nn.BatchNorm1d(width), nn.ReLU(), nn.Dropout(dropout))
        self.head = nn.Linear(width, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


class ModelEMA:
    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            for ema_p, p in zip(self.module.parameters(), model.parameters()):
                ema_p.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)
            for ema_b, b in zip(self.module.buffers(), model.buffers()):
                ema_b.copy_(b)


def pseudo_labels(teacher, x_weak, threshold):
    with torch.no_grad():
        probs = torch.softmax(teacher(x_weak), dim=-1)
        max_probs, targets = probs.max(dim=-1)
        mask = max_probs.ge(threshold).float()
        probs[probs < 1e-3] = 0
    return targets, mask, probs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threshold", type=float, default=0.3)
    parser.add_argument("--lambda-u", type=float, default=1.0)
    parser.add_argument("--steps", type=int, default=4)
    args = parser.parse_args([])
    torch.manual_seed(0)

    student = WideBlockNet()
    ema = ModelEMA(student)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for step in range(args.steps):
        x_l, y_l = torch.randn(8, 20), torch.randint(0, 5, (8,))
        x_u = torch.randn(16, 20)
        x_weak, x_strong = x_u + 0.01 * torch.randn_like(x_u), x_u + 0.3 * torch.randn_like(x_u)

        targets, mask, _ = pseudo_labels(ema.module, x_weak, args.threshold)
        logits_l = student(x_l)
        logits_s = student(x_strong)
        loss_x = F.cross_entropy(logits_l, y_l)
        loss_u = (F.cross_entropy(logits_s, targets, reduction="none") * mask).mean()
        loss = loss_x + args.lambda_u * loss_u

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(student)
        print(f"step {step} loss {loss.item():.4f} mask {mask.mean().item():.2f}")


if __name__ == "__main__":
    main()
