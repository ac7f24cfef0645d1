"""SC212 on a layer that keeps a tensor `__init__` makes without a device as a plain attribute, mixed with the
input in `forward`, where the layer is a submodule (held in an `nn.ModuleList` too) of a model that a trainer
of another module moves, and the tensor comes through `torch.sqrt(...)`, arithmetic or a helper of the file."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

LAYERS = """
    import math

    import torch
    import torch.nn as nn


    def sinusoid_table(max_len, d_model):
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        return pe


    class ScaledAttention(nn.Module):
        def __init__(self, d_model, n_heads=2):
            super().__init__()
            self.qkv = nn.Linear(d_model, 3 * d_model)
            SCALE

        def forward(self, x):
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            attn = torch.softmax(q @ k.transpose(-2, -1) / self.scale, dim=-1)
            return attn @ v


    class Block(nn.Module):
        def __init__(self, d_model, max_len=128):
            super().__init__()
            self.attn = ScaledAttention(d_model)
            self.norm = nn.LayerNorm(d_model)
            PE

        def forward(self, x):
            x = x + self.pe[: x.size(1)]
            return self.norm(x + self.attn(x))
"""

CLASSIFIER = """
    import torch.nn as nn

    from .layers import Block


    class TransformerClassifier(nn.Module):
        def __init__(self, vocab, d_model=16, n_classes=2, depth=2):
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            self.blocks = nn.ModuleList([Block(d_model) for _ in range(depth)])
            self.fc = nn.Linear(d_model, n_classes)

        def forward(self, tokens):
            h = self.embed(tokens)
            for block in self.blocks:
                h = block(h)
            return self.fc(h.mean(1))
"""

TRAINER = """
    import torch
    import torch.nn.functional as F


    class Trainer:
        def __init__(self, model, device):
            self.device = device
            self.model = model.to(device)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)

        def step(self, tokens, labels):
            loss = F.cross_entropy(self.model(tokens.to(self.device)), labels.to(self.device))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.item()
"""

TRAIN = """
    import torch

    from nets.classifier import TransformerClassifier
    from trainer import Trainer

    if __name__ == "__main__":
        device = "cuda" if torch.cuda.is_available() else "cpu"
        trainer = Trainer(TransformerClassifier(vocab=50), device)
        for _ in range(3):
            trainer.step(torch.randint(0, 50, (4, 10)), torch.randint(0, 2, (4,)))
"""

SQRT = "self.scale = torch.sqrt(torch.FloatTensor([d_model // n_heads]))"
TABLE = "self.pe = sinusoid_table(max_len, d_model)"


def found(folder: Path, scale: str, pe: str, train: str = TRAIN) -> list[tuple[str, int]]:
    return lint_project(folder, {"nets/__init__.py": "", "nets/layers.py": LAYERS.replace("SCALE", scale)
                                 .replace("PE", pe), "nets/classifier.py": CLASSIFIER, "trainer.py": TRAINER,
                                 "train.py": train}, "SC212")


def test_tensors_of_submodules_a_trainer_of_another_module_moves(tmp_path: Path) -> None:
    assert found(tmp_path, SQRT, TABLE) == [("nets/layers.py", 21), ("nets/layers.py", 34)]
    assert found(tmp_path, "self.scale = torch.ones(1) * (d_model // n_heads) ** 0.5", TABLE) \
        == [("nets/layers.py", 21), ("nets/layers.py", 34)]
    buffers = ('self.register_buffer("scale", torch.sqrt(torch.FloatTensor([d_model // n_heads])))',
               'self.register_buffer("pe", sinusoid_table(max_len, d_model))')
    assert found(tmp_path, *buffers) == []
    # a number, or a 0-d tensor, mixes with CUDA tensors
    assert found(tmp_path, "self.scale = (d_model // n_heads) ** 0.5", 'self.register_buffer("pe", torch.zeros(1))') \
        == []


def test_tensors_of_a_model_nothing_moves_are_left_alone(tmp_path: Path) -> None:
    files = {"nets/__init__.py": "", "nets/layers.py": LAYERS.replace("SCALE", SQRT).replace("PE", TABLE),
             "nets/classifier.py": CLASSIFIER, "trainer.py": TRAINER.replace("model.to(device)", "model"),
             "train.py": TRAIN}
    assert lint_project(tmp_path, files, "SC212") == []
