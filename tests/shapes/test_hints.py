"""`shapecheck shapes FILE`: the inferred shape after each assignment, in the code's own symbols."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from shapecheck.cli import main

ATTENTION = '''\
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (k @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = F.softmax(att, dim=-1)
        y = att @ k
        return y.transpose(1, 2).contiguous().view(B, T, C)


def configure(depth):
    config = {"depth": depth}
    return config
'''


def run(*args: str):
    return CliRunner().invoke(main, ["shapes", *args])


def hints(path: Path) -> str:
    """What `shapecheck shapes PATH` prints, which must succeed."""
    result = run(str(path))
    assert result.exit_code == 0, result.output
    return result.output


def test_prints_the_shape_after_each_assignment(tmp_path: Path) -> None:
    path = tmp_path / "attention.py"
    path.write_text(ATTENTION)
    assert hints(path) == (
        f"{path}: CausalSelfAttention.forward\n"
        "     16  q: (B, T, self.n_embd)\n"
        "     16  k: (B, T, self.n_embd)\n"
        "     16  v: (B, T, self.n_embd)\n"
        "     17  k: (B, self.n_head, T, C // self.n_head)\n"
        "     18  att: (B, self.n_head, T, T)\n"
        "     19  att: (B, self.n_head, T, T)\n"
        "     20  y: (B, self.n_head, T, C // self.n_head)\n"
    )


def test_annotations_and_folders(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "pool.py").write_text(
        "import torch\nfrom jaxtyping import Float\n"
        "def pool(x: Float[torch.Tensor, 'B N D']):\n    b, n, d = x.shape\n    total = x.sum(dim=1, keepdim=True)\n"
        "    return total\n")
    result = run(str(tmp_path))
    assert result.exit_code == 0
    assert result.output.splitlines()[1:] == ["      4  b: B", "      4  n: N", "      4  d: D", "      5  total: (B, 1, D)"]


def test_bad_files_are_named_and_the_others_go_on(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def f(:\n")
    (tmp_path / "good.py").write_text("import torch\nx = torch.zeros(2, 3)\n")
    result = run(str(tmp_path / "bad.py"), str(tmp_path / "good.py"), str(tmp_path / "missing.py"))
    assert result.exit_code == 2
    assert "bad.py" in result.stderr and "missing.py" in result.stderr
    assert "      2  x: (2, 3)" in result.stdout


def test_calls_followed_into_functions_of_the_file_and_of_the_project(tmp_path: Path) -> None:
    """What a call gives is what running the callee on the call's shapes gives: a helper of the same file, a model
    and a function imported from a sibling module."""
    (tmp_path / "blocks.py").write_text(
        "import torch\nfrom torch import nn\n"
        "class Mixer(nn.Module):\n    def __init__(self, width=32):\n        super().__init__()\n"
        "        self.proj = nn.Linear(width, 2 * width)\n    def forward(self, x):\n        return self.proj(x)\n"
        "def last_token(h):\n    return h[:, -1]\n")
    (tmp_path / "run.py").write_text(
        "import torch\nfrom blocks import Mixer, last_token\n"
        "def halves(t):\n    return t.chunk(2, dim=-1)[0]\n"
        "tokens = torch.randn(4, 10, 32)\nmixed = Mixer()(tokens)\nfinal = last_token(mixed)\nhalf = halves(final)\n")
    result = run(str(tmp_path / "run.py"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:] == ["      5  tokens: (4, 10, 32)", "      6  mixed: (4, 10, 64)",
                                              "      7  final: (4, 64)", "      8  half: (4, 32)"]


def test_calls_followed_into_other_functions_and_files(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(
        "import torch.nn as nn\n\n\n"
        "class Encoder(nn.Module):\n"
        "    def __init__(self, d_in=16, hidden=32):\n"
        "        super().__init__()\n"
        "        self.rnn = nn.GRU(d_in, hidden, batch_first=True, bidirectional=True)\n\n"
        "    def forward(self, x):\n"
        "        return self.rnn(x)\n")
    train = tmp_path / "train.py"
    train.write_text(
        "import torch\nfrom model import Encoder\n\n\n"
        "def pool(out):\n"
        "    return torch.fft.rfft(out, dim=1).abs()\n\n\n"
        "out, h = Encoder()(torch.randn(4, 10, 16))\n"
        "spectrum = pool(out)\n")
    assert hints(train) == (
        f"{train}: <module>\n"
        "      9  out: (4, 10, 64)\n"
        "      9  h: (2, 4, 32)\n"
        "     10  spectrum: (4, 6, 64)\n"
    )


FOLLOWED = '''\
import torch

CONFIG = {"batch": 8, "dim": 16, "hidden": 32}


def train(cfg):
    x = torch.randn(cfg["batch"], cfg["dim"])
    w = torch.randn(cfg["dim"], cfg["hidden"])
    h = x @ w
    return h.sum()


def main():
    train(CONFIG)


def twice(cfg):
    x = torch.randn(cfg["batch"], cfg["dim"])
    return x


def never_called(cfg):
    x = torch.randn(cfg["batch"], cfg["dim"])
    return x


main()
twice(CONFIG)
twice({"batch": 4, "dim": 16})
'''


def test_a_function_is_also_shown_on_the_values_every_call_of_it_passes(tmp_path: Path) -> None:
    """`train` is called once, with the config: its body's shapes on it follow the blocks of what the signatures
    say (a config's items are sizes of their own). `twice` is called with two configs (no one value is sure) and
    `never_called` never: only their signatures' block."""
    path = tmp_path / "followed.py"
    path.write_text(FOLLOWED)
    on_signature = ['      7  x: (cfg["batch"], cfg["dim"])', '      8  w: (cfg["dim"], cfg["hidden"])',
                    '      9  h: (cfg["batch"], cfg["hidden"])']
    assert hints(path) == (
        f"{path}: train\n" + "".join(line + "\n" for line in on_signature)
        + f'{path}: twice\n     18  x: (cfg["batch"], cfg["dim"])\n'
        + f'{path}: never_called\n     23  x: (cfg["batch"], cfg["dim"])\n'
        f"{path}: train, as called: `train(CONFIG)`\n"
        "      7  x: (8, 16)\n"
        "      8  w: (16, 32)\n"
        "      9  h: (8, 32)\n"
    )
