"""SC214 across a project's modules: the scaled backward pass run by a method of a mixed-precision helper object of
another module (`self.amp.backward(loss)`), the clip in the trainer's own step; unscaled first, it is silent."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

AMP = """
    import torch

    class MixedPrecision:
        def __init__(self):
            self.scaler = torch.cuda.amp.GradScaler()

        def backward(self, loss):
            self.scaler.scale(loss).backward()

        def unscale(self, optimizer):
            self.scaler.unscale_(optimizer)

        def step(self, optimizer):
            self.scaler.step(optimizer)
            self.scaler.update()
    """

TRAINER = """
    import torch
    from torch import nn

    from .amp import MixedPrecision

    class Trainer:
        def __init__(self, model, optimizer):
            self.model, self.optimizer = model, optimizer
            self.amp = MixedPrecision()

        def train_batch(self, x, y):
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.model(x), y)
            self.amp.backward(loss)%s
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.amp.step(self.optimizer)

        def fit(self, loader, epochs):
            for _ in range(epochs):
                for x, y in loader:
                    self.train_batch(x, y)
    """


def test_a_scaled_backward_in_a_method_of_a_helper_object_of_another_module(tmp_path: Path) -> None:
    files = {"engine/__init__.py": "", "engine/amp.py": AMP, "engine/trainer.py": TRAINER % ""}
    assert lint_project(tmp_path, files, "SC214") == [("engine/trainer.py", 16)]


def test_the_helper_object_unscaling_before_the_clip_is_silent(tmp_path: Path) -> None:
    unscaled = TRAINER % "\n            self.amp.unscale(self.optimizer)"
    files = {"engine/__init__.py": "", "engine/amp.py": AMP, "engine/trainer.py": unscaled}
    assert lint_project(tmp_path, files, "SC214") == []


def test_a_loss_s_own_backward_is_no_call_of_the_helper_s_method(tmp_path: Path) -> None:
    # `loss.backward()` beside the helper class's `backward`: a plain pass, not the scaled one
    plain = (TRAINER % "").replace("self.amp.backward(loss)", "loss.backward()")
    files = {"engine/__init__.py": "", "engine/amp.py": AMP, "engine/trainer.py": plain}
    assert lint_project(tmp_path, files, "SC214") == []
