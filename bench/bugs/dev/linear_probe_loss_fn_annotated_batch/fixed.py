import torch
from jaxtyping import Float
from torch import Tensor, nn

BATCH_SIZE, IN_SIZE, OUT_SIZE = 32, 2, 3


class Linear(nn.Module):
    def __init__(self, in_size: int, out_size: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_size, in_size) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_size))

    def forward(self, x: Float[Tensor, "batch in_dim"]) -> Float[Tensor, "batch out_dim"]:
        return x @ self.weight.T + self.bias


def loss_fn(
    model: Linear,
    x: Float[Tensor, "batch in_dim"],
    y: Float[Tensor, "batch out_dim"],
) -> Float[Tensor, ""]:
    pred_y = model(x)
    return ((y - pred_y) ** 2).mean()


def make_data(n: int, true_w: Tensor) -> tuple:
    x = torch.randn(n, IN_SIZE)
    return x, x @ true_w.T + 0.01 * torch.randn(n, OUT_SIZE)


def main(steps: int = 20) -> None:
    true_w = torch.randn(OUT_SIZE, IN_SIZE)
    x, y = make_data(BATCH_SIZE, true_w)
    x_val, y_val = make_data(50, true_w)
    model = Linear(IN_SIZE, OUT_SIZE)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = loss_fn(model, x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        val_loss = loss_fn(model, x_val, y_val)
    print(f"train {loss.item():.4f} val {val_loss.item():.4f}")


if __name__ == "__main__":
    main()
