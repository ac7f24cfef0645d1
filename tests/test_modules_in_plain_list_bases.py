"""SC217 on a model and its experts whose module base is a class of another module of the package (`class
MLPExpert(BaseModule)` with `BaseModule(nn.Module)` in `base.py`): the experts of a config-built MMoE kept in a
plain list comprehension, also picked from a registry by name, and experts of another module owning only
`nn.Parameter` weights; a `nn.ModuleList`, a list of plain objects built on a project base that is no module, or of
modules of another module holding no parameter, stays silent."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

BASE = """
    import torch.nn as nn

    class BaseModule(nn.Module):
        def num_params(self):
            return sum(p.numel() for p in self.parameters())

    class Registrable:
        registry = {}
    """

EXPERTS = """
    import torch.nn as nn

    from .base import BaseModule, Registrable

    class MLPExpert(BaseModule):
        def __init__(self, d_in, d_out):
            super().__init__()
            self.fc = nn.Linear(d_in, d_out)

        def forward(self, x):
            return self.fc(x).relu()

    class Router(Registrable):
        def __init__(self, n):
            self.n = n

    EXPERTS = {"mlp": MLPExpert}
    """

MMOE = """
    import torch

    from .base import BaseModule
    from .experts import EXPERTS, MLPExpert, Router

    class MMoE(BaseModule):
        def __init__(self, cfg):
            super().__init__()
            self.experts = %s
            self.shared = %s
            self.routers = [Router(cfg.n_experts) for _ in cfg.tasks]
            self.gate = torch.nn.Linear(cfg.d_in, cfg.n_experts)

        def forward(self, x):
            outs = torch.stack([e(x) for e in [*self.experts, *self.shared]], 1)
            return outs.mean(1)
    """

PLAIN = ("[MLPExpert(cfg.d_in, cfg.d_out) for _ in range(cfg.n_experts)]",
         "[EXPERTS[cfg.kind](cfg.d_in, cfg.d_out) for _ in range(cfg.n_shared)]")
REGISTERED = tuple(f"torch.nn.ModuleList({built})" for built in PLAIN)


def _package(tmp_path: Path, built: tuple[str, str]) -> list[tuple[str, int]]:
    files = {"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/experts.py": EXPERTS, "pkg/mmoe.py": MMOE % built}
    return lint_project(tmp_path, files, "SC217")


def test_experts_on_a_base_of_another_module_kept_in_a_plain_list(tmp_path: Path) -> None:
    assert _package(tmp_path, PLAIN) == [("pkg/mmoe.py", 10), ("pkg/mmoe.py", 11)]


def test_experts_in_a_module_list_and_plain_objects_in_a_list_are_silent(tmp_path: Path) -> None:
    assert _package(tmp_path, REGISTERED) == []


# Experts of their own module that own raw weights, read in arithmetic (`x @ self.weight`), and a smoother that
# holds only a window size; `%s` stores the experts and `%s` the smoothers.
RAW_EXPERTS = """
    import torch
    from torch import nn

    class Expert(nn.Module):
        def __init__(self, d_in, d_out):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(d_in, d_out) * 0.02)
            self.bias = nn.Parameter(torch.zeros(d_out))

        def forward(self, x):
            return torch.relu(x @ self.weight + self.bias)

    class Smooth(nn.Module):
        def __init__(self, window):
            super().__init__()
            self.window = window

        def forward(self, x):
            return x.unfold(-1, self.window, 1).mean(-1) * (self.window / self.window)
    """

RAW_MMOE = """
    import torch
    from torch import nn

    from .expert import Expert, Smooth

    class MMoE(nn.Module):
        def __init__(self, input_dim, num_experts, hidden):
            super().__init__()
            self.experts = %s
            self.smoothers = %s
            self.gate = nn.Linear(input_dim, num_experts)

        def forward(self, x):
            w = torch.softmax(self.gate(x), -1).unsqueeze(-1)
            return (w * torch.stack([e(x) for e in self.experts], 1)).sum(1)
    """


def _raw(tmp_path: Path, experts: str) -> list[tuple[str, int]]:
    smoothers = "[Smooth(w) for w in (3, 5)]"
    files = {"mtl/__init__.py": "", "mtl/expert.py": RAW_EXPERTS, "mtl/mmoe.py": RAW_MMOE % (experts, smoothers)}
    return lint_project(tmp_path, files, "SC217")


def test_experts_of_another_module_owning_only_parameters_kept_in_a_plain_list(tmp_path: Path) -> None:
    assert _raw(tmp_path, "[Expert(input_dim, hidden) for _ in range(num_experts)]") == [("mtl/mmoe.py", 10)]


def test_the_same_experts_in_a_module_list_and_smoothers_without_parameters_are_silent(tmp_path: Path) -> None:
    assert _raw(tmp_path, "nn.ModuleList([Expert(input_dim, hidden) for _ in range(num_experts)])") == []
