import numpy as np
import torch
from torch import nn

xs = torch.linspace(-4, 4, 201)
activations = {"tanh": nn.Tanh(), "sigmoid": nn.Sigmoid(), "gelu": nn.GELU(), "softplus": nn.Softplus()}

table = {}
for name, act in activations.items():
    ys = act(xs).detach().numpy()
    table[name] = (float(ys.min()), float(ys.max()), float(np.gradient(ys, xs.numpy()).max()))

for name, (lo, hi, slope) in table.items():
    print(f"{name:9s} range [{lo:+.2f}, {hi:+.2f}]  max slope {slope:.2f}")
