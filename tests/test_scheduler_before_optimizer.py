"""SC213 reads the optimizer steps of the branch its scheduler step is in, including a helper's called there."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from tests.helpers import project_rows

HELPER = """
    import torch
    def run_epoch(net, data, opt):
        for batch in data:
            net.loss(batch).backward()
            opt.step()
            opt.zero_grad()
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(main_opt, T_max=20)
    for epoch in range(20):
"""


def rows(loop_body: str) -> list[int]:
    source = textwrap.dedent(HELPER) + textwrap.indent(textwrap.dedent(loop_body), "    ")
    return [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC213"])).findings]


def test_a_schedule_stepped_before_the_helper_that_steps_its_branch_s_optimizer() -> None:
    assert rows("""
        if epoch < 2:
            run_epoch(net, data, head_opt)
        else:
            sched.step()
            run_epoch(net, data, main_opt)
    """) == [14]


def test_each_elif_branch_s_steps_run_in_other_epochs() -> None:
    assert rows("""
        if epoch < 2:
            run_epoch(net, data, head_opt)
        elif epoch < 4:
            run_epoch(net, data, mid_opt)
        else:
            sched.step()
            run_epoch(net, data, main_opt)
    """) == [16]


def test_a_warm_up_branch_without_a_step_after_it_and_a_schedule_after_the_helper_are_clean() -> None:
    assert rows("""
        if epoch < 2:
            sched.step()
        else:
            run_epoch(net, data, main_opt)
            sched.step()
    """) == []


SCHEDULERS = """
    from torch.optim import lr_scheduler

    class CycleScheduler:
        def __init__(self, optimizer, lr_max):
            self.optimizer, self.lr_max, self.iteration = optimizer, lr_max, 0

        def step(self):
            for group in self.optimizer.param_groups:
                group["lr"] = self.lr_max * min(1.0, self.iteration / 100)
            self.iteration += 1

    class CosineLR(lr_scheduler._LRScheduler):
        def get_lr(self):
            return self.base_lrs
"""

TRAIN = """
    import torch
    from scheduler import {cls}

    def train(loader, model, optimizer, scheduler):
        for x, y in loader:
            model.zero_grad()
            model(x).sum().backward()
            if scheduler is not None:
                scheduler.step()
            optimizer.step()

    def main(args):
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
        scheduler = None
        if args.sched == "cycle":
            scheduler = {cls}(optimizer, 3e-4)
        train(loader, model, optimizer, scheduler)
        for x, y in loader:
            scheduler.step()
            model(x).sum().backward()
            optimizer.step()
"""


def lint_project(folder: Path, cls: str) -> list[int]:
    (folder / "scheduler.py").write_text(textwrap.dedent(SCHEDULERS))
    (folder / "train.py").write_text(textwrap.dedent(TRAIN.format(cls=cls)))
    PROJECT.forget()
    path = folder / "train.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC213"])).findings]


def test_a_project_class_of_another_file_without_torch_s_scheduler_base_steps_as_it_says(tmp_path: Path) -> None:
    # vq-vae-2's `CycleScheduler` sets the rate of the coming update: stepped before the optimizer, directly and
    # handed to the helper
    assert lint_project(tmp_path, "CycleScheduler") == []


def test_a_project_subclass_of_torch_s_scheduler_is_still_reported(tmp_path: Path) -> None:
    assert lint_project(tmp_path, "CosineLR") == [10, 20]


BASE_MODEL = """
    import torch
    import torch.nn as nn
    class GANModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.netG, self.netD = nn.Linear(4, 4), nn.Linear(4, 1)
            self.optimizers = [torch.optim.Adam(self.netG.parameters()), torch.optim.Adam(self.netD.parameters())]
            self.schedulers = [torch.optim.lr_scheduler.StepLR(o, 10) for o in self.optimizers]
        def update_learning_rate(self):
            for scheduler in self.schedulers:
                scheduler.step()
        def optimize_parameters(self, x):
            for optimizer in self.optimizers:
                optimizer.zero_grad()
            self.netD(self.netG(x)).mean().backward()
            for o in self.optimizers:
                o.step()
"""


def lint_gan(folder: Path, loop: str) -> list[int]:
    """SC213's rows in `train.py`, whose epoch loop is `loop`, of a model kept in `models.py`."""
    (folder / "models.py").write_text(textwrap.dedent(BASE_MODEL))
    source = "import torch\nfrom models import GANModel\nmodel = GANModel()\n" + textwrap.dedent(loop)
    (folder / "train.py").write_text(source)
    PROJECT.forget()
    return [finding.location.row for finding in
            lint_text(source, str(folder / "train.py"), resolve(["SC213"])).findings]


def test_a_model_method_of_another_module_stepping_each_of_its_schedulers_at_the_top_of_the_epoch(
        tmp_path: Path) -> None:
    """pix2pix's `BaseModel`: `for scheduler in self.schedulers: scheduler.step()`, the optimizers stepped in a loop
    over `self.optimizers` too."""
    assert lint_gan(tmp_path, """
        for epoch in range(5):
            model.update_learning_rate()
            for x in [torch.randn(2, 4)]:
                model.optimize_parameters(x)
    """) == [6]


def test_each_of_the_model_s_schedulers_stepped_after_the_epoch_s_batches_is_clean(tmp_path: Path) -> None:
    assert lint_gan(tmp_path, """
        for epoch in range(5):
            for x in [torch.randn(2, 4)]:
                model.optimize_parameters(x)
            model.update_learning_rate()
    """) == []


PACKAGE = {
    "models/__init__.py": "from .gan_model import GANModel\n",
    "models/base_model.py": """
        import torch

        class BaseModel:
            def __init__(self, cfg):
                self.cfg, self.optimizers, self.schedulers = cfg, [], []

            def setup(self):
                self.schedulers = [torch.optim.lr_scheduler.StepLR(o, step_size=30) for o in self.optimizers]

            def update_learning_rate(self):
                for scheduler in self.schedulers:
                    scheduler.step()
                return self.optimizers[0].param_groups[0]["lr"]
    """,
    "models/gan_model.py": """
        import torch
        import torch.nn as nn
        from .base_model import BaseModel

        class GANModel(BaseModel):
            def __init__(self, cfg):
                super().__init__(cfg)
                self.netG, self.netD = nn.Linear(16, 32), nn.Linear(32, 1)
                self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=cfg.lr)
                self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=cfg.lr)
                self.optimizers = [self.optimizer_G, self.optimizer_D]

            def optimize_parameters(self, z, real):
                fake = self.netG(z)
                self.optimizer_D.zero_grad()
                (self.netD(fake.detach()).mean() - self.netD(real).mean()).backward()
                self.optimizer_D.step()
                self.optimizer_G.zero_grad()
                (-self.netD(fake).mean()).backward()
                self.optimizer_G.step()
    """,
}

PACKAGE_TRAIN = """
    import torch
    from models import GANModel

    def main(cfg, loader):
        model = GANModel(cfg)
        model.setup()
        for epoch in range(cfg.epochs):{loop}
"""


def lint_package(folder: Path, loop: str) -> list[int]:
    """SC213's rows in `train.py`, whose epoch loop is `loop`, of a model whose base class is in another module of
    the package that re-exports the model."""
    files = {**PACKAGE, "train.py": PACKAGE_TRAIN.format(loop=textwrap.indent(loop, " " * 12))}
    return project_rows(folder, "train.py", files, "SC213")


# pix2pix's layout: the schedulers come from `networks.get_scheduler(optimizer, opt)`, a function of another module
# building the policy's scheduler on each branch (its `lambda_rule` defined inside), and train.py gets the model from
# `create_model(opt)`, which builds the class a registry of the package names.
FACTORY_PACKAGE = {
    **PACKAGE,
    "models/__init__.py": """
        from .gan_model import GANModel

        MODELS = {"gan": GANModel}

        def create_model(opt):
            model = MODELS[opt.model](opt)
            print("model [%s] was created" % type(model).__name__)
            return model
    """,
    "models/networks.py": """
        from torch.optim import lr_scheduler

        def get_scheduler(optimizer, opt):
            if opt.lr_policy == "linear":
                def lambda_rule(epoch):
                    return 1.0 - max(0, epoch - opt.n_epochs) / float(opt.n_epochs_decay + 1)
                scheduler = lr_scheduler.LambdaLR(optimizer, lr_lambda=lambda_rule)
            else:
                scheduler = lr_scheduler.StepLR(optimizer, step_size=opt.lr_decay_iters, gamma=0.1)
            return scheduler
    """,
}
FACTORY_PACKAGE["models/base_model.py"] = PACKAGE["models/base_model.py"].replace(
    "import torch\n", "import torch\n        from .networks import get_scheduler\n").replace(
    "[torch.optim.lr_scheduler.StepLR(o, step_size=30) for o in self.optimizers]",
    "[get_scheduler(o, self.cfg) for o in self.optimizers]")


def lint_factory_package(folder: Path, loop: str) -> list[int]:
    """SC213's rows in `train.py` of `FACTORY_PACKAGE`, whose epoch loop is `loop`."""
    train = PACKAGE_TRAIN.replace("from models import GANModel", "from models import create_model").replace(
        "model = GANModel(cfg)", "model = create_model(cfg)")
    files = {**FACTORY_PACKAGE, "train.py": train.format(loop=textwrap.indent(loop, " " * 12))}
    return project_rows(folder, "train.py", files, "SC213")


# `lint_factory_package`: the schedulers from a project factory, the model from a registry factory (pix2pix's layout)
BOTH_PACKAGES = pytest.mark.parametrize("lint_package", [lint_package, lint_factory_package])


@BOTH_PACKAGES
def test_a_method_the_model_inherits_from_a_base_of_another_module_steps_each_scheduler_at_the_top(
        tmp_path: Path, lint_package) -> None:
    assert lint_package(tmp_path, """
lr = model.update_learning_rate()
for z, real in loader:
    model.optimize_parameters(z, real)""") == [9]


@BOTH_PACKAGES
def test_the_inherited_method_called_after_the_epoch_s_batches_is_clean(tmp_path: Path, lint_package) -> None:
    assert lint_package(tmp_path, """
for z, real in loader:
    model.optimize_parameters(z, real)
lr = model.update_learning_rate()""") == []
