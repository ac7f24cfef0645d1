"""SC216 on residual updates written in place over a tensor a layer with weights kept as its input: the layers of
an `nn.ModuleList` looped over or indexed, a feed-forward block of another module of a package, a slice assignment
`x[:] = ...`; and on a sigmoid output changed in a LightningModule's `training_step`, whose returned loss the
trainer backpropagates. Each fixed version (a new tensor) and a loop over layers that keep no input stay silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from tests.test_inplace_on_saved_tensor import lint_project


def rows(source: str) -> list[int]:
    return [finding.location.row for finding in
            lint_text(textwrap.dedent(source), "model.py", resolve(["SC216"])).findings]


LOOPED = """
    import torch
    from torch import nn

    class ResidualMLP(nn.Module):
        def __init__(self, d, depth=4):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(depth)])
            self.proj = nn.ModuleList(nn.Linear(d, d) for _ in range(2))
            self.acts = nn.ModuleList([nn.ReLU(), nn.Dropout(0.1)])
            self.head = nn.Linear(d, 1)

        def forward(self, x):
            for layer in self.layers:
                %s
            for i in range(len(self.proj)):
                h = self.proj[i](x)
                %s
            for act in self.acts:
                x += act(x)
            return self.head(x)

    model = ResidualMLP(32)
    model(torch.randn(8, 32)).mean().backward()
    """


def test_the_layers_of_a_module_list_keep_their_input() -> None:
    assert rows(LOOPED % ("x += torch.relu(layer(x))", "x = x + torch.relu(h)")) == [15]
    # `x[:] = ...` leaves `x` the tensor `self.proj[i]` kept: the loop over `self.acts` changes it again
    assert rows(LOOPED % ("x = x + torch.relu(layer(x))", "x[:] = x + torch.relu(h)")) == [18, 20]


def test_new_tensors_and_layers_that_keep_no_input_are_silent() -> None:
    # ReLU keeps its output and Dropout its mask: `x += act(x)` changes neither
    assert rows(LOOPED % ("x = x + torch.relu(layer(x))", "x = x + torch.relu(h)")) == []


FEED_FORWARD = """
    from torch import nn

    class FeedForward(nn.Module):
        def __init__(self, d, hidden):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d))

        def forward(self, x):
            return self.net(x)
    """

ENCODER = """
    from torch import nn

    from .layers import FeedForward

    class EncoderLayer(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
            self.ff = FeedForward(d, 4 * d)

        def forward(self, x):
            a, _ = self.attn(x, x, x)
            x = x + a
            %s
            return x
    """

TRAIN = """
    import torch

    from nets.encoder import EncoderLayer

    layer = EncoderLayer(32, 4)
    opt = torch.optim.Adam(layer.parameters())
    for _ in range(3):
        loss = layer(torch.randn(2, 5, 32)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    """


def test_a_feed_forward_block_of_another_module_keeps_its_input(tmp_path: Path) -> None:
    files = {"nets/__init__.py": "", "nets/layers.py": FEED_FORWARD, "nets/encoder.py": ENCODER % "x += self.ff(x)",
             "train.py": TRAIN}
    assert lint_project(tmp_path, files, "nets/encoder.py") == [15]
    fixed = {**files, "nets/encoder.py": ENCODER % "x = x + self.ff(x)"}
    assert lint_project(tmp_path, fixed, "nets/encoder.py") == []


LIGHTNING = """
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    from torch import nn

    class Segmenter(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Conv2d(3, 1, 3, padding=1)

        def forward(self, x):
            return self.net(x)

        def training_step(self, batch, batch_idx):
            x, y = batch
            preds = torch.sigmoid(self(x))
            %s
            return F.binary_cross_entropy(preds, y.clamp(min=0))
    """


def test_a_sigmoid_output_changed_in_a_lightning_training_step() -> None:
    assert rows(LIGHTNING % "preds[y < 0] = 0.0") == [18]
    assert rows(LIGHTNING % "preds = torch.where(y < 0, torch.zeros_like(preds), preds)") == []
