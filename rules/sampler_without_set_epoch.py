"""SC215 sampler-without-set-epoch: a shuffling DistributedSampler reused across epochs without `set_epoch`."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Binding, Context, Invalid, Rule
from shapecheck.engine.syntax import is_self_attribute, keyword_arg, last_name
from shapecheck.engine.context import Point
from shapecheck.engine.walker import walk
from shapecheck.objects.tensor_facts import is_builtin_call
from shapecheck.loops.surroundings import in_test, is_test_file
from shapecheck.loops.training_loop import training_loop
from shapecheck.objects.arguments import passed_argument, receiving_parameter
from shapecheck.objects.callers import imported_method_callers
from shapecheck.objects.stored import attribute_path, constructor_arguments, stored_root
from shapecheck.objects.values import Instance, Seq, TorchObject, truth
from shapecheck.shapes.evaluator import evaluator

_WRAPPERS = frozenset({"enumerate", "tqdm", "iter"})


class SamplerWithoutSetEpoch(Rule):
    code = "SC215"
    name = "sampler-without-set-epoch"
    message = "a shuffling `DistributedSampler` is iterated every epoch without `sampler.set_epoch(epoch)`"
    # a loader a project function of another module builds is read from there: its caller may name neither
    triggers = ("DistributedSampler", "loader", "Loader")
    # What the visits find is replayed in order by `finish` (same-file factories, loops, the parameters a helper
    # iterates), so the editor server keeps each statement's part between edits.
    scope = "statement"
    gathered = ("_events",)
    docs = """
        ## What it does
        Finds a loop over a `DataLoader` (or over `zip` of loaders: FixMatch's labeled and unlabeled batches) whose
        sampler is a `torch.utils.data.distributed.DistributedSampler`
        that shuffles (the default, or `shuffle=True`), nested in an epoch loop or in a same-file helper an epoch
        loop hands the loader to (`train(train_loader, ...)`), or in a same-file helper handed the loader that
        runs the epochs itself (`fit(model, loader, optimizer, epochs)`), in a file that never calls
        `set_epoch(...)`. The
        loader may come from a same-file function or method that returns one (`build_loader(dataset, rank)`, a
        data module's `train_dataloader()`). The sampler may be bound on one branch of an `if` and `None` on the
        other (the sharded run's sampler), or come from a same-file function one of whose `return`s builds it
        (`data_sampler(dataset, shuffle=True, distributed=...)`); the helper may hand the loader on to another
        that iterates it (`sample_data(loader)`, a generator looping over it forever). A loader an epoch loop
        iterates, or hands to a same-file helper that iterates it (`loader = make_loader(dataset, args.batch)`, then
        `train_epoch(args, loader, ...)`), may also come from a function of another module of the project (`from
        data import make_loader`), read there. A loader built in the call that hands it to such a helper (`train(args,
        make_loader(dataset, args), ...)`) is reported at the helper's loop over it.

        The loader may also be drawn with `iter(loader)` inside a step loop (`next(iter(loader))` on every step,
        or `data_iter = iter(loader)` again once it is exhausted), be unpacked from a same-file factory's tuple
        (`train_loader, val_loader = get_loaders(...)`, `loader, sampler = build_loader(...)`, of the file or of
        another module, also into a trainer's attributes: `self.train_loader, self.train_sampler = ...`) or be an
        item of a dict one returns (`loaders["train"]`).

        A trainer's loader stored from its constructor (`self.train_loader = train_loader`, looped over in an
        epoch method such as the DDP tutorial's `_run_epoch(epoch)`) counts when a construction of the trainer in
        the file, or in a module of the project that never calls `set_epoch` (`Runner(model, optimizer, loader,
        sampler, args.epochs)` in main.py), hands it such a loader, or an object holding one (`self.egs.train_loader` of a data bundle its
        class built, a factory of another module returning it); one its constructor builds (`self.loader =
        DataLoader(dataset, sampler=self.sampler)`, the sampler perhaps from a function of another module:
        `self.sampler = build_sampler(train_set)`, or the sampler its constructor is handed, `self.sampler = sampler`,
        where every construction of the trainer, in a module that never calls `set_epoch`, hands a shuffling one;
        or a split of the dict of loaders a factory of the file or of
        another module returns: `self.loaders = build_dataloaders(cfg)`, then `for x, y in self.loaders["train"]:`)
        counts when a call of the method that iterates it runs in a loop (of the file, or the epoch loop of a module
        importing the trainer that never calls `set_epoch`: `trainer.train_one_epoch()` in main.py). So does a loader a method of an object
        the trainer stores from its constructor makes each call (`for x, y in self.data.train_loader(epoch):`),
        when every construction, in any module, hands it a project object whose method returns a `DataLoader` of
        the shuffling `DistributedSampler` the object keeps (`sampler=self.sampler`), in a module that never calls
        `set_epoch` (ClassyVision's dataset wrapper, whose `iterator(phase)` drops the phase).

        Not reported: `shuffle=False` or a shuffle flag the code does not spell out, a loader another file builds
        and hands in by other means (a parameter, an attribute), a loader iterated once (no loop around it), any file calling `set_epoch`, and tests.

        ## Why is this bad?
        `DistributedSampler` seeds its shuffle with `seed + epoch`, and the epoch only changes through
        `set_epoch`. Without it every epoch visits the data in the same order on every process: the shuffle is
        silently off after the first epoch. PyTorch's documentation: "In distributed mode, calling the
        set_epoch() method at the beginning of each epoch before creating the DataLoader iterator is necessary to
        make shuffling work properly across multiple epochs. Otherwise, the same ordering will be always used."

        ## Example
        ```python
        sampler = DistributedSampler(dataset)
        loader = DataLoader(dataset, batch_size=64, sampler=sampler)
        for epoch in range(epochs):
            for x, y in loader:
                train_step(x, y)
        ```

        ## Use instead
        ```python
        sampler = DistributedSampler(dataset)
        loader = DataLoader(dataset, batch_size=64, sampler=sampler)
        for epoch in range(epochs):
            sampler.set_epoch(epoch)
            for x, y in loader:
                train_step(x, y)
        ```

        This rule has no fix: the epoch counter to pass is the author's.
    """
    VALID = [
        # A DDP script with a progress bar around the sharded loader, set to each epoch.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        from tqdm import tqdm
        def main(model, dataset, epochs, rank, world_size):
            sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
            loader = DataLoader(dataset, batch_size=32, sampler=sampler, pin_memory=True)
            optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
            for epoch in range(epochs):
                sampler.set_epoch(epoch)
                for step, (x, y) in enumerate(tqdm(loader, disable=rank != 0)):
                    optimizer.zero_grad()
                    torch.nn.functional.cross_entropy(model(x), y).backward()
                    optimizer.step()
        """,
        # A trainer handed a sharded loader that does not shuffle.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class Evaluator:
            def __init__(self, model, loader):
                self.model, self.loader = model, loader
            def run(self, epochs):
                for epoch in range(epochs):
                    with torch.no_grad():
                        for x, y in self.loader:
                            self.model(x)
        def main(dataset, model):
            loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset, shuffle=False))
            Evaluator(model, loader).run(3)
        """,
        # One pass drawn step by step: the iterator is made once, before the loop.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def warmup(model, dataset, optimizer, steps):
            loader = DataLoader(dataset, batch_size=16, sampler=DistributedSampler(dataset))
            data_iter = iter(loader)
            for step in range(steps):
                batch = next(data_iter)
                optimizer.zero_grad()
                model(batch).mean().backward()
                optimizer.step()
        """,
        # The validation loader of a factory's pair does not shuffle; only it is looped over each epoch.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def get_loaders(train_set, val_set, bs):
            train = DataLoader(train_set, batch_size=bs, sampler=DistributedSampler(train_set))
            val = DataLoader(val_set, batch_size=bs, sampler=DistributedSampler(val_set, shuffle=False))
            return train, val
        def main(model, train_set, val_set, epochs):
            train_loader, val_loader = get_loaders(train_set, val_set, 32)
            for epoch in range(epochs):
                with torch.no_grad():
                    for x, y in val_loader:
                        model(x)
        """,
        # pytorch/examples imagenet.
        """
        import torch
        from torch.utils.data.distributed import DistributedSampler
        train_sampler = DistributedSampler(train_dataset)
        train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=256, sampler=train_sampler)
        for epoch in range(start_epoch, epochs):
            train_sampler.set_epoch(epoch)
            for images, target in train_loader:
                step(images, target)
        """,
        # Set through the loader.
        """
        import torch
        from torch.utils.data import DataLoader, DistributedSampler
        loader = DataLoader(ds, sampler=DistributedSampler(ds), batch_size=32)
        for epoch in range(epochs):
            loader.sampler.set_epoch(epoch)
            for batch in loader:
                step(batch)
        """,
        # A validation sampler that does not shuffle.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        val_loader = DataLoader(val_ds, sampler=DistributedSampler(val_ds, shuffle=False))
        for epoch in range(epochs):
            for batch in val_loader:
                evaluate(batch)
        """,
        # One pass only.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        sampler = DistributedSampler(ds)
        loader = DataLoader(ds, sampler=sampler)
        for batch in loader:
            predict(batch)
        """,
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def build_loader(dataset, rank, world_size):
            sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
            return DataLoader(dataset, batch_size=32, sampler=sampler)
        def main(dataset, rank, world_size, epochs):
            loader = build_loader(dataset, rank, world_size)
            for epoch in range(epochs):
                loader.sampler.set_epoch(epoch)
                for batch in loader:
                    step(batch)
        """,
        # Helpers handed the loader that iterate it once (an evaluation), or run epochs over a non-shuffling one.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def evaluate(model, loader):
            with torch.no_grad():
                for x, y in loader:
                    model(x)
        def fit(model, loader, epochs):
            for epoch in range(epochs):
                for x, y in loader:
                    model(x).sum().backward()
        def main():
            val_loader = DataLoader(val_set, sampler=DistributedSampler(val_set))
            evaluate(model, val_loader)
            ordered = DataLoader(train_set, sampler=DistributedSampler(train_set, shuffle=False))
            fit(model, ordered, 10)
        """,
        """
        import torch
        from torch.utils.data import DataLoader, DistributedSampler
        def main(args, dataset, model, optimizer):
            sampler = DistributedSampler(dataset) if args.distributed else None
            loader = DataLoader(dataset, batch_size=32, shuffle=(sampler is None), sampler=sampler)
            for epoch in range(args.start_epoch, args.epochs):
                if args.distributed:
                    sampler.set_epoch(epoch)
                for images, target in loader:
                    train_step(model, images, target, optimizer)
        """,
        # facebookresearch/deit's main.py: the loaders built in the calls that hand them to a one-pass evaluation,
        # and to an epoch helper over a sampler that does not shuffle.
        """
        import torch
        from torch.utils.data import DataLoader, DistributedSampler
        def evaluate(data_loader, model):
            for images, target in data_loader:
                model(images)
        def train_epochs(model, data_loader, epochs):
            for epoch in range(epochs):
                for samples, targets in data_loader:
                    model(samples).sum().backward()
        evaluate(DataLoader(dataset_val, sampler=DistributedSampler(dataset_val), batch_size=64), model)
        train_epochs(model, DataLoader(dataset_train, sampler=DistributedSampler(dataset_train, shuffle=False)), 300)
        """,
        # A trainer's validation loader over a sampler that does not shuffle, iterated every epoch (the DDP
        # tutorial's evaluation split).
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class Trainer:
            def __init__(self, model, val_set, epochs):
                self.model, self.epochs = model, epochs
                sampler = DistributedSampler(val_set, shuffle=False)
                self.val_loader = DataLoader(val_set, batch_size=64, sampler=sampler)
            @torch.no_grad()
            def validate(self):
                correct = 0
                for x, y in self.val_loader:
                    correct += self.model(x).argmax(1).eq(y).sum().item()
                return correct
            def fit(self):
                for epoch in range(self.epochs):
                    print(self.validate())
        """,
        # A data bundle's evaluation loader over a sampler that does not shuffle, iterated by the trainer every
        # epoch (asv-subtools' valid loader).
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class Bundle:
            def __init__(self, validset):
                self.valid_sampler = DistributedSampler(validset, shuffle=False)
                self.valid_loader = DataLoader(validset, batch_size=64, sampler=self.valid_sampler)
        class Trainer:
            def __init__(self, model, bundle):
                self.model, self.bundle = model, bundle
            def run(self, epochs):
                for epoch in range(epochs):
                    for x, y in self.bundle.valid_loader:
                        print(self.model(x).argmax(1).eq(y).float().mean())
        Trainer(model, Bundle(validset)).run(10)
        """,
        # A loader factory handed the sampler: the validation loader's does not shuffle, and it is the one looped over.
        """
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def make_data_loader(dataset, sampler, batch_size):
            return DataLoader(dataset, batch_size=batch_size, sampler=sampler, num_workers=2, pin_memory=True)
        def evaluate(model, data_loader):
            for images, targets in data_loader:
                model(images)
        def main(model, val_set, epochs):
            val_loader = make_data_loader(val_set, DistributedSampler(val_set, shuffle=False), 4)
            for epoch in range(epochs):
                evaluate(model, val_loader)
        """,
        # Paired evaluation loaders zipped every epoch, their samplers sharding without shuffling.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class PairedEvaluator:
            def __init__(self, model, clean_set, noisy_set):
                self.model = model
                self.clean_loader = DataLoader(clean_set, 64, sampler=DistributedSampler(clean_set, shuffle=False))
                self.noisy_loader = DataLoader(noisy_set, 64, sampler=DistributedSampler(noisy_set, shuffle=False))
            def evaluate(self):
                total = 0.0
                with torch.no_grad():
                    for (x, _), (y, _) in zip(self.clean_loader, self.noisy_loader):
                        total += (self.model(x) - self.model(y)).abs().mean().item()
                return total
            def run(self, epochs):
                for epoch in range(epochs):
                    print(epoch, self.evaluate())
        """,
        # A trainer's dict of loaders from a factory: only the split it iterates each epoch counts, and that one is
        # not shuffled.
        """
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def make_loaders(splits, batch_size):
            loaders = {}
            for name, dataset in splits.items():
                sampler = DistributedSampler(dataset, shuffle=False)
                loaders[name] = DataLoader(dataset, batch_size=batch_size, sampler=sampler)
            return loaders
        class Evaluator:
            def __init__(self, model, splits):
                self.model = model
                self.loaders = make_loaders(splits, 32)
            def score(self, split):
                return sum(self.model(x).sum() for x, _ in self.loaders[split])
            def watch(self, checkpoints):
                for path in checkpoints:
                    self.model.load(path)
                    self.score("dev")
        """,
    ]
    INVALID = [
        # A trainer's dict of loaders from a factory that fills it in a loop over the splits, the training split
        # shuffled: `self.loaders["train"]` in the method its epoch loop calls.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def build_loaders(train_set, test_set, batch_size, world_size, rank):
            loaders = {}
            for split, dataset in (("train", train_set), ("test", test_set)):
                sampler = DistributedSampler(dataset, world_size, rank, shuffle=split == "train")
                loaders[split] = DataLoader(dataset, batch_size=batch_size, sampler=sampler, num_workers=2)
            return loaders
        class Trainer:
            def __init__(self, model, train_set, test_set, world_size, rank):
                self.model = model
                self.loaders = build_loaders(train_set, test_set, 64, world_size, rank)
                self.optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
            def _train_epoch(self):
                for tokens, targets in self.loaders["train"]:
                    self.optimizer.zero_grad()
                    self.model(tokens, targets).backward()
                    self.optimizer.step()
            def _test(self):
                with torch.no_grad():
                    return [self.model(tokens, targets).item() for tokens, targets in self.loaders["test"]]
            def fit(self, epochs):
                for epoch in range(epochs):
                    self._train_epoch()
                    self._test()
        """,
        # FixMatch's trainer (kekmodel/FixMatch-pytorch's form): the labeled and unlabeled loaders are zipped, and
        # neither sampler is given the epoch.
        Invalid(
            """
            import torch
            from torch.utils.data import DataLoader
            from torch.utils.data.distributed import DistributedSampler
            class FixMatchTrainer:
                def __init__(self, args, model, labeled_set, unlabeled_set):
                    self.args, self.model = args, model
                    self.labeled_sampler = DistributedSampler(labeled_set)
                    self.unlabeled_sampler = DistributedSampler(unlabeled_set)
                    self.labeled_loader = DataLoader(labeled_set, batch_size=64, sampler=self.labeled_sampler)
                    self.unlabeled_loader = DataLoader(unlabeled_set, batch_size=448, sampler=self.unlabeled_sampler)
                def train_epoch(self, epoch):
                    for (x_l, y_l), (u_weak, u_strong) in zip(self.labeled_loader, self.unlabeled_loader):
                        self.train_step(x_l, y_l, u_weak, u_strong)
                def fit(self):
                    for epoch in range(self.args.epochs):
                        self.train_epoch(epoch)
            """,
            count=2,
        ),
        # A trainer building its sampler and loader in `__init__`, iterated in the method its epoch loop calls.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class Trainer:
            def __init__(self, model, dataset, epochs):
                self.model, self.epochs = model, epochs
                self.sampler = DistributedSampler(dataset)
                self.loader = DataLoader(dataset, batch_size=32, sampler=self.sampler)
                self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            def train_epoch(self):
                for x, y in self.loader:
                    self.optimizer.zero_grad()
                    torch.nn.functional.cross_entropy(self.model(x), y).backward()
                    self.optimizer.step()
            def fit(self):
                for epoch in range(self.epochs):
                    self.train_epoch()
        """,
        # A trainer handed a data bundle whose class built the loader over a shuffling sampler.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class Bundle:
            def __init__(self, trainset):
                self.train_sampler = DistributedSampler(trainset, shuffle=True)
                self.train_loader = DataLoader(trainset, batch_size=32, sampler=self.train_sampler)
        class Trainer:
            def __init__(self, model, bundle, optimizer):
                self.model, self.bundle, self.optimizer = model, bundle, optimizer
            def run(self, epochs):
                for epoch in range(epochs):
                    for x, y in self.bundle.train_loader:
                        self.optimizer.zero_grad()
                        torch.nn.functional.cross_entropy(self.model(x), y).backward()
                        self.optimizer.step()
        Trainer(model, Bundle(trainset), optimizer).run(10)
        """,
        # The loader built in the call that hands it to a helper running the epochs; reported at its loop.
        """
        import torch
        import torch.utils.data as tud
        def sharded(ds, rank, world):
            return tud.DataLoader(ds, batch_size=32, sampler=tud.distributed.DistributedSampler(ds, world, rank))
        def run(net, batches, n_epochs, opt):
            for _ in range(n_epochs):
                for xb, yb in batches:
                    opt.zero_grad()
                    torch.nn.functional.l1_loss(net(xb), yb).backward()
                    opt.step()
        run(net, sharded(train_ds, rank, world), n_epochs=5, opt=opt)
        """,
        # A DDP script with a progress bar around the sharded loader (`enumerate(tqdm(loader))`).
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        from tqdm import tqdm
        def main(model, dataset, epochs, rank, world_size):
            sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
            loader = DataLoader(dataset, batch_size=32, sampler=sampler, pin_memory=True)
            optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
            for epoch in range(epochs):
                for step, (x, y) in enumerate(tqdm(loader, disable=rank != 0)):
                    optimizer.zero_grad()
                    torch.nn.functional.cross_entropy(model(x), y).backward()
                    optimizer.step()
        """,
        # The DDP tutorial's trainer without `set_epoch`: `main()` hands it the sharded loader.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class Trainer:
            def __init__(self, model, optimizer, train_data):
                self.model, self.optimizer, self.train_data = model, optimizer, train_data
            def _run_epoch(self, epoch):
                for source, targets in self.train_data:
                    self.optimizer.zero_grad()
                    torch.nn.functional.cross_entropy(self.model(source), targets).backward()
                    self.optimizer.step()
            def train(self, max_epochs):
                for epoch in range(max_epochs):
                    self._run_epoch(epoch)
        def main(dataset, model, optimizer):
            loader = DataLoader(dataset, batch_size=32, shuffle=False, sampler=DistributedSampler(dataset))
            Trainer(model, optimizer, loader).train(10)
        """,
        # A step loop starting the loader over once it is exhausted.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def train(model, dataset, optimizer, max_steps):
            loader = DataLoader(dataset, batch_size=16, sampler=DistributedSampler(dataset), drop_last=True)
            data_iter = iter(loader)
            for step in range(max_steps):
                try:
                    batch = next(data_iter)
                except StopIteration:
                    data_iter = iter(loader)
                    batch = next(data_iter)
                optimizer.zero_grad()
                model(batch).mean().backward()
                optimizer.step()
        """,
        # Loaders from a same-file factory, in a tuple and in a dict.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def get_loaders(train_set, val_set, bs, distributed=True):
            sampler = DistributedSampler(train_set) if distributed else None
            train_loader = DataLoader(train_set, batch_size=bs, sampler=sampler, shuffle=(sampler is None))
            return train_loader, DataLoader(val_set, batch_size=bs)
        def train_one_epoch(model, loader, optimizer):
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
        def main(model, train_set, val_set, optimizer):
            train_loader, val_loader = get_loaders(train_set, val_set, 32)
            for epoch in range(90):
                train_one_epoch(model, train_loader, optimizer)
        """,
        """
        import torch
        from torch.utils.data import DataLoader, DistributedSampler
        def get_loaders(train_set, val_set, batch_size):
            return {"train": DataLoader(train_set, batch_size=batch_size, sampler=DistributedSampler(train_set)),
                    "val": DataLoader(val_set, batch_size=batch_size)}
        def main(model, train_set, val_set, optimizer, epochs):
            loaders = get_loaders(train_set, val_set, 64)
            for epoch in range(epochs):
                for x, y in loaders["train"]:
                    optimizer.zero_grad()
                    torch.nn.functional.mse_loss(model(x), y).backward()
                    optimizer.step()
        """,
        # rosinality/stylegan2-pytorch: the sampler comes from a factory, and train() hands the loader to a
        # generator that iterates it forever.
        """
        import torch
        from torch.utils import data
        def data_sampler(dataset, shuffle, distributed):
            if distributed:
                return data.distributed.DistributedSampler(dataset, shuffle=shuffle)
            return data.RandomSampler(dataset) if shuffle else data.SequentialSampler(dataset)
        def sample_data(loader):
            while True:
                for batch in loader:
                    yield batch
        def train(args, loader, generator, g_optim):
            loader = sample_data(loader)
            for i in range(args.iter):
                real_img = next(loader)
                g_optim.zero_grad()
                generator(real_img).mean().backward()
                g_optim.step()
        dataset = torch.randn(64, 16)
        loader = data.DataLoader(dataset, batch_size=4, sampler=data_sampler(dataset, shuffle=True, distributed=True))
        train(args, loader, generator, g_optim)
        """,
        # Spijkervet/SimCLR before its fix: the sampler of the multi-node run, bound in both branches of an `if`.
        """
        import torch
        from torch.utils.data import DataLoader
        def train(args, train_loader, model, criterion, optimizer):
            for step, ((x_i, x_j), _) in enumerate(train_loader):
                optimizer.zero_grad()
                criterion(*model(x_i, x_j)).backward()
                optimizer.step()
        def main(gpu, args, train_dataset, model, criterion, optimizer):
            if args.nodes > 1:
                train_sampler = torch.utils.data.distributed.DistributedSampler(train_dataset, shuffle=True)
            else:
                train_sampler = None
            train_loader = DataLoader(train_dataset, batch_size=args.batch_size, shuffle=(train_sampler is None),
                                      sampler=train_sampler)
            for epoch in range(args.start_epoch, args.epochs):
                train(args, train_loader, model, criterion, optimizer)
        """,
        # pytorch/examples imagenet with the `set_epoch` line deleted: the epoch loop hands the loader to train().
        """
        import torch
        def train(train_loader, model, criterion, optimizer, epoch):
            model.train()
            for i, (images, target) in enumerate(train_loader):
                optimizer.zero_grad()
                criterion(model(images), target).backward()
                optimizer.step()
        def main_worker(gpu, args):
            train_sampler = torch.utils.data.distributed.DistributedSampler(train_dataset)
            train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=256, sampler=train_sampler)
            for epoch in range(args.start_epoch, args.epochs):
                train(train_loader, model, criterion, optimizer, epoch)
        """,
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
        loader = DataLoader(dataset, batch_size=64, sampler=sampler)
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        """,
        """
        import torch
        import torch.utils.data as data
        def train(rank, world_size, dataset, epochs):
            loader = data.DataLoader(dataset, sampler=data.distributed.DistributedSampler(dataset, shuffle=True))
            for epoch in range(epochs):
                for batch in loader:
                    step(batch)
        """,
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        class DataModule:
            def train_dataloader(self):
                sampler = DistributedSampler(self.train_set, num_replicas=self.world_size, rank=self.rank)
                return DataLoader(self.train_set, batch_size=64, sampler=sampler, num_workers=4)
        def fit(dm, model, epochs):
            loader = dm.train_dataloader()
            for epoch in range(epochs):
                for batch in loader:
                    model.training_step(batch)
        """,
        # `main()` builds the loader and hands it to a helper that runs the epochs itself.
        """
        import torch
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def fit(model, loader, optimizer, epochs):
            for epoch in range(epochs):
                for x, y in loader:
                    optimizer.zero_grad()
                    torch.nn.functional.mse_loss(model(x), y).backward()
                    optimizer.step()
        def main():
            sampler = DistributedSampler(dataset, shuffle=True)
            loader = DataLoader(dataset, batch_size=8, sampler=sampler)
            fit(model, loader, optimizer, 10)
        """,
        # The sampler of the distributed run only, as the ImageNet example builds it.
        """
        import torch
        from torch.utils.data import DataLoader, DistributedSampler
        def main(args, dataset, model, optimizer):
            sampler = DistributedSampler(dataset) if args.distributed else None
            loader = DataLoader(dataset, batch_size=32, shuffle=(sampler is None), sampler=sampler)
            for epoch in range(args.start_epoch, args.epochs):
                for images, target in loader:
                    train_step(model, images, target, optimizer)
        """,
        # A detection-style loader factory handed the sampler the caller built (taglets' Trainable before its fix).
        """
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        def make_data_loader(dataset, sampler, batch_size):
            return DataLoader(dataset, batch_size=batch_size, sampler=sampler, num_workers=2, pin_memory=True)
        def do_train(model, data_loader, optimizer):
            for images, targets in data_loader:
                optimizer.zero_grad()
                model(images, targets).backward()
                optimizer.step()
        def main(model, train_set, optimizer, epochs):
            sampler = DistributedSampler(train_set)
            train_loader = make_data_loader(train_set, sampler, 4)
            for epoch in range(epochs):
                do_train(model, train_loader, optimizer)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # What the visits saw, in order, for `finish` to replay: whether a loader shuffles may hang on
        # the same-file factories found before it, which the visits of one statement cannot know.
        self._events: list[tuple] = []

    def visit_Return(self, node: cst.Return) -> None:
        function = self.ctx.function
        if function is not None and node.value is not None:
            shuffles, factory = self._shuffling_loader(node.value)
            if shuffles or factory is not None:
                self._events.append(("factory", function.name.value, shuffles, factory))
            elif self._sampler_passed_in(node.value):
                self._events.append(("wraps", function.name.value))

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target
        if len(node.targets) != 1:
            return
        if type(target) is cst.Name:
            shuffles, factory = self._shuffling_loader(node.value)
            if shuffles or factory is not None:
                self._events.append(("loader", self.ctx.function, target.value, node.value, shuffles, factory))
            elif type(node.value) is cst.Call and _imported_call(self.ctx, node.value):
                # `loader = make_loader(dataset, args.batch)` of another module: the objects floor is asked in
                # `finish`, and only for a name the file hands to a helper that iterates it
                self._events.append(("imported", self.ctx.function, target.value, node.value, None))
        elif type(target) is cst.Tuple and type(node.value) is cst.Call and _imported_call(self.ctx, node.value):
            # `train_loader, val_loader = get_dataloaders(...)` of another module: asked in `finish`, as above
            for index, element in enumerate(target.elements):
                if type(element.value) is cst.Name:
                    self._events.append(("imported", self.ctx.function, element.value.value, node.value, index))
        elif type(target) is cst.Tuple and type(node.value) is cst.Call and type(node.value.func) is cst.Name \
                and self.ctx.qualname(node.value.func) is None:
            # `train_loader, val_loader = get_loaders(...)`: the loaders a same-file factory returns, as the objects
            # floor builds them
            returned = evaluator(self.ctx).value(node.value)
            if not isinstance(returned, Seq) or len(returned.items) != len(target.elements):
                return
            for element, item in zip(target.elements, returned.items):
                if type(element.value) is cst.Name and _built_shuffling(item):
                    self._events.append(("loader", self.ctx.function, element.value.value, node.value, True, None))

    def visit_For(self, node: cst.For) -> None:
        if in_test(self.ctx):
            return
        for iterated in _loaders_iterated(node.iter):
            self._loop_over(iterated)

    def _loop_over(self, iterated: cst.BaseExpression) -> None:
        ctx = self.ctx
        per_epoch = len(ctx.loops) >= 2  # the loop itself is in ctx.loops: one more is the epoch loop
        # `for x, y in self.loader:` in a trainer's `train_epoch`, over the loader `__init__` built: an epoch loop
        # around the method's calls is looked for in `finish`
        attribute = not per_epoch and ctx.function is not None and is_self_attribute(
            iterated.value if type(iterated) is cst.Subscript else iterated)
        if type(iterated) is cst.Name and ctx.function is not None:
            binding = ctx.binding(iterated)
            if binding is not None and binding.kind == "param":
                self._events.append(("iterated", ctx.function, iterated.value, per_epoch, iterated))
        shuffles, factory = self._shuffling_loader(iterated, follow=True) if per_epoch or attribute \
            else (False, None)
        # `for x, y in self.train_loader:` of a trainer, unless the loop is over a shuffling loader
        stored = stored_root(ctx, iterated) if ctx.function is not None and not shuffles else None
        made = None
        if stored is None and ctx.function is not None and not shuffles and type(iterated) is cst.Call \
                and type(iterated.func) is cst.Attribute:
            # `for sample in self.dataset.iterator(phase):`, a loader a method of a stored object makes each call
            stored = stored_root(ctx, iterated.func.value)
            made = iterated.func.attr.value
        stored = (*stored, made) if stored is not None else None
        if shuffles or factory is not None or stored is not None:
            self._events.append(("loop", iterated, ctx.function, per_epoch, stored, shuffles, factory))

    def visit_Call(self, node: cst.Call) -> None:
        # `data_iter = iter(loader)` again once a step loop has drawn it all, or `next(iter(loader))` on every step:
        # each `iter` starts a new pass over the sampler, in the order of the epoch it was last set to
        ctx = self.ctx
        if type(ctx.parent) is cst.For:
            return  # `for batch in iter(loader)`: a loop over the loader, which `visit_For` reads
        if ctx.qualname(node.func) is None and not in_test(ctx):
            # `train(args, make_loader(dataset, args), ...)`: a loader built in the call that hands it to a helper
            for arg in node.args:
                if type(arg.value) is cst.Call:
                    shuffles, factory = self._shuffling_loader(arg.value)
                    if shuffles or factory is not None:
                        self._events.append(("handed", node, arg.value, bool(ctx.loops), shuffles, factory))
        if ctx.loops and len(node.args) == 1 and is_builtin_call(ctx, node, "iter") and not in_test(ctx):
            shuffles, factory = self._shuffling_loader(node.args[0].value, follow=True)
            if shuffles or factory is not None:
                self._events.append(("loop", node.args[0].value, None, False, None, shuffles, factory))

    def _shuffling_loader(self, expr: cst.BaseExpression, follow: bool = False) -> tuple[bool, str | None]:
        """Whether `expr` is a `DataLoader(...)` whose sampler is a `DistributedSampler` that shuffles; or else the
        same-file function whose call it is, when that is a loader only if the function returns one (a factory,
        known once the functions before are: `finish`). With `follow` (a loader an epoch loop iterates: few, so
        the objects floor is asked), also one a project function of another module builds."""
        ctx = self.ctx
        loader, before = ctx.value_of(expr)
        if follow and type(loader) in (cst.Subscript, cst.Name, cst.Attribute):
            # `loaders["train"]` of a dict a factory returns, `loader` or `self.loader` unpacked from the `(loader,
            # sampler)` pair one returns
            return _built_shuffling(evaluator(ctx).value(loader, before)), None
        if type(loader) is not cst.Call:
            return False, None
        if ctx.qualname(loader.func) is None:
            built = follow and _built_shuffling(evaluator(ctx).value(loader, before))
            return built, None if built else last_name(loader.func)
        if not (ctx.qualname(loader.func) or "").endswith(".DataLoader"):
            return follow and _built_shuffling(evaluator(ctx).value(loader, before)), None
        sampler = keyword_arg(loader, "sampler")
        if sampler is None:
            return False, None
        # the binding `value_of` followed the loader to, where the sampler's name is read
        bound = ctx.binding(expr) if type(expr) is cst.Name or is_self_attribute(expr) else None
        built = self._sampler_built(sampler.value, before, bound if bound is not None and bound.seq == before else None)
        if type(built) is cst.IfExp:  # `DistributedSampler(ds) if args.distributed else None`: the run that shards
            branches = [branch for branch in (built.body, built.orelse) if not _is_none(branch)]
            built = branches[0] if len(branches) == 1 else built
        factory = None
        if type(built) is cst.Call and ctx.qualname(built.func) is None and type(built.func) is cst.Name:
            # `data_sampler(dataset, shuffle=True, distributed=args.distributed)`: a same-file function with a
            # `return DistributedSampler(...)`, the sharded run's sampler
            factory, call = _sampler_factory(ctx, built.func.value), built
            built = factory[1] if factory is not None else built
        if type(built) is cst.Name and follow:
            return self._handed_sampler(built), None
        if type(built) is not cst.Call:
            return False, None
        if not (ctx.qualname(built.func) or "").endswith(".DistributedSampler"):
            # `self.sampler = build_sampler(train_set)` of another module: the objects floor runs it
            value, at = ctx.value_of(sampler.value, before)
            return follow and value is built and _imported_call(ctx, built) \
                and _shuffling_sampler(evaluator(ctx).value(built, at)), None
        shuffle = keyword_arg(built, "shuffle")
        flag = shuffle.value if shuffle is not None else None
        if factory is not None and type(flag) is cst.Name and flag.value != "True":
            flag = passed_argument(factory[0], call, flag.value)  # the factory's `shuffle` parameter
        return shuffle is None or type(flag) is cst.Name and flag.value == "True", None

    def _handed_sampler(self, sampler: cst.Name) -> bool:
        """`sampler`, a parameter of the constructor of the class being visited that it keeps or hands its loader
        (`self.sampler = sampler`, `DataLoader(train_set, sampler=self.sampler)`), is a shuffling
        `DistributedSampler` at every construction of the class, in this file or in a module of the project
        importing it that never calls `set_epoch` (`Trainer(model, train_set, DistributedSampler(train_set), cfg)`
        in main.py)."""
        class_def = self.ctx.class_def
        init = next((node for node in class_def.body.body if type(node) is cst.FunctionDef
                     and node.name.value == "__init__"), None) if class_def is not None else None
        if init is None or all(param.name.value != sampler.value for param in init.params.params) or any(
                type(node) is cst.AssignTarget and type(node.target) is cst.Name and node.target.value == sampler.value
                for node in walk(init.body)):
            return False  # `sampler = sampler or RandomSampler(ds)`: no longer what the constructions hand
        passed = constructor_arguments(self.ctx, class_def, init, sampler.value)
        return bool(passed) and all(
            not reader.calls_to("set_epoch") and _shuffling_at(reader, argument, point)
            for argument, point, reader in passed or ())

    def _sampler_passed_in(self, expr: cst.BaseExpression) -> bool:
        """`expr` is a `DataLoader(...)` whose sampler is a parameter of the function: `def get_loader(data,
        sampler): return DataLoader(data, sampler=sampler)`, a loader as shuffling as the sampler each call hands."""
        ctx = self.ctx
        loader, _ = ctx.value_of(expr)
        if type(loader) is not cst.Call or not (ctx.qualname(loader.func) or "").endswith(".DataLoader"):
            return False
        sampler = keyword_arg(loader, "sampler")
        binding = ctx.binding(sampler.value) if sampler is not None and type(sampler.value) is cst.Name else None
        return binding is not None and binding.kind == "param"

    def _built_shuffling_at(self, loader: cst.BaseExpression, index: int | None = None) -> bool:
        """The objects floor's run of a factory's call, read where its function ends (the module's code so far,
        outside functions), builds a shuffling loader (at `index` of the tuple it returns, when given): the sampler
        the call hands in is followed into the factory's `DataLoader(...)`."""
        with self.ctx.at(self.ctx.point_within(loader) or self.ctx.module_point()):
            built = evaluator(self.ctx).value(loader)
        if index is not None:
            built = built.items[index] if isinstance(built, Seq) and index < len(built.items) else None
        return _built_shuffling(built)

    def _called_in_loop(self, method: cst.FunctionDef) -> bool:
        """A call of `method` in the file runs in a loop: `self._run_epoch(epoch)` in `train()`'s epoch loop; or a
        call on a certain instance of its class in a module of the project that imports the class and never calls
        `set_epoch` (`trainer.train_one_epoch()` in main.py's epoch loop, `trainer = Trainer(cfg, model, data)`)."""
        return any(site.loop is not None for site in self.ctx.calls_of(method)) or any(
            caller.site.loop is not None and not caller.ctx.calls_to("set_epoch")
            for caller in imported_method_callers(self.ctx, method))

    def _passed_shuffling(self, argument: cst.BaseExpression, point: Point, factories: set[str],
                          path: tuple[str, ...] = ()) -> bool:
        """`argument`, read at `point`, is a shuffling loader, or holds one at the attributes `path` (a data bundle
        whose `train_loader` its class built: `build_egs(conf)` of another module)."""
        with self.ctx.at(point):
            if path:
                return _built_shuffling(attribute_path(evaluator(self.ctx).value(argument), path))
            shuffles, factory = self._shuffling_loader(argument)
        return shuffles or factory in factories

    def _handed_to_loop(self, call: cst.Call, name: str, iterating: dict[bool, set[tuple[cst.FunctionDef, str]]],
                        per_epoch: bool, depth: int) -> bool:
        """`call` hands the loader `name` to a same-file function that iterates it (in a loop of its own when
        `per_epoch`: `iterating[per_epoch]` has the parameters they loop over), or that hands it on so, `depth`
        calls deep (`train(args, loader)` wrapping it in `sample_data(loader)`, a generator looping `while True:
        for batch in loader:`)."""
        training = training_loop(self.ctx)
        return any(self._iterates(definition, training.callee_spelling(name, definition, call), call, iterating,
                                  per_epoch, depth) for definition in training.definitions_of(call))

    def _iterates(self, definition: cst.FunctionDef, parameter: str | None, call: cst.Call,
                  iterating: dict[bool, set[tuple[cst.FunctionDef, str]]], per_epoch: bool, depth: int) -> bool:
        """`definition`, run by `call`, iterates its `parameter` (see `_handed_to_loop`)."""
        if parameter is None:
            return False
        if (definition, parameter) in iterating[per_epoch]:
            return True
        return depth > 1 and any(
            self._handed_to_loop(site.node, parameter, iterating, per_epoch and site.loop is None, depth - 1)
            for site in training_loop(self.ctx).calls_in(definition) if site.node is not call)

    def _sampler_built(self, sampler: cst.BaseExpression, before: int | None, at: Binding | None
                       ) -> cst.BaseExpression:
        """What the sampler was built as, read as of `before` (in the value `at` binds, where there is one). A name
        bound on both branches of an `if` (`if distributed: sampler = DistributedSampler(ds)` / `else: sampler =
        None`) is the sharding one: the other branch leaves no sampler."""
        ctx = self.ctx
        reaching = ctx.reaching(sampler, before, at) if type(sampler) is cst.Name or is_self_attribute(sampler) \
            else None
        if reaching and len(reaching) > 1 and all(binding.kind == "assign" and binding.value is not None
                                                  for binding in reaching):
            built = [ctx.value_of(binding.value, binding.seq)[0] for binding in reaching]  # type: ignore[arg-type]
            samplers = [value for value in built if not _is_none(value)]
            if len(samplers) == 1:
                return samplers[0]
        return ctx.value_of(sampler, before)[0]

    def finish(self) -> None:
        if is_test_file(self.ctx) or self.ctx.calls_to("set_epoch"):
            return
        found: list[cst.BaseExpression] = []
        # Loaders built here with a shuffling DistributedSampler: (function, name) -> the loader's construction.
        loaders: dict[tuple[cst.FunctionDef | None, str], cst.BaseExpression] = {}
        # the parameters a function loops over (False), and those it loops over inside a loop of its own, its epoch
        # loop (True: `def fit(model, loader, epochs): for epoch in range(epochs): for x, y in loader:`)
        iterating: dict[bool, set[tuple[cst.FunctionDef, str]]] = {False: set(), True: set()}
        # Same-file functions and methods that return such a loader: `build_loader(ds)`, `dm.train_dataloader()`.
        factories: set[str] = set()
        # Loops over a loader a trainer's constructor stored (`self.train_loader = train_loader`): the loop, its
        # method, whether an epoch loop is around it there, and the class, `__init__` and parameter it came from.
        stored: list[tuple[cst.BaseExpression, cst.FunctionDef, bool,
                           tuple[tuple[cst.ClassDef, cst.FunctionDef, str], tuple[str, ...]]]] = []
        # The loops over each parameter: where a loader built in the call that hands it is reported.
        loops_over: dict[tuple[cst.FunctionDef, str], list[cst.BaseExpression]] = {}
        # Loaders built in a call's arguments: the call, the loader, whether a loop is around the call.
        handed: list[tuple[cst.Call, cst.BaseExpression, bool]] = []
        # Same-file functions that return a loader of the sampler they are handed: whether one is shuffling is
        # asked of the objects floor at each call.
        wrapping: set[str] = set()
        # Names bound to what a call of another module's function returns: a loader only if the objects floor says so.
        # (the position in the tuple the call returns, for a name unpacked from it)
        imported: list[tuple[cst.FunctionDef | None, str, cst.Call, int | None]] = []
        for kind, *event in self._events:
            if kind == "wraps":
                wrapping.add(event[0])
                continue
            if kind == "imported":
                imported.append(tuple(event))  # type: ignore[arg-type]
                continue
            if kind == "iterated":
                function, name, per_epoch, iterated = event
                loops_over.setdefault((function, name), []).append(iterated)
                iterating[False].add((function, name))
                if per_epoch:
                    iterating[True].add((function, name))
                continue
            *event, shuffles, factory = event  # a factory's loader is known once the functions before it are
            shuffles = shuffles or factory in factories
            if kind == "loader" and not shuffles and factory in wrapping:
                shuffles = self._built_shuffling_at(event[2])
            if kind == "factory" and shuffles:
                factories.add(event[0])
            elif kind == "loader" and shuffles:
                loaders[event[0], event[1]] = event[2]
            elif kind == "handed" and shuffles:
                handed.append(event)
            elif kind == "loop":
                iterated, method, per_epoch, at = event
                if shuffles and (per_epoch or method is None or self._called_in_loop(method)):
                    found.append(iterated)
                elif at is not None:
                    stored.append((iterated, method, per_epoch, at))
        training = training_loop(self.ctx)
        # An epoch loop handing the loader to a same-file helper that iterates it: `train(train_loader, ...)`; or
        # the loader handed to a helper that runs the epochs itself: `fit(model, loader, optimizer, epochs)`.
        for call, argument, in_loop in handed:
            for definition in training.definitions_of(call):
                parameter = receiving_parameter(definition, call, argument)
                if self._iterates(definition, parameter, call, iterating, not in_loop, 2):
                    # at the helper's loop over it; where the helper hands it on, at the argument
                    found += loops_over.get((definition, parameter), [argument])  # type: ignore[index]
        for function, name, call, index in imported:
            if (function, name) not in loaders and any(
                    self._handed_to_loop(site.node, name, iterating, per_epoch=site.loop is None, depth=2)
                    for site in training.calls_in(function)) and self._built_shuffling_at(call, index):
                loaders[function, name] = call
        for (function, name) in loaders:
            for site in training.calls_in(function):
                if self._handed_to_loop(site.node, name, iterating, per_epoch=site.loop is None, depth=2):
                    argument = next(arg.value for arg in site.node.args
                                    if type(arg.value) is cst.Name and arg.value.value == name)
                    # at the helper's loop over it, as for a loader built in the call; else at the argument
                    found += next((loops_over[definition, parameter] for definition in training.definitions_of(
                        site.node) if (parameter := receiving_parameter(definition, site.node, argument)) is not None
                        and (definition, parameter) in loops_over), [argument])
        for iterated, method, per_epoch, ((class_def, init, parameter), path, made) in stored:
            # the DDP tutorial's trainer: `_run_epoch(epoch)` called from `train()`'s epoch loop, over the loader
            # `main()` built with a DistributedSampler and handed to `Trainer(...)`
            if not per_epoch and not self._called_in_loop(method):
                continue
            passed = constructor_arguments(self.ctx, class_def, init, parameter) or []
            if made is not None:
                # a data wrapper handed in from any module, whose method makes a loader of the shuffling sampler
                # it keeps (ClassyVision's `dataset.iterator(phase)`)
                if passed and all(_makes_shuffling(reader, argument, point, path, made)
                                  for argument, point, reader in passed):
                    found.append(iterated)
            elif any(self._passed_shuffling(argument, point, factories, path) if reader is self.ctx
                     else _hands_shuffling(reader, argument, point, path) for argument, point, reader in passed):
                found.append(iterated)
        for node in found:
            self.report(node, f"`{self.ctx.code(node)}` draws from a shuffling `DistributedSampler` every epoch, but "
                              "nothing calls `set_epoch`: every epoch sees the same order; call "
                              "`sampler.set_epoch(epoch)` at the start of each epoch")


def _loaders_iterated(iterated: cst.BaseExpression) -> list[cst.BaseExpression]:
    """What a loop draws batches from: `loader` in `enumerate(loader)`, `tqdm(loader)`, `enumerate(tqdm(loader))`;
    each loader of `zip(labeled_loader, unlabeled_loader)` (FixMatch's labeled and unlabeled batches)."""
    while type(iterated) is cst.Call and type(iterated.func) is cst.Name and iterated.args:
        name = iterated.func.value
        if name == "zip":
            return [loader for arg in iterated.args if not arg.star for loader in _loaders_iterated(arg.value)]
        if name not in _WRAPPERS:
            break
        iterated = iterated.args[0].value
    return [iterated]


def _built_shuffling(built: object) -> bool:
    """`built` is a `DataLoader` the objects floor followed a project function's call to (`build_loader(ds)` from
    another module), made with a `DistributedSampler` that shuffles."""
    if not isinstance(built, TorchObject) or not built.qualname.endswith(".DataLoader") or built.site is None:
        return False
    sampler_expr = built.argument(3, "sampler")
    return _shuffling_sampler(built.site.read("value", sampler_expr) if sampler_expr is not None else None)


def _shuffling_sampler(sampler: object) -> bool:
    """`sampler` is a `DistributedSampler` the objects floor built, that shuffles."""
    if not isinstance(sampler, TorchObject) or not sampler.qualname.endswith(".DistributedSampler") \
            or sampler.site is None:
        return False
    shuffle = sampler.argument(3, "shuffle")
    return shuffle is None or truth(sampler.site.read("value", shuffle)) is True


def _shuffling_at(reader: Context, argument: cst.BaseExpression, point: Point) -> bool:
    """`argument`, read at `point` of `reader`, is a shuffling `DistributedSampler` the objects floor builds."""
    with reader.at(point):
        return _shuffling_sampler(evaluator(reader).value(argument))


def _hands_shuffling(reader: Context, argument: cst.BaseExpression, point: Point, path: tuple[str, ...]) -> bool:
    """A construction in another module (`reader`, which never calls `set_epoch`) hands a shuffling loader, or an
    object holding one at the attributes `path`, as the objects floor reads it there (`Runner(model, loader,
    sampler)` in main.py, the loader built beside the `DistributedSampler`)."""
    if reader.calls_to("set_epoch"):
        return False
    with reader.at(point):
        return _built_shuffling(attribute_path(evaluator(reader).value(argument), path))


def _makes_shuffling(reader: Context, argument: cst.BaseExpression, point: Point, path: tuple[str, ...],
                     method: str) -> bool:
    """The object `argument` (read in `reader` at `point`) holds at `path` is a project instance whose `method`
    has one `return`, a `DataLoader(...)` of the shuffling `DistributedSampler` the instance keeps
    (`sampler=self.sampler`), in a module that never calls `set_epoch` (the method may set it before the return)."""
    with reader.at(point):
        held = attribute_path(evaluator(reader).value(argument), path)
    if not isinstance(held, Instance) or held.tainted or held.cls.ctx.calls_to("set_epoch"):
        return False
    definitions = [statement for statement in held.cls.node.body.body
                   if type(statement) is cst.FunctionDef and statement.name.value == method]
    returns = [node.value for node in walk(definitions[0].body) if type(node) is cst.Return] \
        if len(definitions) == 1 else []
    loader = returns[0] if len(returns) == 1 else None
    if type(loader) is not cst.Call or not (held.cls.ctx.qualname(loader.func) or "").endswith(".DataLoader"):
        return False
    sampler = keyword_arg(loader, "sampler")
    return sampler is not None and is_self_attribute(sampler.value) \
        and _shuffling_sampler(held.attrs.get(sampler.value.attr.value))  # type: ignore[attr-defined]


def _imported_call(ctx: Context, call: cst.Call) -> bool:
    """`call` runs a function the file imports from a module that is not torch's (`make_loader(...)` with `from
    data import make_loader`): one of the project's, perhaps."""
    func = call.func
    root = func
    while type(root) is cst.Attribute:
        root = root.value
    if type(root) is not cst.Name:
        return False
    binding = ctx.binding(root)
    qualname = ctx.qualname(func)
    return binding is not None and binding.kind == "import" and qualname is not None \
        and not qualname.startswith("torch.")


def _sampler_factory(ctx: Context, name: str) -> tuple[cst.FunctionDef, cst.Call] | None:
    """The one same-file function named `name` and the `DistributedSampler(...)` one of its `return`s builds."""
    definitions = ctx.functions.get(name, [])
    if len(definitions) != 1:
        return None
    for node in ctx.walk(definitions[0].body):
        if type(node) is cst.Return and type(node.value) is cst.Call \
                and (ctx.qualname(node.value.func) or "").endswith(".DistributedSampler"):
            return definitions[0], node.value
    return None


def _is_none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"
