import torch
import torch.nn as nn


def create_dataset(f, n_var=2, ranges=(-1.0, 1.0), train_num=64, test_num=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    lo, hi = ranges

    def sample(n):
        return lo + (hi - lo) * torch.rand(n, n_var, generator=g)

    train_input, test_input = sample(train_num), sample(test_num)
    return {
        "train_input": train_input,
        "train_label": f(train_input),
        "test_input": test_input,
        "test_label": f(test_input),
    }


class SplineNet(nn.Module):
    def __init__(self, width=(2, 5, 1)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(width[:-1], width[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.sin(x) + x
        return x


def rmse(pred, label):
    return torch.sqrt(torch.mean((pred - label) ** 2))


def fit(model, dataset, steps=20, lr=0.05):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    history = {"train_loss": [], "test_loss": []}
    for _ in range(steps):
        loss = rmse(model(dataset["train_input"]), dataset["train_label"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            history["test_loss"].append(rmse(model(dataset["test_input"]), dataset["test_label"]).item())
        history["train_loss"].append(loss.item())
    return history


if __name__ == "__main__":
    torch.manual_seed(0)
    f = lambda x: x[:, 0] + x[:, 1]
    dataset = create_dataset(f, n_var=2)
    print(fit(SplineNet(), dataset)["train_loss"][-1])
