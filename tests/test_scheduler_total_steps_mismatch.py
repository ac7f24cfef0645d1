"""SC219 reads a schedule's length where it is built: in the step's file, or in the modules that hand it to the
helper stepping it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT

ENGINE = """
    import torch

    def train_one_epoch(model, loader, optimizer, lr_scheduler):
        for images, targets in loader:
            loss = torch.nn.functional.cross_entropy(model(images), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
"""

MAIN = """
    import torch
    from engine import train_one_epoch

    def main(args, model, train_loader):
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, args.lr, total_steps={total})
        for epoch in range(args.epochs):
            train_one_epoch(model, train_loader, optimizer, scheduler)
"""


def lint_project(folder: Path, files: dict[str, str], linted: str) -> list[int]:
    """The rows of SC219's findings in the module `linted` of a project of `files` (module name -> source)."""
    for name, text in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text))
    PROJECT.forget()
    path = folder / f"{linted}.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC219"])).findings]


def lint_engine(folder: Path, total: str) -> list[int]:
    return lint_project(folder, {"engine": ENGINE, "main": MAIN.format(total=total)}, "engine")


def test_a_schedule_sized_by_epochs_in_the_importing_script_is_reported_in_the_helper_stepping_it(
        tmp_path: Path) -> None:
    assert lint_engine(tmp_path, "args.epochs") == [10]


def test_the_batches_of_every_epoch_handed_to_the_helper_are_clean(tmp_path: Path) -> None:
    assert lint_engine(tmp_path, "args.epochs * len(train_loader)") == []


def test_a_length_of_no_known_unit_is_clean(tmp_path: Path) -> None:
    assert lint_engine(tmp_path, "args.total_steps") == []


CALLBACKS = """
    class StepSchedule:
        def __init__(self, scheduler):
            self.scheduler = scheduler

        def on_train_batch_end(self, trainer):
            self.scheduler.step()
"""

TRAINER = """
    import torch

    class Trainer:
        def __init__(self, model, optimizer, callbacks):
            self.model, self.optimizer, self.callbacks = model, optimizer, callbacks

        def fit(self, loader, epochs):
            for epoch in range(epochs):
                for batch in loader:
                    self.optimizer.zero_grad()
                    self.model(batch).mean().backward()
                    self.optimizer.step()
                    for callback in self.callbacks:
                        callback.on_train_batch_end(self)
"""

SCRIPT = """
    import torch
    from callbacks import StepSchedule
    from trainer import Trainer

    def run(cfg, model, loader):
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, cfg.lr, total_steps={total})
        Trainer(model, optimizer, [StepSchedule(schedule)]).fit(loader, cfg.num_epochs)
"""


def lint_callbacks(folder: Path, total: str) -> list[int]:
    return lint_project(folder, {"callbacks": CALLBACKS, "trainer": TRAINER, "train": SCRIPT.format(total=total)},
                        "callbacks")


def test_a_callback_built_with_an_epoch_sized_schedule_and_run_after_each_batch_is_reported(tmp_path: Path) -> None:
    # the callback's module imports neither torch nor the trainer: the script builds both
    assert lint_callbacks(tmp_path, "cfg.num_epochs") == [7]


def test_the_same_callback_built_with_the_batches_of_every_epoch_is_clean(tmp_path: Path) -> None:
    assert lint_callbacks(tmp_path, "cfg.num_epochs * len(loader)") == []


FACTORY = """
    import torch

    def make_schedule(optimizer, cfg, batches_per_epoch):
        return torch.optim.lr_scheduler.OneCycleLR(optimizer, cfg.lr, total_steps={total})
"""

BUILT_SCRIPT = """
    import torch
    from callbacks import StepSchedule
    from schedules import make_schedule
    from trainer import Trainer

    def run(cfg, model, loader):
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        schedule = make_schedule(optimizer, cfg, len(loader))
        Trainer(model, optimizer, [StepSchedule(schedule)]).fit(loader, cfg.num_epochs)
"""


def lint_factory(folder: Path, total: str) -> list[int]:
    return lint_project(folder, {"callbacks": CALLBACKS, "trainer": TRAINER, "train": BUILT_SCRIPT,
                                 "schedules": FACTORY.format(total=total)}, "callbacks")


def test_a_schedule_a_factory_of_another_module_sizes_by_the_epochs_is_reported(tmp_path: Path) -> None:
    assert lint_factory(tmp_path, "cfg.num_epochs") == [7]


def test_a_factory_sizing_it_by_the_batches_of_every_epoch_is_clean(tmp_path: Path) -> None:
    assert lint_factory(tmp_path, "cfg.num_epochs * batches_per_epoch") == []


SCHEDULERS = """
    import torch

    def build_scheduler(optimizer, max_lr, total_steps):
        return torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=max_lr, total_steps=total_steps)
"""

AGENT = """
    import torch
    import torch.nn as nn

    import schedulers

    class Agent:
        def __init__(self, args, net, data):
            self.net, self.data, self.args = net, data, args
            self.optim = torch.optim.Adam(net.parameters(), lr=args.lr)
            self.sched = schedulers.build_scheduler(self.optim, args.lr, {total})

        def learn(self):
            for ep in range(self.args.epochs):
                for obs, target in self.data:
                    loss = nn.functional.smooth_l1_loss(self.net(obs), target)
                    self.optim.zero_grad()
                    loss.backward()
                    self.optim.step()
                    self.sched.step()
"""


def lint_agent(folder: Path, total: str) -> list[int]:
    return lint_project(folder, {"schedulers": SCHEDULERS, "agent": AGENT.format(total=total)}, "agent")


def test_a_factory_of_an_imported_module_sizing_the_schedule_by_the_count_it_is_handed_is_read_at_the_call(
        tmp_path: Path) -> None:
    # `total_steps` names no unit: the trainer's `args.epochs` does
    assert lint_agent(tmp_path, "args.epochs") == [20]


def test_the_same_factory_handed_the_batches_of_every_epoch_is_clean(tmp_path: Path) -> None:
    assert lint_agent(tmp_path, "args.epochs * len(data)") == []


CONFIG_FACTORY = """
    import torch

    def build_scheduler(cfg, optimizer):
        return torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=cfg["lr"], {size})
"""

CONFIG_TRAINER = """
    import torch.nn as nn
    from optim import build_scheduler

    class Trainer:
        def __init__(self, cfg, model, optimizer, loader):
            self.cfg, self.model, self.optimizer, self.loader = cfg, model, optimizer, loader
            self.scheduler = build_scheduler(cfg, self.optimizer)

        def train_epoch(self):
            for x, y in self.loader:
                self.optimizer.zero_grad()
                nn.functional.cross_entropy(self.model(x), y).backward()
                self.optimizer.step()
                self.scheduler.step()
"""


def lint_config(folder: Path, size: str) -> list[int]:
    return lint_project(folder, {"optim": CONFIG_FACTORY.format(size=size), "trainer": CONFIG_TRAINER}, "trainer")


def test_a_schedule_sized_by_a_config_dict_entry_of_epochs_is_reported(tmp_path: Path) -> None:
    assert lint_config(tmp_path, 'total_steps=cfg["train"]["epochs"]') == [15]


def test_a_config_dict_sizing_it_by_epochs_and_the_steps_of_each_is_clean(tmp_path: Path) -> None:
    assert lint_config(tmp_path, 'epochs=cfg["epochs"], steps_per_epoch=cfg["steps_per_epoch"]') == []


FLOORED = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader

    class Trainer:
        def __init__(self, args, model, train_ds):
            self.args, self.model = args, model
            self.train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True{drop_last})
            self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
            self.scheduler = torch.optim.lr_scheduler.OneCycleLR(
                self.optimizer, max_lr=args.lr, epochs=args.epochs, steps_per_epoch={per_epoch})

        def train(self):
            for epoch in range(self.args.epochs):
                for x, y in self.train_loader:
                    self.optimizer.zero_grad()
                    nn.functional.cross_entropy(self.model(x), y).backward()
                    self.optimizer.step()
                    self.scheduler.step()
"""


def test_one_cycle_counting_the_dataset_over_the_batch_size_rounded_down_while_the_loader_keeps_the_last_batch(
        tmp_path: Path) -> None:
    # 100 samples in batches of 32: 3 steps an epoch in the schedule, 4 batches; the third epoch raises
    for drop_last, per_epoch, expected in (("", "len(train_ds) // args.batch_size", [20]),
                                           ("", "int(len(train_ds) / args.batch_size)", [20]),
                                           (", drop_last=True", "len(train_ds) // args.batch_size", []),
                                           ("", "len(self.train_loader)", []),
                                           ("", "math.ceil(len(train_ds) / args.batch_size)", []),
                                           ("", "len(train_ds) // 64", [])):
        assert lint_project(tmp_path, {"trainer": FLOORED.format(drop_last=drop_last, per_epoch=per_epoch)},
                            "trainer") == expected, (drop_last, per_epoch)


# A trainer whose `train_step` steps the schedule a factory of another module sizes (`{total}`), the step run by
# the batch loop of the trainer's `fit`; or a per-batch helper handed the schedule.
STEP_SCHEDULES = """
    from torch.optim.lr_scheduler import OneCycleLR

    def make_scheduler(optimizer, cfg, steps_per_epoch=1):
        return OneCycleLR(optimizer, max_lr=cfg.max_lr, total_steps={total})
"""

STEP_TRAINER = """
    import torch
    import torch.nn as nn

    from schedulers import make_scheduler

    class Trainer:
        def __init__(self, model, loader, cfg):
            self.model, self.loader, self.cfg = model, loader, cfg
            self.optimizer = torch.optim.SGD(model.parameters(), lr=cfg.max_lr, momentum=0.9)
            self.scheduler = make_scheduler(self.optimizer, cfg, len(loader))

        def train_step(self, x, y):
            self.optimizer.zero_grad()
            loss = nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.scheduler.step()
            return loss.item()

        def fit(self):
            for epoch in range(self.cfg.epochs):
                for x, y in self.loader:
                    self.train_step(x, y)
"""

STEP_HELPER = """
    import torch.nn.functional as F

    def train_batch(model, batch, optimizer, scheduler):
        x, y = batch
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()
        scheduler.step()

    def train_epoch(model, loader, optimizer, scheduler):
        for batch in loader:
            train_batch(model, batch, optimizer, scheduler)
"""

STEP_HELPER_SCRIPT = """
    import torch
    from schedulers import make_scheduler
    from engine import train_epoch

    def main(cfg, model, loader):
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.max_lr)
        scheduler = make_scheduler(optimizer, cfg, len(loader))
        for epoch in range(cfg.epochs):
            train_epoch(model, loader, optimizer, scheduler)
"""


def test_a_schedule_stepped_in_a_method_the_batch_loop_runs(tmp_path: Path) -> None:
    files = {"schedulers": STEP_SCHEDULES.format(total="cfg.epochs"), "trainer": STEP_TRAINER}
    assert lint_project(tmp_path, files, "trainer") == [18]
    files["schedulers"] = STEP_SCHEDULES.format(total="cfg.epochs * steps_per_epoch")
    assert lint_project(tmp_path, files, "trainer") == []


def test_a_schedule_stepped_in_a_helper_the_batch_loop_of_another_helper_runs(tmp_path: Path) -> None:
    files = {"schedulers": STEP_SCHEDULES.format(total="cfg.epochs"), "engine": STEP_HELPER,
             "train": STEP_HELPER_SCRIPT}
    assert lint_project(tmp_path, files, "engine") == [9]
    files["schedulers"] = STEP_SCHEDULES.format(total="cfg.epochs * steps_per_epoch")
    assert lint_project(tmp_path, files, "engine") == []


def test_a_method_stepping_the_schedule_run_once_per_epoch_or_outside_any_loop_is_not_per_batch(
        tmp_path: Path) -> None:
    per_epoch = STEP_TRAINER.replace("""                for x, y in self.loader:
                    self.train_step(x, y)""", """                for x, y in self.loader:
                    self.optimizer.step()
                self.train_step(x, y)""")
    files = {"schedulers": STEP_SCHEDULES.format(total="cfg.epochs * steps_per_epoch"), "trainer": per_epoch}
    assert lint_project(tmp_path, files, "trainer") == []


OPTIM_FACTORY = """
    import torch
    from torch.optim.lr_scheduler import OneCycleLR


    def build_optim(model, hparams):
        optimizer = torch.optim.Adam(model.parameters(), lr=hparams["lr"])
        scheduler = OneCycleLR(optimizer, max_lr=hparams["lr"], total_steps={total})
        return optimizer, scheduler
"""

PAIR_SCRIPT = """
    import torch.nn.functional as F

    from optim import build_optim


    def train_one_epoch(model, loader, optimizer, scheduler):
        for inputs, targets in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(inputs), targets).backward()
            optimizer.step()
            scheduler.step()


    def main(model, loader, hparams):
        optimizer, scheduler = build_optim(model, hparams)
        for epoch in range(hparams["num_epochs"]):
            train_one_epoch(model, loader, optimizer, scheduler)
"""

PAIR_TRAINER = """
    import torch.nn.functional as F

    from optim import build_optim


    class Trainer:
        def __init__(self, model, loader, hparams):
            self.model, self.loader, self.hparams = model, loader, hparams
            self.optimizer, self.scheduler = build_optim(self.model, hparams)

        def fit(self):
            for epoch in range(self.hparams["num_epochs"]):
                for x, y in self.loader:
                    self.optimizer.zero_grad()
                    F.cross_entropy(self.model(x), y).backward()
                    self.optimizer.step()
                    self.scheduler.step()
"""


def test_a_schedule_unpacked_from_the_optimizer_and_schedule_a_factory_of_another_module_returns(
        tmp_path: Path) -> None:
    """`optimizer, scheduler = build_optim(model, hparams)` of a factory returning both, its OneCycleLR sized by the
    epoch count: stepped per batch by a helper it is handed, or by a trainer that unpacks it into its attributes."""
    epochs, batches = 'hparams["num_epochs"]', 'hparams["num_epochs"] * hparams["steps_per_epoch"]'
    assert lint_project(tmp_path, {"optim": OPTIM_FACTORY.format(total=epochs), "train": PAIR_SCRIPT}, "train") == [12]
    assert lint_project(tmp_path, {"optim": OPTIM_FACTORY.format(total=batches), "train": PAIR_SCRIPT}, "train") == []
    assert lint_project(tmp_path, {"optim": OPTIM_FACTORY.format(total=epochs), "trainer": PAIR_TRAINER},
                        "trainer") == [18]
    assert lint_project(tmp_path, {"optim": OPTIM_FACTORY.format(total=batches), "trainer": PAIR_TRAINER},
                        "trainer") == []
    # the tuple the other way round: what is stepped per batch is the optimizer, the schedule is never stepped
    swapped = PAIR_TRAINER.replace("self.optimizer, self.scheduler =", "self.scheduler, self.optimizer =")
    assert lint_project(tmp_path, {"optim": OPTIM_FACTORY.format(total=epochs), "trainer": swapped}, "trainer") == []
