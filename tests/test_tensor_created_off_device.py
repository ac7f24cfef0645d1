"""SC212 follows a helper method's CPU result into the attribute or name that keeps it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from tests.helpers import lint_project, project_rows

CACHE = """
    import torch
    import torch.nn as nn
    class Positions(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.dim = dim
            self.table = None
        def _build(self, length):
            return torch.arange(length).float()[:, None].repeat(1, self.dim)
        def forward(self, tokens):
            if self.table is None or self.table.size(0) != tokens.size(1):
                self.table = self._build(tokens.size(1))
            {use}
    positions = Positions(8).cuda()
"""


def rows(use: str) -> list[int]:
    source = textwrap.dedent(CACHE).replace("{use}", use)
    return [finding.location.row for finding in lint_text(source, "positions.py", resolve(["SC212"])).findings]


def test_a_cache_moved_at_each_read_is_placed() -> None:
    assert rows("return tokens[..., None] + self.table.to(tokens.device)") == []
    assert rows("return self.table.expand(tokens.size(0), -1, -1).clone().to(tokens.device)") == []


def test_a_cache_read_unplaced_is_still_found() -> None:
    assert rows("return self.table") == [10]  # handed back to a caller on the device, off it
    assert rows("return tokens[..., None] + self.table.to(tokens.device) + self.table") == [10]


def test_a_local_name_for_the_result_is_followed() -> None:
    source = textwrap.dedent(CACHE).replace("{use}", "table = self._build(tokens.size(1))\n"
                                            "        return tokens[..., None] + table.to(tokens.device)")
    assert [f.location.row for f in lint_text(source, "p.py", resolve(["SC212"])).findings] == []


def test_a_local_moved_and_bound_back_is_placed_for_the_reads_after() -> None:
    moved = "table = self._build(tokens.size(1))\n        table = table.to(tokens.device)\n" \
            "        return tokens[..., None] + table"
    assert [f.location.row for f in lint_text(textwrap.dedent(CACHE).replace("{use}", moved), "p.py",
                                              resolve(["SC212"])).findings] == []
    # read with the inputs before the move: that read meets them on the CPU
    early = "table = self._build(tokens.size(1))\n        out = tokens[..., None] + table\n" \
            "        table = table.to(tokens.device)\n        return out, table"
    assert [f.location.row for f in lint_text(textwrap.dedent(CACHE).replace("{use}", early), "p.py",
                                              resolve(["SC212"])).findings] == [10]


PREPARED = """
    import torch
    import torch.nn as nn
    from .solvers import integrate
    class Flow(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.fc = nn.Linear(d, d)
        def _prepare(self, z, n):
            grid = torch.linspace(0.0, 1.0, n)
            return z, grid
        def forward(self, z):
            z, grid = self._prepare(z, z.size(1))
            {use}
    flow = Flow(4).cuda()
"""


def test_only_the_unpacked_name_at_the_tensor_s_position_holds_it() -> None:
    def rows(use: str) -> list[int]:
        source = textwrap.dedent(PREPARED).replace("{use}", use)
        return [f.location.row for f in lint_text(source, "flow.py", resolve(["SC212"])).findings]

    assert rows("return integrate(self.fc, z, grid)") == []  # `z`, handed back, is no CPU tensor
    assert rows("return self.fc(z) * grid") == [10]


LAYERS = """
    import math
    import torch
    import torch.nn as nn
    class PositionalEncoding(nn.Module):
        def __init__(self, d_model, max_len=512):
            super().__init__()
            position = torch.arange(max_len).unsqueeze(1)
            div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
            pe = torch.zeros(max_len, d_model)
            pe[:, 0::2] = torch.sin(position * div_term)
            pe[:, 1::2] = torch.cos(position * div_term)
            KEEP
        def forward(self, x):
            return x + self.pe[: x.size(1)]
"""

MODEL = """
    import torch.nn as nn
    from .layers import PositionalEncoding
    class TransformerClassifier(nn.Module):
        def __init__(self, vocab, d_model=32):
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            self.pos = PositionalEncoding(d_model)
            self.head = nn.Linear(d_model, 2)
        def forward(self, tokens):
            return self.head(self.pos(self.embed(tokens)).mean(1))
    def build_classifier(vocab):
        return TransformerClassifier(vocab)
"""


def test_a_layer_held_by_a_model_of_another_module_that_a_script_moves(tmp_path: Path) -> None:
    """`layers.py` defines the layer, `model.py` holds it in its model, `train.py` moves the model."""
    package = tmp_path / "nets"
    package.mkdir()
    (package / "__init__.py").write_text("from .model import TransformerClassifier, build_classifier\n")
    (package / "model.py").write_text(textwrap.dedent(MODEL))
    layers = package / "layers.py"

    def found(keep: str, moved: str) -> list[int]:
        layers.write_text(textwrap.dedent(LAYERS).replace("KEEP", keep))
        (tmp_path / "train.py").write_text(f"import torch\nfrom nets import TransformerClassifier, build_classifier\n"
                                           f"model = {moved}\n")
        PROJECT.forget()
        return [finding.location.row for finding in
                lint_text(layers.read_text(), str(layers), resolve(["SC212"])).findings]

    assert found("self.pe = pe", "TransformerClassifier(100).to('cuda')") == [10]
    assert found("self.pe = pe", "build_classifier(100).cuda()") == [10]
    assert found('self.register_buffer("pe", pe)', "TransformerClassifier(100).to('cuda')") == []
    assert found("self.pe = pe", "TransformerClassifier(100)") == []  # kept on the CPU


# A positional table kept as a plain attribute by a submodule of an encoder of another module; the package's
# `__init__` builds the encoder in `build_model`, and the trainer of the script moves what it is handed.
POSITIONS = LAYERS.replace("KEEP", "self.pe = pe")

ENCODER = MODEL.replace("TransformerClassifier", "Encoder")

ENCODER_TRAINER = """
    import torch
    from nets import build_model

    class Trainer:
        def __init__(self, model, cfg):
            self.device = torch.device(cfg["device"])
            self.model = MOVED
            self.opt = torch.optim.Adam(self.model.parameters())

        def fit(self, steps):
            for _ in range(steps):
                tokens = torch.randint(0, 1000, (8, 32), device=self.device)
                labels = torch.randint(0, 2, (8,), device=self.device)
                loss = torch.nn.functional.cross_entropy(self.model(tokens), labels)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()

    cfg = {"vocab": 1000, "d_model": 64, "device": "cuda"}
    Trainer(build_model(cfg), cfg).fit(3)
"""


def test_a_submodule_s_table_of_a_model_a_package_factory_builds_and_a_trainer_moves(tmp_path: Path) -> None:
    def found(moved: str = "model.to(self.device)") -> list[tuple[str, int]]:
        return lint_project(tmp_path, {
            "nets/__init__.py": "from .model import Encoder\n\ndef build_model(cfg):\n"
                                "    return Encoder(cfg['vocab'], cfg['d_model'])\n",
            "nets/layers.py": POSITIONS, "nets/model.py": ENCODER,
            "train.py": ENCODER_TRAINER.replace("MOVED", moved)}, "SC212")

    assert found() == [("nets/layers.py", 10)]
    assert found("model") == []  # the trainer keeps the model where it is
    assert found('model.to("cpu")') == []


# The layer held by an encoder that a sequence-to-sequence model of the same module holds in turn; the script moves
# only the outer model.
NESTED = """
    import torch.nn as nn
    from .layers import PositionalEncoding
    class Encoder(nn.Module):
        def __init__(self, vocab, d_model):
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            self.pos = PositionalEncoding(d_model)
        def forward(self, src):
            return self.pos(self.embed(src))
    class Seq2Seq(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.encoder = Encoder(cfg["vocab"], cfg["d_model"])
            self.out = nn.Linear(cfg["d_model"], cfg["vocab"])
        def forward(self, src):
            return self.out(self.encoder(src))
"""


def test_a_layer_held_through_an_encoder_of_a_model_a_trainer_moves(tmp_path: Path) -> None:
    def found(keep: str = "self.pe = pe", moved: str = "Seq2Seq(cfg).to(self.device)") -> list[int]:
        trainer = ("import torch\nfrom models import Seq2Seq\nclass Trainer:\n    def __init__(self, cfg):\n"
                   f"        self.device = torch.device('cuda')\n        self.model = {moved}\n"
                   "Trainer({'vocab': 100, 'd_model': 32})\n")
        return project_rows(tmp_path, "models/layers.py", {
            "models/__init__.py": "from .transformer import Seq2Seq\n", "models/transformer.py": NESTED,
            "models/layers.py": LAYERS.replace("KEEP", keep), "train.py": trainer}, "SC212")

    assert found() == [10]
    assert found(keep='self.register_buffer("pe", pe)') == []
    assert found(moved="Seq2Seq(cfg)") == []  # kept on the CPU


# ALAE's layout: `model.py` makes noise with `torch.randn` in `forward`, `train.py` imports the model and the
# launcher and moves the model; `%s` is what the launcher does before it runs the training.
DEFAULT_DEVICE = {
    "pyproject.toml": "",
    "model.py": """
        import torch
        from torch import nn


        class Generator(nn.Module):
            def __init__(self, latent: int = 16):
                super().__init__()
                self.latent = latent
                self.fc = nn.Linear(latent, 32)

            def forward(self, x):
                z = torch.randn(x.shape[0], self.latent)
                return self.fc(z) + x
    """,
    "launcher.py": """
        import torch


        def run(fn):
            %s
            fn()
    """,
    "train.py": """
        import torch
        from launcher import run
        from model import Generator


        def train():
            model = Generator().cuda()
            print(model(torch.zeros(4, 32, device="cuda")))


        run(train)
    """,
}


@pytest.mark.parametrize(("launch", "rows"), [
    ("torch.backends.cudnn.benchmark = True", [13]),
    ('torch.set_default_tensor_type("torch.cuda.FloatTensor")', []),
    ('torch.set_default_device("cuda")', []),
])
def test_a_default_device_the_program_sets_leaves_the_factory_s_device_unknown(
        tmp_path: Path, launch: str, rows: list[int]) -> None:
    files = {**DEFAULT_DEVICE, "launcher.py": DEFAULT_DEVICE["launcher.py"] % launch}
    assert project_rows(tmp_path, "model.py", files, "SC212") == rows
