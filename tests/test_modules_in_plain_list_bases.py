"""SC217 on a model and its experts whose module base is a class of another module of the package (`class
MLPExpert(BaseModule)` with `BaseModule(nn.Module)` in `base.py`): the experts of a config-built MMoE kept in a
plain list comprehension, also picked from a registry by name; a `nn.ModuleList`, or a list of plain objects built
on a project base that is no module, stays silent."""

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
