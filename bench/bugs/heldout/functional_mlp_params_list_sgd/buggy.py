import torch


def init_params(sizes, generator):
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        params.append((torch.randn(fan_in, fan_out, generator=generator) / fan_in ** 0.5).requires_grad_())
        params.append(torch.zeros(fan_out, requires_grad=True))
    return params


def forward(params, x):
    for i in range(0, len(params) - 2, 2):
        x = torch.tanh(x @ params[i] + params[i + 1])
    return x @ params[-2] + params[-1]


def sgd_epoch(params, x, y, lr=0.05):
    loss = torch.nn.functional.mse_loss(forward(params, x), y)
    loss.backward()
    for p in params:
        p -= lr * p.grad
        p.grad = None
    return loss.item()


g = torch.Generator().manual_seed(0)
params = init_params([2, 16, 1], g)
x = torch.rand(64, 2, generator=g)
y = (x[:, :1] * x[:, 1:]).sin()
for epoch in range(3):
    print(epoch, sgd_epoch(params, x, y))
