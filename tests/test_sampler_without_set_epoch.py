"""SC215 follows a loader built in the call that hands it to a helper."""

from __future__ import annotations

import textwrap
from functools import partial
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from tests.helpers import project_rows as rows_of_project

SOURCE = """
    import torch
    from torch.utils.data import DataLoader, DistributedSampler
    def make_loader(ds):
        return DataLoader(ds, sampler=DistributedSampler(ds))
    def train(loader, epochs):
        for epoch in range(epochs):
            for batch in loader:
                step(batch)
    def sample(loader):
        while True:
            for batch in loader:
                yield batch
    def run(loader, steps):
        batches = sample(loader)
        for _ in range(steps):
            step(next(batches))
"""

project_rows = partial(rows_of_project, select="SC215")  # the rows SC215 reports in a written project


def rows(call: str) -> list[int]:
    source = textwrap.dedent(SOURCE) + call + "\n"
    return [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC215"])).findings]




def test_reported_at_the_helper_s_loop_over_the_loader_it_is_handed() -> None:
    assert rows("train(make_loader(dataset), 10)") == [8]


def test_reported_at_the_argument_when_the_helper_hands_it_on() -> None:
    assert rows("run(make_loader(dataset), 100)") == [18]


def test_a_loader_that_does_not_shuffle_or_a_file_that_sets_the_epoch_is_clean() -> None:
    assert rows("train(DataLoader(ds, sampler=DistributedSampler(ds, shuffle=False)), 10)") == []
    assert rows("train(make_loader(dataset), 10)\nsampler.set_epoch(0)") == []


DATA = """
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    class Egs:
        def __init__(self, trainset, shuffle):
            self.train_sampler = DistributedSampler(trainset, shuffle=shuffle)
            self.train_loader = DataLoader(trainset, batch_size=8, sampler=self.train_sampler)

    def build_egs(trainset, shuffle=True):
        return Egs(trainset, shuffle)
"""

TRAIN = """
    import torch
    from data import build_egs

    class Trainer:
        def __init__(self, model, egs):
            self.model, self.egs = model, egs
        def run(self, epochs):
            for epoch in range(epochs):
                for x, y in self.egs.train_loader:
                    self.model(x)

    Trainer(model, build_egs(trainset{})).run(3)
"""


def test_a_trainer_s_bundle_holding_a_shuffling_loader_another_module_built(tmp_path: Path) -> None:
    for passed, expected in (("", [10]), (", shuffle=False", [])):
        assert project_rows(tmp_path, "train.py", {"data.py": DATA, "train.py": TRAIN.format(passed)}) == expected


WRAPPING = """
    from torch.utils.data import DataLoader, DistributedSampler, RandomSampler
    class Trainable:
        def _get_dataloader(self, data, sampler):
            return DataLoader(data, batch_size=8, sampler=sampler, drop_last=True)
        def _train_epoch(self, loader):
            for x, y in loader:
                self.step(x, y)
        def _do_train(self, data, epochs):
            sampler = {sampler}
            loader = self._get_dataloader(data, sampler)
            for epoch in range(epochs):
                self._train_epoch(loader)
"""


def wrapped_rows(sampler: str) -> list[int]:
    source = textwrap.dedent(WRAPPING).format(sampler=sampler)
    return [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC215"])).findings]


def test_a_factory_s_loader_of_the_shuffling_sampler_it_is_handed() -> None:
    # reported at the helper's loop over the loader, as for a loader built in the call that hands it
    assert wrapped_rows("DistributedSampler(data, shuffle=True)") == [7]
    assert wrapped_rows("DistributedSampler(data)") == [7]


def test_a_factory_handed_a_sampler_that_does_not_shuffle_per_rank() -> None:
    assert wrapped_rows("DistributedSampler(data, shuffle=False)") == []
    assert wrapped_rows("RandomSampler(data)") == []
    assert wrapped_rows("None") == []


def test_a_sampler_bound_none_in_the_else_branch_is_read_where_the_loader_is_built() -> None:
    # pytorch/examples imagenet: the loader's `sampler=train_sampler` reads both branches' bindings there; the
    # `else` branch's `None` is no sampler, so the sharding one is what an epoch loop draws from
    source = textwrap.dedent("""
        from torch.utils.data import DataLoader, DistributedSampler
        def main(args, dataset):
            if args.distributed:
                train_sampler = DistributedSampler(dataset)
            else:
                train_sampler = None
            train_loader = DataLoader(dataset, shuffle=(train_sampler is None), sampler=train_sampler)
            for epoch in range(args.epochs):
                for batch in train_loader:
                    step(batch)
    """)
    assert [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC215"])).findings] == [10]


LOADERS = """
    from torch.utils.data import DataLoader, RandomSampler
    from torch.utils.data.distributed import DistributedSampler

    def sharded_loader(dataset, batch_size, rank, world_size, shuffle=True):
        sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=shuffle)
        return DataLoader(dataset, batch_size=batch_size, sampler=sampler, num_workers=4)

    def local_loader(dataset, batch_size):
        return DataLoader(dataset, batch_size=batch_size, sampler=RandomSampler(dataset))
"""

FIT = """
    import torch
    from loaders import local_loader, sharded_loader

    def run_epoch(model, batches, optimizer):
        model.train()
        for images, labels in batches:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(images), labels).backward()
            optimizer.step()

    def main(model, dataset, optimizer, rank, world_size, epochs):
        train_batches = {loader}
        for epoch in range(epochs):
            run_epoch(model, train_batches, optimizer)
"""


def test_a_loader_another_module_s_factory_returns_handed_to_a_helper_the_epoch_loop_calls(tmp_path: Path) -> None:
    for loader, expected in (("sharded_loader(dataset, 64, rank, world_size)", [7]),
                             ("sharded_loader(dataset, 64, rank, world_size, shuffle=False)", []),
                             ("local_loader(dataset, 64)", [])):
        files = {"loaders.py": LOADERS, "fit.py": FIT.format(loader=loader)}
        assert project_rows(tmp_path, "fit.py", files) == expected, loader


PAIRS = """
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    def get_dataloaders(train_set, val_set, batch_size, shuffle=True):
        train_sampler = DistributedSampler(train_set, shuffle=shuffle)
        val_sampler = DistributedSampler(val_set, shuffle=False)
        train_loader = DataLoader(train_set, batch_size=batch_size, sampler=train_sampler, drop_last=True)
        return train_loader, DataLoader(val_set, batch_size=batch_size, sampler=val_sampler)
"""

EPOCHS = """
    import torch
    from data.loaders import get_dataloaders

    def run_epoch(model, loader, optimizer):
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()

    def main(cfg, model, train_set, val_set, optimizer):
        train_loader, val_loader = get_dataloaders({arguments})
        for epoch in range(cfg.epochs):
            run_epoch(model, {iterated}, optimizer)
"""


def test_a_loader_unpacked_from_the_pair_another_module_s_factory_returns(tmp_path: Path) -> None:
    # the factory lives in a package module; the loop is in the helper the epoch loop hands the loader to
    for arguments, iterated, expected in (("train_set, val_set, 32", "train_loader", [6]),
                                          ("train_set, val_set, 32", "val_loader", []),
                                          ("train_set, val_set, 32, shuffle=False", "train_loader", [])):
        files = {"data/__init__.py": "", "data/loaders.py": PAIRS,
                 "train.py": EPOCHS.format(arguments=arguments, iterated=iterated)}
        assert project_rows(tmp_path, "train.py", files) == expected, (arguments, iterated)


def test_a_loader_unpacked_from_a_same_file_factory_s_loader_and_sampler() -> None:
    # the sampler comes back next to its loader, so the epoch loop could set it, and does not
    source = textwrap.dedent("""
        from torch.utils.data import DataLoader, DistributedSampler
        def make_train_loader(dataset, args, shuffle=True):
            sampler = DistributedSampler(dataset, seed=args.seed, shuffle=shuffle)
            return sampler, DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, pin_memory=True)
        def main(args, model, dataset, optimizer):
            sampler, loader = make_train_loader(dataset, args{})
            for epoch in range(args.epochs):
                for batch in loader:
                    model(**batch).loss.backward()
                    optimizer.step()
    """)
    for passed, expected in (("", [9]), (", shuffle=False", [])):
        findings = lint_text(source.format(passed), "train.py", resolve(["SC215"])).findings
        assert [finding.location.row for finding in findings] == expected, passed


def test_a_trainer_s_loader_unpacked_from_a_factory_s_pair() -> None:
    # the DDP tutorial's trainer, its loader and sampler kept in attributes from a factory's `(loader, sampler)`
    source = textwrap.dedent("""
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def create_loader(dataset, batch_size, shuffle):
            sampler = DistributedSampler(dataset, shuffle=shuffle)
            return DataLoader(dataset, batch_size=batch_size, sampler=sampler), sampler
        class Trainer:
            def __init__(self, model, dataset, cfg):
                self.model, self.cfg = model, cfg
                self.train_loader, self.train_sampler = create_loader(dataset, cfg.batch_size, {})
            def _run_epoch(self, epoch):
                for x, y in self.train_loader:
                    torch.nn.functional.cross_entropy(self.model(x), y).backward()
            def train(self):
                for epoch in range(self.cfg.max_epochs):
                    self._run_epoch(epoch)
    """)
    for shuffle, expected in (("True", [13]), ("False", [])):
        findings = lint_text(source.format(shuffle), "trainer.py", resolve(["SC215"])).findings
        assert [finding.location.row for finding in findings] == expected, shuffle


TRAINER_OF_PAIR = """
    import torch
    from data.build import build_loader

    class Trainer:
        def __init__(self, model, dataset, cfg):
            self.model, self.cfg = model, cfg
            self.train_loader, self.train_sampler = build_loader(dataset, cfg.batch_size{})
        def train_one_epoch(self, epoch):
            for images, targets in self.train_loader:
                torch.nn.functional.cross_entropy(self.model(images), targets).backward()
        def fit(self):
            for epoch in range(self.cfg.epochs):
                self.train_one_epoch(epoch)
"""

BUILD = """
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    def build_loader(dataset, batch_size, shuffle=True):
        sampler = DistributedSampler(dataset, shuffle=shuffle, drop_last=True)
        return DataLoader(dataset, batch_size=batch_size, sampler=sampler, pin_memory=True), sampler
"""


def test_a_trainer_s_loader_unpacked_from_another_module_s_pair(tmp_path: Path) -> None:
    for passed, expected in (("", [10]), (", shuffle=False", [])):
        files = {"data/__init__.py": "", "data/build.py": BUILD, "trainer.py": TRAINER_OF_PAIR.format(passed)}
        assert project_rows(tmp_path, "trainer.py", files) == expected, passed


WRAPPER_DATA = """
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    class ShardedData:
        def __init__(self, dataset, batch_size, shuffle):
            self.dataset, self.batch_size = dataset, batch_size
            self.sampler = DistributedSampler(dataset, shuffle=shuffle)
        def train_loader(self, epoch=0):{set_epoch}
            return DataLoader(self.dataset, batch_size=self.batch_size, sampler=self.sampler)
"""

TASK = """
    import torch

    class Task:
        def __init__(self, model, data, epochs):
            self.model, self.data, self.epochs = model, data, epochs
            self.epoch = 0
        def train_phase(self):
            for x, y in self.data.train_loader(epoch=self.epoch):
                torch.nn.functional.cross_entropy(self.model(x), y).backward()
        def run(self):
            for self.epoch in range(self.epochs):
                self.train_phase()
"""

MAIN = """
    from data import ShardedData
    from task import Task

    Task(model, ShardedData(train_set, 32, shuffle={shuffle}), 10).run()
"""


def test_a_loader_a_stored_data_wrapper_s_method_makes_of_the_sampler_it_keeps(tmp_path: Path) -> None:
    # ClassyVision's task and dataset: the wrapper's method never hands the epoch to its sampler
    for set_epoch, shuffle, expected in (("", "True", [9]), ("", "False", []),
                                         ("\n            self.sampler.set_epoch(epoch)", "True", [])):
        files = {"task.py": TASK, "data.py": WRAPPER_DATA.format(set_epoch=set_epoch),
                 "main.py": MAIN.format(shuffle=shuffle)}
        assert project_rows(tmp_path, "task.py", files) == expected, (set_epoch, shuffle)


RUNNER = """
    import torch

    class Runner:
        def __init__(self, model, optimizer, train_loader, train_sampler, max_epochs):
            self.model, self.optimizer, self.max_epochs = model, optimizer, max_epochs
            self.train_loader = train_loader
            self.train_sampler = train_sampler

        def run(self):
            for epoch in range(self.max_epochs):{set_epoch}
                for images, labels in self.train_loader:
                    loss = torch.nn.functional.cross_entropy(self.model(images), labels)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
"""

RUNNER_MAIN = """
    import torch
    from torch.utils.data import DataLoader, DistributedSampler
    from engine import Runner

    def main(args, dataset, model):
        sampler = DistributedSampler(dataset{shuffle})
        loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, pin_memory=True)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        Runner(model, optimizer, loader, sampler, args.epochs).run()
"""


def test_a_runner_s_loader_built_with_its_sampler_by_a_construction_in_another_module(tmp_path: Path) -> None:
    # the sampler is kept in the runner's attribute beside the loader, never given the epoch
    for set_epoch, shuffle, expected in (("", "", [12]), ("", ", shuffle=False", []),
                                         ("\n                self.train_sampler.set_epoch(epoch)", "", [])):
        files = {"engine/__init__.py": "from .runner import Runner\n",
                 "engine/runner.py": RUNNER.format(set_epoch=set_epoch),
                 "main.py": RUNNER_MAIN.format(shuffle=shuffle)}
        assert project_rows(tmp_path, "engine/runner.py", files) == expected, (set_epoch, shuffle)


SAMPLERS = """
    import torch.distributed as dist
    from torch.utils.data.distributed import DistributedSampler

    def build_sampler(dataset, shuffle=True):
        return DistributedSampler(dataset, num_replicas=dist.get_world_size(), rank=dist.get_rank(),
                                  shuffle=shuffle)
"""

SOLVER = """
    import torch
    from torch.utils.data import DataLoader
    from utils.dist import build_sampler

    class Solver:
        def __init__(self, opts, net, train_set):
            self.opts, self.net = opts, net
            self.train_sampler = build_sampler(train_set{shuffle})
            self.train_loader = DataLoader(train_set, batch_size=opts["batch_size"], sampler=self.train_sampler)
            self.optim = torch.optim.Adam(net.parameters(), lr=opts["lr"])

        def train_one_epoch(self, epoch):
            for step, (x, y) in enumerate(self.train_loader):
                loss = torch.nn.functional.mse_loss(self.net(x), y)
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()

        def solve(self):
            for epoch in range(self.opts["epochs"]):
                self.train_one_epoch(epoch)
"""


def test_a_trainer_s_sampler_attribute_from_a_factory_of_another_module(tmp_path: Path) -> None:
    for shuffle, expected in (("", [14]), (", shuffle=False", [])):
        files = {"utils/__init__.py": "", "utils/dist.py": SAMPLERS, "solver.py": SOLVER.format(shuffle=shuffle)}
        assert project_rows(tmp_path, "solver.py", files) == expected, shuffle


# A trainer of a package builds its loader on a shuffling sampler and loops over it once per call; the epoch loop is
# main.py's, which calls that method on the trainer it built (`%s` is the loop's body before the call).
EPOCH_METHOD = """
    import torch
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    class Trainer:
        def __init__(self, cfg, model, train_set):
            self.cfg = cfg
            self.model = model
            self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
            self.train_sampler = DistributedSampler(train_set, shuffle=True)
            self.train_loader = DataLoader(train_set, batch_size=cfg.batch_size, sampler=self.train_sampler)

        def train_one_epoch(self):
            self.model.train()
            for x, y in self.train_loader:
                loss = torch.nn.functional.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
    """

EPOCH_LOOP_MAIN = """
    import torch

    from engine import Trainer

    def main(cfg, data):
        trainer = Trainer(cfg, torch.nn.Linear(16, 4), data)
        for epoch in range(cfg.epochs):
            %s
            trainer.train_one_epoch()
    """


def test_a_trainer_s_epoch_method_another_module_calls_in_its_epoch_loop(tmp_path: Path) -> None:
    files = {"engine/__init__.py": "from .trainer import Trainer\n", "engine/trainer.py": EPOCH_METHOD,
             "main.py": EPOCH_LOOP_MAIN % "print(epoch)"}
    assert project_rows(tmp_path, "engine/trainer.py", files) == [16]


def test_the_epoch_set_by_the_module_running_the_loop_or_a_method_called_once_is_silent(tmp_path: Path) -> None:
    files = {"engine/__init__.py": "from .trainer import Trainer\n", "engine/trainer.py": EPOCH_METHOD,
             "main.py": EPOCH_LOOP_MAIN % "trainer.train_sampler.set_epoch(epoch)"}
    assert project_rows(tmp_path, "engine/trainer.py", files) == []
    once = "\n    def warmup(cfg, data):\n        Trainer(cfg, torch.nn.Linear(16, 4), data).train_one_epoch()\n"
    files["main.py"] = "\n    import torch\n\n    from engine import Trainer\n" + once
    assert project_rows(tmp_path, "engine/trainer.py", files) == []


BRANCHED_TRAINER = """
    import torch.nn.functional as F
    from torch.utils.data import DataLoader, SequentialSampler
    from torch.utils.data.distributed import DistributedSampler


    class DDPTrainer:
        def __init__(self, model, dataset, optimizer, world_size, rank):
            self.model = model
            self.optimizer = optimizer
            if world_size > 1:
                self.sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank{shuffle})
            else:
                self.sampler = {other}
            self.loader = DataLoader(dataset, batch_size=8, sampler=self.sampler, shuffle=self.sampler is None)

        def _run_epoch(self, epoch):
            for x, y in self.loader:
                self.optimizer.zero_grad()
                F.cross_entropy(self.model(x), y).backward()
                self.optimizer.step()

        def train(self, max_epochs):
            for epoch in range(max_epochs):
                self._run_epoch(epoch)
"""


def test_a_trainer_s_sampler_attribute_bound_none_in_the_else_branch() -> None:
    """`self.sampler` a `DistributedSampler` on the sharded branch and None on the other, then `sampler=self.sampler`
    in the trainer's loader: the sharded run's loader shuffles, and nothing sets its epoch."""
    def found(shuffle: str, other: str) -> list[int]:
        source = textwrap.dedent(BRANCHED_TRAINER).format(shuffle=shuffle, other=other)
        return [finding.location.row for finding in lint_text(source, "trainer.py", resolve(["SC215"])).findings]

    assert found("", "None") == [18]
    assert found(", shuffle=True", "None") == [18]
    assert found(", shuffle=False", "None") == []
    # two samplers, one per branch: which one the loader draws from is not stated
    assert found("", "SequentialSampler(dataset)") == []


HANDED_TRAINER = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader


    class Trainer:
        def __init__(self, model, train_set, sampler, cfg):
            self.model = model
            self.sampler = sampler
            self.loader = DataLoader(train_set, batch_size=cfg.batch_size, sampler=self.sampler)
            self.cfg = cfg
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.lr)

        def fit(self):
            for epoch in range(self.cfg.epochs):
                for images, targets in self.loader:
                    self.optimizer.zero_grad()
                    nn.functional.cross_entropy(self.model(images), targets).backward()
                    self.optimizer.step()
"""

HANDING_MAIN = """
    import torch.nn as nn
    from torch.utils.data import TensorDataset
    from torch.utils.data.distributed import DistributedSampler

    from trainer import Trainer


    def main(cfg, features, labels, rank):
        train_set = TensorDataset(features, labels)
        sampler = {sampler}
        model = nn.Linear(8, 3)
        Trainer(model, train_set, sampler, cfg).fit()
"""


def test_a_sampler_handed_to_the_trainer_s_constructor_by_another_module(tmp_path: Path) -> None:
    """The trainer builds its loader on the sampler its constructor is handed (`self.sampler = sampler`); main.py
    hands it a shuffling `DistributedSampler` and never sets its epoch."""
    def found(sampler: str, main_extra: str = "") -> list[int]:
        main = HANDING_MAIN.format(sampler=sampler) + main_extra
        return project_rows(tmp_path, "trainer.py", {"trainer.py": HANDED_TRAINER, "main.py": main})

    assert found("DistributedSampler(train_set, num_replicas=cfg.world_size, rank=rank)") == [17]
    assert found("DistributedSampler(train_set, rank=rank, shuffle=True)") == [17]
    assert found("DistributedSampler(train_set, rank=rank, shuffle=False)") == []
    assert found("None") == []
    # the module handing it sets the epoch itself (on its own loop over the trainer's epochs)
    assert found("DistributedSampler(train_set)", "        sampler.set_epoch(0)\n") == []
