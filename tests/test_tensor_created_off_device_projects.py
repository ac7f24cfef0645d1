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


def test_a_trainer_keeping_the_model_then_moving_its_attribute(tmp_path: Path) -> None:
    """`self.model = model`, then `self.model.to(self.device)` (or `self.model = self.model.cuda()`) in a trainer of
    another module: the model handed to it is moved, and its layers' plain tensor attributes stay behind."""
    files = {"nets/__init__.py": "", "nets/layers.py": LAYERS.replace("SCALE", SQRT).replace("PE", TABLE),
             "nets/classifier.py": CLASSIFIER, "train.py": TRAIN}
    kept = TRAINER.replace("self.model = model.to(device)", "self.model = model\n            self.model.to(device)")
    assert lint_project(tmp_path, {**files, "trainer.py": kept}, "SC212") == [("nets/layers.py", 21),
                                                                              ("nets/layers.py", 34)]
    rebound = TRAINER.replace("self.model = model.to(device)",
                              "self.model = model\n            self.model = self.model.cuda()")
    assert lint_project(tmp_path, {**files, "trainer.py": rebound}, "SC212") == [("nets/layers.py", 21),
                                                                                 ("nets/layers.py", 34)]
    # kept, but what is moved is another module bound to the same attribute later: not the one handed in
    swapped = TRAINER.replace("self.model = model.to(device)",
                              "self.model = model\n            self.model = torch.nn.Identity()\n"
                              "            self.model.to(device)")
    assert lint_project(tmp_path, {**files, "trainer.py": swapped}, "SC212") == []
    # kept and never moved, or moved to the CPU
    cpu = TRAINER.replace("self.model = model.to(device)", "self.model = model\n            self.model.to('cpu')")
    assert lint_project(tmp_path, {**files, "trainer.py": cpu}, "SC212") == []


ROPE = """
    import torch
    import torch.nn as nn


    class RotaryEmbedding(nn.Module):
        def __init__(self, dim, base=10000):
            super().__init__()
            INV_FREQ

        def forward(self, x):
            t = torch.arange(x.shape[-2], device=x.device, dtype=x.dtype)
            freqs = torch.outer(t, self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            x1, x2 = x.chunk(2, dim=-1)
            return x * emb.cos() + torch.cat((-x2, x1), dim=-1) * emb.sin()
"""

ATTENTION = """
    import torch.nn as nn
    import torch.nn.functional as F

    from .rope import RotaryEmbedding


    class SelfAttention(nn.Module):
        def __init__(self, dim, heads):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(dim, dim * 3)
            self.rotary = RotaryEmbedding(dim // heads)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2) for z in self.qkv(x).chunk(3, dim=-1))
            out = F.scaled_dot_product_attention(self.rotary(q), self.rotary(k), v, is_causal=True)
            return out.transpose(1, 2).reshape(b, t, d)
"""

GPT = """
    import torch.nn as nn

    from .attention import SelfAttention


    class TinyGPT(nn.Module):
        def __init__(self, vocab, dim=32, heads=4, depth=2):
            super().__init__()
            self.tok = nn.Embedding(vocab, dim)
            self.blocks = nn.ModuleList([SelfAttention(dim, heads) for _ in range(depth)])
            self.lm_head = nn.Linear(dim, vocab)

        def forward(self, idx):
            x = self.tok(idx)
            for block in self.blocks:
                x = x + block(x)
            return self.lm_head(x)
"""

LM_TRAIN = """
    import argparse

    import torch
    import torch.nn.functional as F

    from nets.gpt import TinyGPT

    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    model = TinyGPT(64).to(args.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(10):
        batch = torch.randint(0, 64, (4, 17), device=args.device)
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 64), batch[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_rotary_frequencies_kept_as_a_plain_attribute_meet_the_positions_in_torch_outer(tmp_path: Path) -> None:
    """RoPE's `inv_freq` kept as a plain attribute, three modules below the model `train.py` moves, meets the
    positions made on the input's device in `torch.outer`: "Expected all tensors to be on the same device"."""
    def found(inv_freq: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"nets/__init__.py": "", "nets/rope.py": ROPE.replace("INV_FREQ", inv_freq),
                                       "nets/attention.py": ATTENTION, "nets/gpt.py": GPT, "train.py": LM_TRAIN},
                            "SC212")

    assert found("self.inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))") == [("nets/rope.py", 9)]
    assert found('self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)))') == []
    # made on the CPU, then placed where it is used
    placed = ROPE.replace("torch.outer(t, self.inv_freq)", "torch.outer(t, self.inv_freq.to(x.device))")
    assert lint_project(tmp_path, {"nets/__init__.py": "", "nets/rope.py": placed.replace(
        "INV_FREQ", "self.inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))"),
        "nets/attention.py": ATTENTION, "nets/gpt.py": GPT, "train.py": LM_TRAIN}, "SC212") == []
