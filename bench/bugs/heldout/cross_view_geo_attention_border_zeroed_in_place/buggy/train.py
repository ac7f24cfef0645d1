import torch
import torch.nn.functional as F

from modules import Branch


class CrossViewModel(torch.nn.Module):
    """Street-view query against satellite reference tiles, one branch each."""

    def __init__(self):
        super().__init__()
        self.ground = Branch()
        self.aerial = Branch()
        self.logit_scale = torch.nn.Parameter(torch.tensor(2.3))

    def forward(self, street, satellite):
        return self.ground(street), self.aerial(satellite)


def infonce(q, r, scale):
    logits = scale.exp() * q @ r.t()
    target = torch.arange(len(q))
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2


if __name__ == "__main__":
    model = CrossViewModel()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(4):
        street, satellite = torch.randn(8, 3, 48, 96), torch.randn(8, 3, 64, 64)
        q, r = model(street, satellite)
        loss = infonce(q, r, model.logit_scale)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
