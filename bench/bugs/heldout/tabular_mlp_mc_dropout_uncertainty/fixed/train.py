import torch
import torch.nn.functional as F

from model import TabMlp
from uncertainty import predict_with_uncertainty


def make_data(n, seed):
    gen = torch.Generator().manual_seed(seed)
    x_cat = torch.stack([torch.randint(0, 5, (n,), generator=gen), torch.randint(0, 3, (n,), generator=gen)], 1)
    x_cont = torch.randn(n, 4, generator=gen)
    y = x_cont[:, 0] * 2 + x_cat[:, 0].float() * 0.3 + 0.1 * torch.randn(n, generator=gen)
    return x_cat, x_cont, y


def main():
    torch.manual_seed(0)
    x_cat, x_cont, y = make_data(128, 0)
    model = TabMlp([5, 3], 4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(20):
        model.train()
        loss = F.mse_loss(model(x_cat, x_cont), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    tc, tx, ty = make_data(16, 1)
    mean, std = predict_with_uncertainty(model, tc, tx)
    print(f"train mse {loss.item():.3f} test mse {F.mse_loss(mean, ty).item():.3f} mean std {std.mean().item():.3f}")


if __name__ == "__main__":
    main()
