"""DeepSets regression of a population statistic (the entropy-like spread of a sampled set)."""
import torch
import torch.nn as nn


class DeepSet(nn.Module):
    def __init__(self, d_in=2, d_hidden=32):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ELU(), nn.Linear(d_hidden, d_hidden), nn.ELU())
        self.rho = nn.Sequential(nn.Linear(d_hidden, d_hidden), nn.ELU(), nn.Linear(d_hidden, 1))

    def forward(self, sets):
        return self.rho(self.phi(sets).sum(dim=1))


def make_task(n_sets, set_size, g):
    scales = torch.rand(n_sets, generator=g) * 2 + 0.5
    sets = torch.randn(n_sets, set_size, 2, generator=g) * scales.view(-1, 1, 1)
    target = torch.log(scales)
    return sets, target


def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


def main(epochs=3, batch_size=16):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    sets, target = make_task(64, 10, g)
    model = DeepSet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        perm = torch.randperm(len(sets), generator=g)
        for i in range(0, len(sets), batch_size):
            idx = perm[i : i + batch_size]
            opt.zero_grad()
            loss = squared_error(model(sets[idx]), target[idx])
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
