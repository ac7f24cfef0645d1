"""What recording costs: a small transformer's forward pass unrecorded, while every call is recorded, and once each
function's shape signatures are all sampled (the steady state of a long run); and how long `annotate` takes.

    python bench/record_overhead.py [--rounds 15] [--steps 40]

The model lives in a generated package so the recorder targets it the way `--packages` would. The variants are
interleaved round by round in one process and medians of CPU time per forward pass are reported, with ratios to
the unrecorded run. The annotate figure is a generated 200-function module with two recorded calls each.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from shapecheck.record.annotate import annotate_source  # noqa: E402
from shapecheck.record.recorder import Recorder  # noqa: E402
from shapecheck.record.store import FunctionRecord  # noqa: E402

MODEL = '''
import torch
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def attend(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))

    def forward(self, x):
        x = x + self.attend(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Model(nn.Module):
    def __init__(self, vocab=64, d=32, n_layer=4, n_head=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, n_head) for _ in range(n_layer))
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
'''


def forward_time(model: torch.nn.Module, idx: torch.Tensor, steps: int) -> float:
    start = time.process_time()
    with torch.no_grad():
        for _ in range(steps):
            model(idx)
    return (time.process_time() - start) / steps


def fresh_forward_time(model: torch.nn.Module, idx: torch.Tensor, steps: int) -> float:
    """Per forward pass, with every call a new signature: the samples are forgotten before each pass, so each call
    is described in full and followed to its return (the cost of the first pass at each new shape)."""
    recorder = Recorder(packages=["benchmodel"], max_entries=10**9)
    total = 0.0
    with torch.no_grad():
        for _ in range(steps):
            for seen in recorder._shared.values():
                seen.clear()
            start = time.process_time()
            with recorder:
                model(idx)
            total += time.process_time() - start
    return total / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--steps", type=int, default=40)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    (folder / "benchmodel").mkdir()
    (folder / "benchmodel" / "__init__.py").write_text(MODEL)
    sys.path.insert(0, str(folder))
    model = importlib.import_module("benchmodel").Model().eval()
    idx = torch.randint(0, 64, (8, 16))
    times: dict[str, list[float]] = {"unrecorded": [], "recording every call": [], "once sampled": []}
    steady = Recorder(packages=["benchmodel"])
    for _ in range(options.rounds):
        times["unrecorded"].append(forward_time(model, idx, options.steps))
        times["recording every call"].append(fresh_forward_time(model, idx, options.steps))
        with steady:
            times["once sampled"].append(forward_time(model, idx, options.steps))
    base = statistics.median(times["unrecorded"])
    print(f"forward pass of a 4-block transformer (B=8, T=16, d=32), CPU time, median of {options.rounds} rounds")
    print(f"{'variant':<28}{'ms/forward':>12}{'x unrecorded':>15}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:<28}{median * 1e3:>12.3f}{median / base:>15.2f}")

    functions = "\n\n".join(f"def f{i}(x, w):\n    B, D = x.shape\n    return x @ w" for i in range(200))
    records = [FunctionRecord("m", f"f{i}", "/m.py", 1, "h", ["x", "w"],
                              [{"args": {"x": tensor(b, 8), "w": tensor(8, 4)}, "return": tensor(b, 4)}
                               for b in (2, 3)]) for i in range(200)]
    samples = []
    for _ in range(5):
        start = time.process_time()
        annotate_source(functions, records)
        samples.append(time.process_time() - start)
    print(f"annotate: 200 functions ({len(functions.splitlines())} lines) in {statistics.median(samples) * 1e3:.0f} ms"
          " (median of 5)")


def tensor(*shape: int) -> dict:
    return {"t": "tensor", "shape": list(shape), "dtype": "float32", "device": "cpu"}


if __name__ == "__main__":
    main()
