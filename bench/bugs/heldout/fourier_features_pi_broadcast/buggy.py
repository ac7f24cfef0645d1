import torch
from torch import nn


class FourierSeasonality(nn.Module):
    """Seasonal component as a learned mix of sine/cosine harmonics of the yearly period."""

    def __init__(self, n_harmonics: int = 6, period: float = 365.25) -> None:
        super().__init__()
        self.period = period
        self.register_buffer("orders", torch.arange(1, n_harmonics + 1, dtype=torch.float))
        self.coef = nn.Linear(2 * n_harmonics, 1, bias=False)

    def basis(self, days: torch.Tensor) -> torch.Tensor:
        angle = 2 * torch.pi * self.orders * days / self.period
        return torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1)

    def forward(self, days: torch.Tensor) -> torch.Tensor:
        return self.coef(self.basis(days)).squeeze(-1)


model = FourierSeasonality()
days = torch.arange(0, 60, dtype=torch.float)
target = torch.sin(2 * torch.pi * days / 365.25)
opt = torch.optim.LBFGS(model.parameters(), max_iter=5)


def closure():
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(days), target)
    loss.backward()
    return loss


opt.step(closure)
print(model(days)[:3])
