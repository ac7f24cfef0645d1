import torch
from torch.utils.data import DataLoader, TensorDataset


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


def linear1(xb):
    return xb @ weights + bias


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()


def train_epoch(model, lr, params, dl):
    for xb, yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad * lr
            p.grad.zero_()


def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds > 0.5) == yb
    return correct.float().mean()


torch.manual_seed(42)
threes = torch.rand(64, 28 * 28) * 0.5
sevens = torch.rand(64, 28 * 28) * 0.5 + 0.3
train_x = torch.cat([threes, sevens])
train_y = torch.tensor([1] * 64 + [0] * 64).unsqueeze(1)
dl = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)

weights = init_params((28 * 28, 1))
bias = init_params(1)
params = weights, bias
lr = 1.0
for i in range(3):
    train_epoch(linear1, lr, params, dl)
    print(round(batch_accuracy(linear1(train_x), train_y).item(), 4), end=" ")
print()
