"""SC215 sampler-without-set-epoch: a shuffling DistributedSampler reused across epochs without `set_epoch`."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.syntax import keyword_arg
from shapecheck.rules._training_loop import in_test, is_test_file


class SamplerWithoutSetEpoch(Rule):
    code = "SC215"
    name = "sampler-without-set-epoch"
    message = "a shuffling `DistributedSampler` is iterated every epoch without `sampler.set_epoch(epoch)`"
    triggers = ("DistributedSampler",)
    docs = """
        ## What it does
        Finds a loop over a `DataLoader` whose sampler is a `torch.utils.data.distributed.DistributedSampler`
        that shuffles (the default, or `shuffle=True`), nested in an epoch loop, in a file that never calls
        `set_epoch(...)`.

        Not reported: `shuffle=False` or a shuffle flag the file does not spell out, a sampler or loader built in
        another file, a loader iterated once (no loop around it), any file calling `set_epoch`, and tests.

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
    ]
    INVALID = [
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
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._found: list[cst.BaseExpression] = []

    def visit_For(self, node: cst.For) -> None:
        ctx = self.ctx
        if len(ctx.loops) < 2 or in_test(ctx):  # the loop itself is in ctx.loops: one more is the epoch loop
            return
        loader, before = ctx.value_of(node.iter)
        if type(loader) is not cst.Call or not (ctx.qualname(loader.func) or "").endswith(".DataLoader"):
            return
        sampler = keyword_arg(loader, "sampler")
        if sampler is None:
            return
        built, _ = ctx.value_of(sampler.value, before)
        if type(built) is not cst.Call or not (ctx.qualname(built.func) or "").endswith(".DistributedSampler"):
            return
        shuffle = keyword_arg(built, "shuffle")
        if shuffle is None or type(shuffle.value) is cst.Name and shuffle.value.value == "True":
            self._found.append(node.iter)

    def finish(self) -> None:
        if is_test_file(self.ctx) or self.ctx.calls_to("set_epoch"):
            return
        for node in self._found:
            self.report(node, f"`{self.ctx.code(node)}` draws from a shuffling `DistributedSampler` every epoch, but "
                              "nothing calls `set_epoch`: every epoch sees the same order; call "
                              "`sampler.set_epoch(epoch)` at the start of each epoch")
