"""`einops.einsum` (operands first, the pattern last, axes named by words), read as `torch.einsum` is: a memory
attention of a vision transformer's package that prepends learned memory keys to the keys and forgets the values;
with its fixed look-alike and einops patterns that hold."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

# the attention weights over 2 memory slots and 17 tokens (19 keys) contracted with the 17 values (checked in torch
# 2.13 with einops 0.8: "einsum(): subscript d has size 17 for operand 1 which does not broadcast with previously
# seen size 19"); the memory values prepended too are clean
_ATTENTION = '''
import torch
import torch.nn as nn
from einops import einsum, rearrange, repeat


class MemoryAttention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=16, num_mem=2):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.mem_kv = nn.Parameter(torch.randn(2, heads, num_mem, dim_head))
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x):
        b = x.shape[0]
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        mk, mv = repeat(self.mem_kv, "kv h m d -> kv b h m d", b=b).unbind(dim=0)
        %s
        dots = einsum(q, k, "b h i d, b h j d -> b h i j") * self.scale
        attn = dots.softmax(dim=-1)
        out = einsum(attn, v, "b h i j, b h j d -> b h i d")
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))
'''
_MODEL = '''
import torch.nn as nn

from .attention import MemoryAttention


class Encoder(nn.Module):
    def __init__(self, dim, depth, num_classes):
        super().__init__()
        self.layers = nn.ModuleList([MemoryAttention(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, tokens):
        for layer in self.layers:
            tokens = tokens + layer(tokens)
        return self.head(self.norm(tokens).mean(dim=1))
'''
_TRAIN = '''
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from vit.model import Encoder


@dataclass
class Config:
    dim: int = 32
    depth: int = 2
    num_classes: int = 10
    num_tokens: int = 17
    batch_size: int = 8


def main(cfg: Config):
    model = Encoder(cfg.dim, cfg.depth, cfg.num_classes)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(2):
        tokens = torch.randn(cfg.batch_size, cfg.num_tokens, cfg.dim)
        labels = torch.randint(0, cfg.num_classes, (cfg.batch_size,))
        loss = F.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main(Config())
'''


def _vit(memory: str) -> dict[str, str]:
    return {"vit/__init__.py": "", "vit/attention.py": _ATTENTION % memory, "vit/model.py": _MODEL,
            "train.py": _TRAIN}


def test_memory_keys_prepended_without_their_values_in_an_einops_einsum(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _vit("k = torch.cat((mk, k), dim=-2)"), "SC105") == [("train.py", 25)]
    assert lint_project(tmp_path, _vit("k, v = torch.cat((mk, k), dim=-2), torch.cat((mv, v), dim=-2)"),
                        "SC105") == []


def test_memory_slots_unpacked_from_a_generator_over_the_parameter(tmp_path: Path) -> None:
    # `mk, mv = (repeat(t, ...) for t in self.mem_kv)`: a generator over the (2, heads, slots, dim) parameter's
    # rows, unpacked into its two rows in the run of the trainer's call
    files = _vit("k = torch.cat((mk, k), dim=-2)")
    files["vit/attention.py"] = files["vit/attention.py"].replace(
        'repeat(self.mem_kv, "kv h m d -> kv b h m d", b=b).unbind(dim=0)',
        '(repeat(t, "h m d -> b h m d", b=b) for t in self.mem_kv)')
    assert "for t in self.mem_kv" in files["vit/attention.py"]
    assert lint_project(tmp_path, files, "SC105") == [("train.py", 25)]


_PATTERNS = '''
import torch
from einops import einsum

q = torch.randn(2, 4, 10, 8)
k = torch.randn(2, 4, 12, 8)
scores = einsum(q, k, "batch head i d, batch head j d -> batch head i j")
pooled = einsum(torch.randn(3, 5, 7), torch.randn(7), "... d, d -> ...")
bad = einsum(q, torch.randn(2, 4, 12, 6), "b h i d, b h j d -> b h i j")
'''


def test_einops_patterns_of_words_and_ellipses(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"patterns.py": _PATTERNS}, "SC105") == [("patterns.py", 9)]
