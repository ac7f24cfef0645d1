import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def sharpen(p: torch.Tensor, T: float) -> torch.Tensor:
    pt = p ** (1 / T)
    return pt / pt.sum(dim=1, keepdim=True)


def make_model(n_in: int = 10, n_classes: int = 4) -> nn.Module:
    return nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, n_classes))


def train_step(model, optimizer, x_l, y_l, x_u, T=0.5, alpha=0.75, n_classes=4):
    with torch.no_grad():
        # average predictions over two augmentations of the unlabelled batch, then sharpen
        p = (model(x_u + 0.1 * torch.randn_like(x_u)).softmax(dim=1)
             + model(x_u + 0.1 * torch.randn_like(x_u)).softmax(dim=1)) / 2
        targets_u = sharpen(p, T)
    targets_l = F.one_hot(y_l, n_classes).float()
    all_inputs = torch.cat([x_l, x_u])
    all_targets = torch.cat([targets_l, targets_u])
    lam = np.random.beta(alpha, alpha)
    lam = max(lam, 1 - lam)
    idx = torch.randperm(all_inputs.size(0))
    mixed_input = lam * all_inputs + (1 - lam) * all_inputs[idx]
    mixed_target = lam * all_targets + (1 - lam) * all_targets[idx]
    logits = model(mixed_input)
    loss = F.cross_entropy(logits, mixed_target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    x_l, y_l = torch.randn(32, 10), torch.randint(0, 4, (32,))
    x_u = torch.randn(64, 10)
    for epoch in range(3):
        losses = [train_step(model, optimizer, x_l[i : i + 8], y_l[i : i + 8], x_u[2 * i : 2 * i + 16]) for i in range(0, 32, 8)]
        print(f"epoch {epoch}: {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    main()
