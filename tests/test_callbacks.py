"""A trainer's callbacks and hooks run at the points of its loop where it calls them (`shapecheck.loops.callbacks`):
a scheduler stepped or gradients clipped there are in the loop's order, in the trainer's module and in theirs."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import applicable
from shapecheck.engine.registry import all_rules
from shapecheck.objects.project import MAX_FOLDER_MODULES, PROJECT, sibling_files
from tests.helpers import lint_project


# detectron2's layout: the trainer's base class runs each hook's method by name, the hooks live beside it and
# import no torch, and the script that builds the trainer registers them.
TRAIN_LOOP = """
    class TrainerBase:
        def __init__(self):
            self._hooks = []

        def register_hooks(self, hooks):
            self._hooks.extend(hooks)

        def _call(self, event):
            for h in self._hooks:
                getattr(h, event)()

        def train(self, max_iter):
            self._call("before_train")
            for self.iter in range(max_iter):
                self._call("before_step")
                self.run_step()
                self._call("after_step")


    class SimpleTrainer(TrainerBase):
        def __init__(self, model, data, optimizer):
            super().__init__()
            self.model, self.data, self.optimizer = model, data, optimizer

        def run_step(self):
            loss = self.model(next(self.data))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
"""

HOOKS = """
    class HookBase:
        def before_step(self):
            pass

        def after_step(self):
            pass


    class LRScheduler(HookBase):
        def __init__(self, scheduler):
            self._scheduler = scheduler

        def before_step(self):
            self._scheduler.step()
"""


def test_a_hook_stepping_the_schedule_before_the_trainer_s_step_is_reported_in_both_modules(tmp_path: Path) -> None:
    files = {"engine/__init__.py": "", "engine/train_loop.py": TRAIN_LOOP, "engine/hooks.py": HOOKS}
    assert lint_project(tmp_path, files, "SC213") == [("engine/hooks.py", 15), ("engine/train_loop.py", 16)]


def test_a_hook_stepping_the_schedule_after_the_step_or_at_an_event_never_called_is_clean(tmp_path: Path) -> None:
    after = HOOKS.replace("def before_step(self):\n            self._scheduler", "def after_step(self):\n            "
                          "self._scheduler")
    files = {"engine/__init__.py": "", "engine/train_loop.py": TRAIN_LOOP, "engine/hooks.py": after}
    assert lint_project(tmp_path, files, "SC213") == []
    # `before_train` runs once, before the loop: no optimizer step of an iteration comes after it there
    once = HOOKS.replace("def before_step(self):\n            self._scheduler", "def before_train(self):\n"
                         "            self._scheduler")
    assert lint_project(tmp_path, {**files, "engine/hooks.py": once}, "SC213") == []
    # the trainer names the event by a variable: which method it runs is unknown
    unknown = TRAIN_LOOP.replace('self._call("before_step")', "self._call(self.first_event)")
    assert lint_project(tmp_path, {**files, "engine/hooks.py": HOOKS, "engine/train_loop.py": unknown},
                        "SC213") == []


# A script builds the trainer and its callbacks, from modules of different packages that do not import each other.
LOOP = """
    import torch.nn.functional as F

    class TrainLoop:
        def __init__(self, model, optimizer, loader, callbacks=()):
            self.model, self.optimizer, self.loader = model, optimizer, loader
            self.callbacks = list(callbacks)

        def fit(self, epochs):
            for epoch in range(epochs):
                for cb in self.callbacks:
                    cb.on_epoch_start(self)
                for x, y in self.loader:
                    self.optimizer.zero_grad()
                    F.cross_entropy(self.model(x), y).backward()
                    self.optimizer.step()
                for cb in self.callbacks:
                    cb.on_epoch_end(self)
"""

CALLBACKS = """
    class LRSchedulerCallback:
        def __init__(self, scheduler):
            self.scheduler = scheduler

        def on_epoch_start(self, loop):
            self.scheduler.step()

        def on_epoch_end(self, loop):
            pass
"""

SCRIPT = """
    import torch
    from callbacks.lr import LRSchedulerCallback
    from engine.loop import TrainLoop

    optimizer = torch.optim.Adam(model.parameters())
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 10)
    TrainLoop(model, optimizer, loader, callbacks=[LRSchedulerCallback(scheduler)]).fit(5)
"""


def test_callbacks_a_script_hands_the_trainer_from_another_package_are_followed(tmp_path: Path) -> None:
    files = {"engine/__init__.py": "", "engine/loop.py": LOOP, "callbacks/__init__.py": "",
             "callbacks/lr.py": CALLBACKS, "train.py": SCRIPT}
    assert lint_project(tmp_path, files, "SC213") == [("callbacks/lr.py", 7), ("engine/loop.py", 12)]
    fixed = CALLBACKS.replace("def on_epoch_start(self, loop):\n            self.scheduler.step()\n\n"
                              "        def on_epoch_end(self, loop):\n            pass",
                              "def on_epoch_start(self, loop):\n            pass\n\n"
                              "        def on_epoch_end(self, loop):\n            self.scheduler.step()")
    assert lint_project(tmp_path, {**files, "callbacks/lr.py": fixed}, "SC213") == []


# allennlp's trainer runs its callbacks after the scaled backward pass and before the scaler's step.
TRAINER = """
    import torch

    class GradientDescentTrainer:
        def __init__(self, model, optimizer, callbacks):
            self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
            self.scaler = torch.amp.GradScaler("cuda")

        def train_batch(self, x, y):
            self.optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = torch.nn.functional.cross_entropy(self.model(x), y)
            self.scaler.scale(loss).backward()
            for callback in self.callbacks:
                callback.on_backward(self)
            self.scaler.step(self.optimizer)
            self.scaler.update()
"""

CLIPPING = """
    import torch

    class GradientNormClipping:
        def __init__(self, max_norm):
            self.max_norm = max_norm

        def on_backward(self, trainer):
            torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)
"""


def test_a_callback_clipping_the_scaled_gradients_is_reported_where_the_trainer_runs_it(tmp_path: Path) -> None:
    files = {"tagging/__init__.py": "", "tagging/trainer.py": TRAINER, "tagging/callbacks.py": CLIPPING}
    assert lint_project(tmp_path, files, "SC214") == [("tagging/trainer.py", 15)]
    unscaled = CLIPPING.replace("    torch.nn.utils", "    trainer.scaler.unscale_(trainer.optimizer)\n"
                                "            torch.nn.utils")
    assert lint_project(tmp_path, {**files, "tagging/callbacks.py": unscaled}, "SC214") == []


def test_a_loop_over_optimizers_or_modules_runs_no_callbacks(tmp_path: Path) -> None:
    # `opt.step()` on each optimizer is the record's own step, not a project class's `step()` run as a callback
    trainer = """
        import torch

        class MultiTrainer:
            def fit(self, batches):
                for x in batches:
                    for opt in self.optimizers:
                        opt.zero_grad()
                    self.model(x).mean().backward()
                    for opt in self.optimizers:
                        opt.step()
    """
    schedule = """
        class WarmupCycle:
            def __init__(self, scheduler):
                self.scheduler = scheduler

            def step(self):
                self.scheduler.step()
    """
    files = {"trainer.py": trainer, "warmup.py": schedule}
    assert lint_project(tmp_path, files, "SC213") == []


def test_a_module_of_callbacks_without_torch_is_linted_for_the_loop_rules_beside_a_torch_trainer(
        tmp_path: Path) -> None:
    files = {"engine/__init__.py": "", "engine/train_loop.py": TRAIN_LOOP, "engine/hooks.py": HOOKS,
             "other/__init__.py": "", "other/steps.py": HOOKS}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    PROJECT.forget()
    hooks, lone = tmp_path / "engine/hooks.py", tmp_path / "other/steps.py"
    assert "SC213" in [rule.code for rule in applicable(all_rules(), hooks.read_text(), str(hooks))]
    # the same text with no trainer beside it is no torch code
    assert applicable(all_rules(), lone.read_text(), str(lone)) == []


def test_a_trainers_folder_of_data_files_still_gives_its_hook_modules(tmp_path: Path) -> None:
    """The modules of a trainer's folder are counted up to `MAX_FOLDER_MODULES`, not its files: logs and configs
    sorted before `hooks.py` must not crowd it out."""
    for index in range(MAX_FOLDER_MODULES + 6):
        (tmp_path / f"a{index:03}.yaml").write_text("lr: 0.1\n")
    (tmp_path / "hooks.py").write_text("class LRScheduler:\n    pass\n")
    (tmp_path / "train_loop.py").write_text("import torch\n")
    found = sibling_files("import torch\n", str(tmp_path / "train_loop.py"))
    assert [path.name for path in found] == ["hooks.py"]
