"""SC201 link of stop 45: a trainer's `self.opt = build_optimizer(cfg, self.model)` of another module, a factory
whose every `return` optimizes the parameters of the model it is handed: `self.model.zero_grad()` resets what
`self.opt` steps (misplaced between `backward()` and the step), and another module's reset does not."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

OPTIM = """
    import torch


    def build_optimizer(cfg, model):
        if cfg["optimizer"] == "adam":
            return torch.optim.Adam(model.parameters(), lr=cfg["lr"])
        return torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
"""

TRAINER = """
    import torch
    import torch.nn as nn

    from optim import build_optimizer


    class Trainer:
        def __init__(self, model, cfg):
            self.model = model
            self.net = nn.Linear(4, 1)
            self.cfg = cfg
            self.opt = build_optimizer(cfg, self.model)
            self.criterion = nn.MSELoss()

        def train_step(self, x, y):
            self.model.train()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.model.zero_grad()
            self.opt.step()
            return loss.item()

        def fit(self, batches, epochs):
            for epoch in range(epochs):
                total = sum(self.train_step(x, y) for x, y in batches)
                print(epoch, total / len(batches))
"""

MAIN = """
    import torch
    import torch.nn as nn

    from trainer import Trainer

    cfg = {"optimizer": "sgd", "lr": 0.01, "epochs": 2}
    model = nn.Linear(4, 1)
    batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
    Trainer(model, cfg).fit(batches, cfg["epochs"])
"""


def _lint(tmp_path: Path, trainer: str, optim: str = OPTIM) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"optim.py": optim, "trainer.py": trainer, "main.py": MAIN}, "SC201")


def test_the_model_reset_between_backward_and_the_step_of_a_factory_s_optimizer(tmp_path: Path) -> None:
    assert _lint(tmp_path, TRAINER) == [("trainer.py", 20)]


def test_the_model_reset_before_backward_is_clean(tmp_path: Path) -> None:
    fixed = TRAINER.replace("            loss.backward()\n            self.model.zero_grad()\n",
                            "            self.model.zero_grad()\n            loss.backward()\n")
    assert fixed != TRAINER
    assert _lint(tmp_path, fixed) == []


def test_another_module_s_reset_leaves_the_gradients_adding_up(tmp_path: Path) -> None:
    other = TRAINER.replace("            loss.backward()\n            self.model.zero_grad()\n",
                            "            self.net.zero_grad()\n            loss.backward()\n")
    assert other.count("self.net") == 2
    assert _lint(tmp_path, other) == [("trainer.py", 21)]


def test_a_factory_optimizing_something_else_in_a_branch_is_not_decided(tmp_path: Path) -> None:
    # one branch optimizes another module's parameters: the optimizer's modules are not known
    mixed = OPTIM.replace("    return torch.optim.SGD(model.parameters(), lr=cfg[\"lr\"], momentum=0.9)",
                          "    return torch.optim.SGD(torch.nn.Linear(4, 1).parameters(), lr=cfg[\"lr\"])")
    assert mixed != OPTIM
    assert _lint(tmp_path, TRAINER, mixed) == []
