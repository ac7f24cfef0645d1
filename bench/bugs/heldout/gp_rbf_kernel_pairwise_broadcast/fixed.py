import math

import torch
import torch.nn as nn


def sq_dist(Xa, Xb):
    """Squared Euclidean distance between every row of Xa (M, D) and every row of Xb (N, D): (M, N)."""
    return Xa.pow(2).sum(1)[:, None] - 2 * Xa @ Xb.T + Xb.pow(2).sum(1)[None, :]


class RBFKernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_lengthscale = nn.Parameter(torch.zeros(()))
        self.log_outputscale = nn.Parameter(torch.zeros(()))

    def forward(self, Xa, Xb):
        R = sq_dist(Xa / self.log_lengthscale.exp(), Xb / self.log_lengthscale.exp())
        return self.log_outputscale.exp() * torch.exp(-0.5 * R.clamp_min(0))


class ExactGP(nn.Module):
    def __init__(self):
        super().__init__()
        self.kernel = RBFKernel()
        self.log_noise = nn.Parameter(torch.tensor(-2.0))

    def neg_log_marginal_likelihood(self, X, y):
        n = X.shape[0]
        K = self.kernel(X, X) + self.log_noise.exp() * torch.eye(n)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y[:, None], L)
        return 0.5 * (y[:, None] * alpha).sum() + L.diagonal().log().sum() + 0.5 * n * math.log(2 * math.pi)

    @torch.no_grad()
    def predict(self, X, y, X_star):
        K = self.kernel(X, X) + self.log_noise.exp() * torch.eye(X.shape[0])
        return self.kernel(X_star, X) @ torch.linalg.solve(K, y)


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.rand(30, 2) * 4
    y = torch.sin(X[:, 0]) + 0.1 * torch.randn(30)
    gp = ExactGP()
    opt = torch.optim.Adam(gp.parameters(), lr=0.05)
    for it in range(20):
        loss = gp.neg_log_marginal_likelihood(X, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item(), gp.predict(X, y, torch.rand(5, 2) * 4).shape)
