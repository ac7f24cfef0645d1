import numpy as np
import torch
from torch import nn

n = 100
torch.manual_seed(42)
x = torch.ones(n, 2)
x[:, 0].uniform_(-1.0, 1)
a_true = torch.tensor([3.0, 2])
y = x @ a_true + torch.rand(n)


def mse(y_hat, y):
    return ((y_hat - y) ** 2).mean()


a = nn.Parameter(torch.tensor([-1.0, 1]))
lr = 1e-1


def update(t):
    y_hat = x @ a
    loss = mse(y, y_hat)
    if t % 10 == 0:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a.sub_(lr * a.grad)
        a.grad.zero_()


for t in range(100):
    update(t)


def fit_summary(xs, ys, preds):
    residual = ys - preds
    return {"r2": 1 - residual.var() / ys.var(), "corr": np.corrcoef(xs, preds)[0, 1]}


summary = fit_summary(x[:, 0].numpy(), y.numpy(), (x @ a).numpy())
print(summary)
