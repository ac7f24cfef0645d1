import torch


def make_data(n=50, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.linspace(-2, 2, n)
    y = 0.5 * x**2 - x + 1 + 0.1 * torch.randn(n, generator=g)
    return x, y


def features(x, degree):
    return torch.stack([x**k for k in range(degree + 1)], dim=1)


class PolyFit:
    def __init__(self, degree=2, init=None):
        coeffs = init if init is not None else [0] * (degree + 1)
        self.degree = degree
        self.w = torch.tensor(coeffs, dtype=torch.float32, requires_grad=True)

    def __call__(self, x):
        return features(x, self.degree) @ self.w

    def fit(self, x, y, lr=0.05, steps=200):
        opt = torch.optim.SGD([self.w], lr=lr)
        for _ in range(steps):
            loss = ((self(x) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return loss.item()


if __name__ == "__main__":
    x, y = make_data()
    model = PolyFit(degree=2)
    print(model.fit(x, y), model.w.detach().tolist())
