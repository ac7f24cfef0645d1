"""Muon-style orthogonalised updates for a mixture-of-experts layer whose weights are stacked (E, d_out, d_in)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def newton_schulz(G, steps=5, eps=1e-7):
    """Approximately orthogonalise each matrix of a (..., m, n) stack."""
    a, b, c = 3.4445, -4.7750, 2.0315
    X = G / G.norm(dim=(-2, -1), keepdim=True).clamp(min=eps)
    transposed = X.size(-2) > X.size(-1)
    if transposed:
        X = X.mT
    for _ in range(steps):
        A = X @ X.mT
        X = a * X + (b * A + c * A @ A) @ X
    return X.mT if transposed else X


class StackedMuon(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02, momentum=0.95):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                buf = state.setdefault("momentum_buffer", torch.zeros_like(p))
                buf.mul_(group["momentum"]).add_(p.grad)
                update = newton_schulz(buf) if p.ndim >= 2 else buf
                p.add_(update, alpha=-group["lr"])


class ExpertLayer(nn.Module):
    def __init__(self, n_experts=4, d_in=12, d_out=8):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n_experts, d_out, d_in) / d_in ** 0.5)
        self.router = nn.Linear(d_in, n_experts)

    def forward(self, x):
        gates = F.softmax(self.router(x), dim=-1)
        expert_out = torch.einsum("eoi,bi->beo", self.w, x)
        return (gates.unsqueeze(-1) * expert_out).sum(1)


def main(steps=3):
    torch.manual_seed(0)
    layer = ExpertLayer()
    head = nn.Linear(8, 1)
    opt = StackedMuon([layer.w])
    adam = torch.optim.Adam(list(layer.router.parameters()) + list(head.parameters()), lr=1e-3)
    for step in range(steps):
        x, y = torch.randn(16, 12), torch.randn(16, 1)
        loss = F.mse_loss(head(layer(x)), y)
        opt.zero_grad()
        adam.zero_grad()
        loss.backward()
        opt.step()
        adam.step()
        print(f"step {step}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
