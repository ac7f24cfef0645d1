import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def collect_inputs(layer: nn.Linear, n=32):
    x = torch.randn(n, layer.in_features)
    return x, layer(x)


def fit_scales(layer: nn.Linear, mask: torch.Tensor, x, y_dense, chunk=16, s_learning_rate=0.05, iters=5):
    """Sparse layer: learn per-input-channel scales that best reconstruct the dense outputs."""
    weight = (layer.weight * mask).detach()
    s = torch.ones(layer.out_features, layer.in_features, dtype=torch.float16)
    for start in range(0, layer.in_features, chunk):
        cols = slice(start, start + chunk)
        s_batch = s[:, cols].float().clone().requires_grad_(True)
        for _ in range(iters):
            scaled = weight.clone()
            scaled[:, cols] = weight[:, cols] * s_batch
            loss_s = F.mse_loss(x @ scaled.t(), y_dense)
            loss_s.backward()
            s_batch -= s_learning_rate * s_batch.grad
            s_batch.grad.zero_()
        s[:, cols] = s_batch.detach().to(dtype=torch.float16)
    return s


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = nn.Linear(48, 24)
    mask = (torch.rand_like(layer.weight) > 0.5).float()
    x, y = collect_inputs(layer)
    s = fit_scales(layer, mask, x, y)
    print(s.float().mean().item())
