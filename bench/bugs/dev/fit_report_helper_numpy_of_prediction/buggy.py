import numpy as np
import torch
import torch.nn as nn


def fit_report(model, x, y):
    pred = model(x).squeeze(1)
    r = np.corrcoef(pred.numpy(), y.numpy())[0, 1]
    return {"r": float(r), "rmse": float(np.sqrt(((pred.detach() - y) ** 2).mean()))}


x = torch.rand(200, 3)
y = x @ torch.tensor([1.5, -2.0, 0.5]) + 0.1 * torch.randn(200)
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(30):
    loss = nn.functional.mse_loss(model(x).squeeze(1), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(fit_report(model, x, y))
