"""SC201 on a trainer whose optimizer its own method builds (`self.opt = self.make_optimizer()`): the modules that
method hands the optimizer say whether `self.model.zero_grad()` resets all it steps."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

TRAINER = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class RegressionTrainer:
        def __init__(self, model, cfg):
            self.model = model
            self.cfg = cfg
            self.head = nn.Linear(1, 1)
            self.opt = self.make_optimizer()

        def make_optimizer(self):
            params = PARAMS
            return torch.optim.SGD(params, lr=self.cfg["lr"])

        def training_step(self, batch):
            x, y = batch
            RESET
            out = self.head(self.model(x).unsqueeze(-1)).squeeze(-1)
            loss = F.mse_loss(out, y)
            loss.backward()
            self.opt.step()
            return {"loss": loss.item()}

        def fit(self, loader):
            for epoch in range(self.cfg["epochs"]):
                for batch in loader:
                    logs = self.training_step(batch)
                print(epoch, logs)
"""

TRAIN = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset

    from trainer import RegressionTrainer

    CFG = {"lr": 1e-2, "epochs": 2}

    if __name__ == "__main__":
        x = torch.randn(64, 8)
        loader = DataLoader(TensorDataset(x, x.sum(1)), batch_size=16)
        RegressionTrainer(nn.Linear(8, 1), CFG).fit(loader)
"""

BOTH = "list(self.model.parameters()) + list(self.head.parameters())"
GROUPS = '[{"params": self.model.parameters()}, {"params": self.head.parameters(), "lr": 1e-3}]'


def found(folder: Path, params: str, reset: str) -> list[tuple[str, int]]:
    return lint_project(folder, {"trainer.py": TRAINER.replace("PARAMS", params).replace("RESET", reset),
                                 "train.py": TRAIN}, "SC201")


def test_a_model_reset_leaves_the_head_the_trainer_s_own_method_hands_the_optimizer(tmp_path: Path) -> None:
    assert found(tmp_path, BOTH, "self.model.zero_grad()") == [("trainer.py", 24)]
    assert found(tmp_path, GROUPS, "self.model.zero_grad()") == [("trainer.py", 24)]
    assert found(tmp_path, BOTH, "self.opt.zero_grad()") == []
    # the method hands the optimizer the model's parameters only: the model's reset clears all it steps
    assert found(tmp_path, "self.model.parameters()", "self.model.zero_grad()") == []
    assert found(tmp_path, BOTH, "self.model.zero_grad()\n            self.head.zero_grad()") == []


BASE = """
    import torch


    class BaseTrainer:
        def __init__(self, model, cfg):
            self.model = model
            self.cfg = cfg
            self.opt = self.configure_optimizer()

        def configure_optimizer(self):
            return torch.optim.AdamW(PARAMS, lr=self.cfg.lr)

        def train_step(self, batch):
            raise NotImplementedError

        def fit(self, loader):
            for epoch in range(self.cfg.epochs):
                self.model.train()
                losses = [self.train_step(batch) for batch in loader]
                print(epoch, sum(losses) / len(losses))
"""

REGRESSION = """
    import torch.nn as nn
    import torch.nn.functional as F

    from .base import BaseTrainer


    class RegressionTrainer(BaseTrainer):
        def train_step(self, batch):
            inputs, targets = batch
            loss = F.mse_loss(self.model(inputs).squeeze(-1), targets)
            BEFORE
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip)
            BETWEEN
            self.opt.step()
            return loss.item()
"""


def test_a_reset_between_backward_and_the_step_of_an_optimizer_a_base_class_of_another_module_builds(
        tmp_path: Path) -> None:
    """`self.model.zero_grad()` between `backward()` and `self.opt.step()` in a subclass whose base (another module)
    builds `self.opt` on `self.model`'s parameters: the step sees zero gradients, the model never learns."""
    def found(params: str, before: str, between: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"engine/__init__.py": "", "engine/base.py": BASE.replace("PARAMS", params),
                                       "engine/regression.py": REGRESSION.replace("BEFORE", before)
                                       .replace("BETWEEN", between)}, "SC201")

    assert found("self.model.parameters()", "pass", "self.model.zero_grad()") == [("engine/regression.py", 15)]
    assert found("self.model.parameters()", "self.model.zero_grad()", "pass") == []
    # the base's optimizer holds another module's parameters: resetting the model is no reset of it, between the
    # calls or not, so its step adds up the head's gradients
    assert found("self.cfg.head.parameters()", "pass", "self.model.zero_grad()") == [("engine/regression.py", 16)]
    assert found("self.cfg.head.parameters()", "self.opt.zero_grad()", "self.model.zero_grad()") == []
    # the same classes in one module
    one = BASE.replace("PARAMS", "self.model.parameters()") + REGRESSION.replace("from .base import BaseTrainer", "")
    assert lint_project(tmp_path / "one", {"trainer.py": one.replace("BEFORE", "pass").replace(
        "BETWEEN", "self.model.zero_grad()")}, "SC201") == [("trainer.py", 36)]
