"""Layer-wise sparsification: learn a soft mask over a frozen linear layer's outputs by a few steps of
plain gradient descent on the reconstruction error of the dense layer's activations (calibration batches)."""
import argparse
import logging

import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger("sparse")


def calibration_batches(n_batches, batch, dim, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(batch, dim, generator=gen) for _ in range(n_batches)]


def fit_output_scale(layer: nn.Linear, batches, sparsity: float, lr: float, steps: int):
    with torch.no_grad():
        w = layer.weight.clone()
        threshold = w.abs().flatten().kthvalue(int(sparsity * w.numel())).values
        pruned = torch.where(w.abs() > threshold, w, torch.zeros_like(w))
    s = torch.ones(layer.out_features, requires_grad=True)
    for step in range(steps):
        for x in batches:
            dense = layer(x).detach()
            sparse = (x @ pruned.t()) * s + layer.bias.detach()
            loss_s = ((sparse - dense) ** 2).mean()
            loss_s.backward()
            with torch.no_grad():
                s -= lr * s.grad
            s.grad.zero_()
        logger.info("step %d recon %.5f", step, loss_s.item())
    return pruned, s.detach()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--sparsity", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args([])
    torch.manual_seed(0)
    layer = nn.Linear(args.dim, args.dim)
    layer.requires_grad_(False)
    pruned, scale = fit_output_scale(layer, calibration_batches(4, 16, args.dim), args.sparsity, args.lr, steps=3)
    logger.info("kept %d of %d weights, mean scale %.3f", int((pruned != 0).sum()), pruned.numel(), scale.mean())


if __name__ == "__main__":
    main()
