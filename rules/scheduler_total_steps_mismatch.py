"""SC219 scheduler-total-steps-mismatch: a schedule sized in epochs stepped per batch, or the reverse."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.syntax import last_name
from shapecheck.loops.schedules import (Budget, handed_budgets, keeps_partial_batch, schedule_budget, stepping_unit,
                                        unpacked_budget)
from shapecheck.loops.surroundings import in_test, is_test_file
from shapecheck.loops.training_loop import Event, training_loop

_PER = {"batches": "once per batch", "epochs": "once per epoch"}


class SchedulerTotalStepsMismatch(Rule):
    code = "SC219"
    name = "scheduler-total-steps-mismatch"
    severity = "error"  # OneCycleLR raises once its budget is spent; the warm-up schedules silently end at 0
    message = "the schedule is sized in epochs but stepped once per batch, or the reverse"
    triggers = ("sched", "OneCycleLR")
    docs = """
        ## What it does
        Finds a learning-rate schedule whose length counts one unit while the loop steps it in another:
        `OneCycleLR(optimizer, max_lr, total_steps=epochs)` (or `epochs=E, steps_per_epoch=1`), or Hugging Face's
        `get_linear_schedule_with_warmup(optimizer, warmup, num_training_steps=args.epochs)` (also the cosine,
        polynomial and restart variants, and `get_scheduler`), stepped with `scheduler.step()` in the batch loop
        beside `optimizer.step()` (or in a method or helper of the file that the batch loop runs, a trainer's
        `self.train_step(x, y)`); and the reverse, a length of `epochs * len(loader)` (or `steps_per_epoch=
        len(loader)`) stepped once per epoch, after a batch loop (or a helper such as `train_one_epoch(...)`) that
        steps the optimizer. The schedule may be built where it is stepped, in a trainer's `__init__`
        (`self.scheduler`), handed to the helper that steps it (`def train_epoch(model, loader, optimizer,
        scheduler)`), or to a callback built with it (`SchedulerCallback(sched)` storing `self.scheduler`) whose
        method a trainer runs on each of its callbacks in its batch loop (`for cb in self.callbacks:
        cb.on_batch_end(self)`) or after it; the calls and constructions of this file or of a module importing it,
        the trainer of this file or of the modules beside it. The schedule may come from a factory of the file or
        of a project module it imports or calls through its module (`build_scheduler(optimizer, cfg)`,
        `schedulers.build(optimizer, args.epochs)` returning it, or unpacked from the pair one returns: `optimizer,
        scheduler = build_optim(model, cfg)`, also into a trainer's attributes), its length read with the count the
        call hands it
        (`total_steps=total_steps`) or a config entry (`cfg["epochs"]`). Also OneCycleLR given
        `epochs` without `steps_per_epoch`, which its constructor refuses, and OneCycleLR counting the batches of an
        epoch as `len(dataset) // batch_size` (`steps_per_epoch=`, or times the epochs in `total_steps`; also
        `int(len(dataset) / batch_size)`), stepped per batch over a `DataLoader` of that dataset and batch size that
        keeps the last, partial batch (no `drop_last=True`): an epoch has one batch more whenever the batch size
        does not divide the dataset, and the last epoch raises.

        Not reported: a length that is a plain number or a name that says nothing about epochs (`total_steps=
        num_training_steps`), a step under an `if` (other than `if scheduler is not None:`, or per batch the modulo
        `if` of gradient accumulation), a loop over a `range` or a `while` loop, and per-epoch schedules
        (`StepLR`, `CosineAnnealingLR`) whose length is not a step count.

        ## Why is this bad?
        OneCycleLR's length is a number of `step()` calls. PyTorch's documentation: "the total number of steps in
        the cycle" is `total_steps`, or "inferred by total_steps = epochs * steps_per_epoch", and "This scheduler
        is not chainable" ... "should be called after a batch has been used for training". Sized by epochs and
        stepped per batch, the cycle ends after the first few batches, and the next step raises "ValueError:
        Tried to step X times. The specified number of total steps is Y", after the time it took to get there.
        The warm-up schedules of Hugging Face do not raise: the rate reaches 0 after `num_training_steps` steps
        and stays there, so training stops learning in the first epoch. The reverse never leaves the warm-up or
        never anneals: `epochs * len(loader)` steps taken once per epoch cover a sliver of the schedule.

        ## Example
        ```python
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, total_steps=args.epochs)
        for epoch in range(args.epochs):
            for x, y in loader:
                optimizer.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optimizer.step()
                scheduler.step()
        ```

        ## Use instead
        ```python
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, epochs=args.epochs,
                                                        steps_per_epoch=len(loader))
        for epoch in range(args.epochs):
            for x, y in loader:
                optimizer.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optimizer.step()
                scheduler.step()
        ```

        This rule has no fix: whether the length or the place of the step is wrong is the author's choice.
    """
    VALID = [
        # The fast.ai / timm layout: sized by the batches of every epoch and stepped per batch.
        """
        import torch
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr, epochs=epochs, steps_per_epoch=len(train_dl))
        for epoch in range(epochs):
            for xb, yb in train_dl:
                loss = loss_func(model(xb), yb)
                loss.backward()
                opt.step()
                sched.step()
                opt.zero_grad()
        """,
        # Hugging Face's run_glue layout: the total over the accumulation steps, stepped under the modulo `if`.
        """
        from transformers import get_linear_schedule_with_warmup
        t_total = len(train_dataloader) // args.gradient_accumulation_steps * args.num_train_epochs
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=args.warmup_steps,
                                                    num_training_steps=t_total)
        for _ in range(int(args.num_train_epochs)):
            for step, batch in enumerate(train_dataloader):
                loss = model(**batch)[0] / args.gradient_accumulation_steps
                loss.backward()
                if (step + 1) % args.gradient_accumulation_steps == 0:
                    optimizer.step()
                    scheduler.step()
                    model.zero_grad()
        """,
        # OneCycleLR sized by epochs and stepped once per epoch, after the epoch's batches.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=args.epochs)
        for epoch in range(args.epochs):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
            scheduler.step()
        """,
        # A per-epoch StepLR: its step_size counts epochs, stepped after a helper's batch loop.
        """
        import torch
        def train_one_epoch(model, loader, optimizer):
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args.epochs // 3)
        for epoch in range(args.epochs):
            train_one_epoch(model, loader, optimizer)
            scheduler.step()
        """,
        # A trainer sizing the cycle by the step count it is given, whatever it is called.
        """
        import torch
        class Trainer:
            def __init__(self, model, loader, num_training_steps):
                self.model, self.loader = model, loader
                self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
                self.scheduler = torch.optim.lr_scheduler.OneCycleLR(self.optimizer, 1e-3,
                                                                     total_steps=num_training_steps)
            def fit(self, epochs):
                for epoch in range(epochs):
                    for batch in self.loader:
                        self.optimizer.zero_grad()
                        self.model(batch).mean().backward()
                        self.optimizer.step()
                        self.scheduler.step()
        """,
        # Full-batch training: the epoch loop steps the optimizer itself, once per epoch.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, total_steps=n_epochs)
        for epoch in range(n_epochs):
            optimizer.zero_grad()
            loss = criterion(model(features, adj), labels)
            loss.backward()
            optimizer.step()
            scheduler.step()
        """,
        # The step once per epoch on the last batch only: under an `if`, its count is not read.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, total_steps=epochs)
        for epoch in range(epochs):
            for i, (x, y) in enumerate(loader):
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
                if i == len(loader) - 1:
                    scheduler.step()
        """,
        # Callbacks stepping the schedules in the unit they are sized in: per batch the batches of every epoch, per
        # epoch the epoch count.
        """
        import torch
        class BatchSchedule:
            def __init__(self, scheduler):
                self.scheduler = scheduler
            def on_batch_end(self, trainer):
                self.scheduler.step()
        class EpochSchedule:
            def __init__(self, scheduler):
                self.scheduler = scheduler
            def on_epoch_end(self, trainer):
                self.scheduler.step()
        class Trainer:
            def __init__(self, model, optimizer, callbacks):
                self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
            def fit(self, loader, epochs):
                for epoch in range(epochs):
                    for x, y in loader:
                        self.optimizer.zero_grad()
                        torch.nn.functional.mse_loss(self.model(x), y).backward()
                        self.optimizer.step()
                        for cb in self.callbacks:
                            cb.on_batch_end(self)
                    for cb in self.callbacks:
                        cb.on_epoch_end(self)
        def main(model, loader, epochs):
            optimizer = torch.optim.Adam(model.parameters())
            per_batch = torch.optim.lr_scheduler.OneCycleLR(optimizer, 1e-3, total_steps=epochs * len(loader))
            per_epoch = torch.optim.lr_scheduler.OneCycleLR(optimizer, 1e-3, total_steps=epochs)
            Trainer(model, optimizer, [BatchSchedule(per_batch), EpochSchedule(per_epoch)]).fit(loader, epochs)
        """,
        # A project's own `OneCycleLR`, with a signature of its own.
        """
        import torch
        class OneCycleLR:
            def __init__(self, optimizer, lr, epochs, steps_per_epoch=None):
                self.optimizer, self.lr, self.epochs = optimizer, lr, epochs
            def step(self):
                pass
        sched = OneCycleLR(optimizer, 0.1, epochs=n_epochs)
        for epoch in range(n_epochs):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
                sched.step()
        """,
    ]
    INVALID = [
        """
        import torch
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, total_steps=args.epochs)
        for epoch in range(args.epochs):
            for x, y in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
                scheduler.step()
        """,
        # A trainer building the cycle from its config's epoch count, stepped per batch of its loader.
        """
        import torch
        class SegTrainer:
            def __init__(self, cfg, net, train_loader):
                self.net, self.train_loader, self.cfg = net, train_loader, cfg
                self.optim = torch.optim.SGD(net.parameters(), lr=cfg.lr, momentum=0.9)
                self.lr_sched = torch.optim.lr_scheduler.OneCycleLR(self.optim, cfg.lr, epochs=cfg.max_epoch,
                                                                    steps_per_epoch=1)
            def train(self):
                for epoch in range(self.cfg.max_epoch):
                    for step, (img, mask) in enumerate(self.train_loader):
                        loss = torch.nn.functional.cross_entropy(self.net(img), mask)
                        self.optim.zero_grad()
                        loss.backward()
                        self.optim.step()
                        self.lr_sched.step()
        """,
        # Hugging Face's warm-up schedule sized by the epoch count, stepped by a helper's batch loop it is handed.
        """
        from transformers import get_linear_schedule_with_warmup
        def run_epoch(model, dataloader, optimizer, scheduler):
            for batch in dataloader:
                outputs = model(**batch)
                outputs.loss.backward()
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
        def main(args):
            scheduler = get_linear_schedule_with_warmup(optimizer, args.warmup, args.num_train_epochs)
            for epoch in range(args.num_train_epochs):
                run_epoch(model, train_dataloader, optimizer, scheduler)
        """,
        # The reverse: the batches of every epoch, stepped once per epoch after the helper's batch loop.
        """
        import torch
        def train_epoch(model, loader, optimizer):
            for images, labels in loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(images), labels).backward()
                optimizer.step()
        total_steps = args.epochs * len(train_loader)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr, total_steps=total_steps)
        for epoch in range(args.epochs):
            train_epoch(model, train_loader, optimizer)
            scheduler.step()
        """,
        # A callback holding a schedule sized by the epochs, run by the trainer after each batch's step.
        """
        import torch
        class LRSchedulerCallback:
            def __init__(self, lr_scheduler):
                self.lr_scheduler = lr_scheduler
            def after_batch(self, learner):
                self.lr_scheduler.step()
        class Learner:
            def __init__(self, net, opt, cbs):
                self.net, self.opt, self.cbs = net, opt, cbs
            def fit(self, n_epoch, dl):
                for epoch in range(n_epoch):
                    for xb, yb in dl:
                        self.opt.zero_grad()
                        torch.nn.functional.cross_entropy(self.net(xb), yb).backward()
                        self.opt.step()
                        for cb in self.cbs:
                            cb.after_batch(self)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, epochs=n_epoch, steps_per_epoch=1)
        Learner(net, opt, [LRSchedulerCallback(sched)]).fit(n_epoch, train_dl)
        """,
        # OneCycleLR told the epochs without the batches of each: its constructor raises.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-3, epochs=num_epochs)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # each step with its schedule's budget, or what it steps where that is handed over (a parameter, `self.`)
        self._steps: list[tuple[Event, Budget | cst.BaseExpression]] = []

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        budget = schedule_budget(ctx, node) if last_name(node.func) == "OneCycleLR" else None
        if budget is not None and budget.incomplete:
            self.report(budget.node, f"`{ctx.code(node.func)}` is given `epochs` without `steps_per_epoch`: "
                                     "OneCycleLR needs both (or `total_steps`), and raises here")
            return
        event = training_loop(ctx).event_at(node)
        if event is None or event.kind != "schedule" or in_test(ctx):
            return
        receiver = node.func.value  # type: ignore[attr-defined]  # a schedule event is a `.step()` call
        value, before = ctx.receiver_value_of(receiver)
        # unpacked from the tuple a factory returns (`optimizer, scheduler = build_optim(...)`), or built here
        budget = unpacked_budget(ctx, receiver)
        if budget is None and type(value) is cst.Call:
            budget = schedule_budget(ctx, value, before)
        if budget is not None:
            self._steps.append((event, budget))
        elif type(value) is not cst.Call and event.function is not None:
            # handed over: a parameter, or `self.scheduler` a callback's `__init__` stores; read in `finish()`
            self._steps.append((event, receiver))

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        training = training_loop(self.ctx)
        for event, given in self._steps:
            unit = stepping_unit(training, event)
            if unit is None:
                continue
            if not isinstance(given, Budget):
                assert event.function is not None
                budgets = handed_budgets(self.ctx, event.function, given)
                budget = next((budget for budget in budgets if budget.unit not in (None, unit)), None)
            else:
                budget = given if given.unit not in (None, unit) else None
                if unit == given.unit == "batches" and given.floored is not None and event.loops \
                        and keeps_partial_batch(self.ctx, event.loops[-1], given.floored):
                    dataset, batch_size = given.floored
                    self.report(event.node, f"`{self.ctx.code(event.node)}` runs once per batch, but OneCycleLR "
                                            f"counts the batches of an epoch as `len({dataset})` over `{batch_size}` "
                                            "rounded down while the loader keeps the last, partial one: one step "
                                            "more each epoch, and it raises in the last epoch; size it with "
                                            "`len(loader)`, or pass `drop_last=True`")
            if budget is not None:
                self._report(event, budget, unit)

    def _report(self, event: Event, budget: Budget, unit: str) -> None:
        sized = "a number of epochs" if budget.unit == "epochs" else "the batches of every epoch"
        self.report(event.node, f"`{self.ctx.code(event.node)}` runs {_PER[unit]}, but the schedule's length "
                                f"`{self.ctx.code(budget.node)}` counts {sized}: "
                                + ("OneCycleLR raises once those steps are spent, and a warm-up schedule stays at 0 "
                                   "after them; size it `epochs * len(loader)`" if unit == "batches" else
                                   "it takes one of them per epoch and never gets far past its start; step it "
                                   "per batch, or size it in epochs"))
