"""SC213 scheduler-before-optimizer: `scheduler.step()` reached before `optimizer.step()` in an iteration."""

from __future__ import annotations

import os

from dataclasses import replace

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.context import CallSite
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import children
from shapecheck.loops.training_loop import Event, TrainingLoop, training_loop
from shapecheck.loops.first_pass import runs_first_pass
from shapecheck.loops.schedules import checks_existence, over_stepped
from shapecheck.loops.surroundings import in_test, is_test_file

# detectron2's trainer in one file: it runs each hook's method by name around `run_step`; %s is the LR hook's
# `before_step` and `after_step`
_HOOKED_TRAINER = """
        import torch
        class LRScheduler:
            def __init__(self, scheduler):
                self._scheduler = scheduler
%s        class SimpleTrainer:
            def __init__(self, model, data, optimizer, hooks):
                self.model, self.data, self.optimizer, self._hooks = model, data, optimizer, list(hooks)
            def _call_hooks(self, event):
                for hook in self._hooks:
                    getattr(hook, event)()
            def run_step(self):
                self.optimizer.zero_grad()
                self.model(next(self.data)).backward()
                self.optimizer.step()
            def train(self, max_iter):
                for self.iter in range(max_iter):
                    self._call_hooks("before_step")
                    self.run_step()
                    self._call_hooks("after_step")
"""


# A runner counting its steps in `self.global_step` and running a hook before each batch that steps the schedule "at
# each epoch start" (`global_step % steps_per_epoch == 0`); %s: the test of the hook's step at the top of each epoch
# (never: `False`), %s: where the runner's count starts
_COUNTED_RUNNER = """
        import torch
        class EpochStartHook:
            def __init__(self, scheduler):
                self.scheduler = scheduler
            def before_batch(self, runner):
                if runner.global_step %% runner.steps_per_epoch == 0:
                    self.scheduler.step()
            def before_epoch(self, runner):
                if %s:
                    self.scheduler.step()
        class Runner:
            def __init__(self, net, loader, hooks, start_step=0):
                self.net, self.loader, self.hooks = net, loader, hooks
                self.optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
                self.global_step = %s
                self.steps_per_epoch = len(loader)
            def run(self, epochs):
                for self.epoch in range(epochs):
                    for hook in self.hooks:
                        hook.before_epoch(self)
                    for x, y in self.loader:
                        for hook in self.hooks:
                            hook.before_batch(self)
                        self.optimizer.zero_grad()
                        torch.nn.functional.cross_entropy(self.net(x), y).backward()
                        self.optimizer.step()
                        self.global_step += 1
"""


class SchedulerBeforeOptimizer(Rule):
    code = "SC213"
    name = "scheduler-before-optimizer"
    message = "`scheduler.step()` runs before `optimizer.step()`: the first value of the schedule is skipped"
    triggers = ("sched", "Sched", "LR(")
    triggered_through_imports = True  # a model class of an imported module may step the schedule (see Rule)
    docs = """
        ## What it does
        Finds a learning-rate scheduler's `scheduler.step()` that an iteration reaches before the optimizer's
        `optimizer.step()`: in the same loop body above it, or at the top of an epoch loop whose batch loop (or
        a helper it calls, such as `train_one_epoch(...)`, of the file or of a project module it imports, a
        package's `__init__` re-exporting it too) steps the optimizer. The scheduler step may
        itself sit in a helper or hook the loop calls (a trainer's `self.on_epoch_start()`, a method of a model
        class another module of the project defines, stepping each of its schedulers: `for scheduler in
        self.schedulers: scheduler.step()`), or in a callback the trainer runs on each of its callbacks there
        (`for cb in self.callbacks: cb.on_epoch_start(self)`, or detectron2's `self._call_hooks("before_step")`
        running `getattr(hook, name)()`; a callback class of this file or of the project modules beside it: its
        folder, its imports, and the imports of the script that builds the trainer), reported both at that call
        and in the callback, whose module needs no `import torch`, or above the optimizer step of a step helper
        the loop calls (`train_step(model, batch, optimizer, scheduler)`). A scheduler is what
        `torch.optim.lr_scheduler` (or a `*LR` / `*Scheduler` class) builds, or a name with `sched` in it; not an
        object of a class of the project (of the file or a module it imports) that torch's scheduler is no base of,
        built there or handed to the helper by every call (vq-vae-2's `CycleScheduler`, whose `step()` sets the rate
        of the coming update).

        A step under `if i % k == 0:` runs on the first pass, before any optimizer step, where `i` is 0 then:
        the index of `enumerate(loader)` or the target of `range(n)`, or a trainer's counter that its `__init__` sets
        to 0 and only `+=` changes after the call that runs the callback (`if trainer.iteration % n == 0:` in a
        hook's `pre_step(trainer)`, run as `hook.pre_step(self)`).

        Not reported: a step with arguments (`ReduceLROnPlateau.step(val_loss)`, a diffusion sampler's
        `scheduler.step(output, t, x)`), a step under an `if` inside the loop (warm-up code often steps the
        scheduler only from the second epoch on) unless the optimizer steps after it under the same `if`, itself or
        in a helper called there (the modulo `if` of gradient accumulation; `else: scheduler.step();
        train(model, loader, joint_optimizer)`, where the other branch's optimizer steps in other epochs; `if
        scheduler is not None:` only asks whether there is one), loops
        whose optimizer step is not in view (an imported
        training function), and tests.

        ## Why is this bad?
        Since PyTorch 1.1 the scheduler must step after the optimizer. PyTorch's documentation: "If you use the
        learning rate scheduler (calling `scheduler.step()`) before the optimizer's update (calling
        `optimizer.step()`), this will skip the first value of the learning rate schedule." PyTorch warns at run
        time: "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you
        should call them in the opposite order". The whole schedule is shifted by one epoch: warm-up starts late,
        step decays come early.

        ## Example
        ```python
        for epoch in range(epochs):
            scheduler.step()
            for x, y in loader:
                optimizer.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optimizer.step()
        ```

        ## Use instead
        ```python
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optimizer.step()
            scheduler.step()
        ```

        This rule has no fix: moving a statement across a loop changes more than the order of two calls.
    """
    VALID = [
        # A decay every k batches counted from 1 (`(j + 1) % k`, `enumerate(loader, 1)`): the optimizer has stepped
        # by then; a hook whose trainer's counter starts where a checkpoint left it, and one waiting for the
        # second epoch (the runner below, whose counter starts at `start_step`, with an epoch hook).
        """
        import torch
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1)
        for epoch in range(epochs):
            for i, (x, y) in enumerate(loader, 1):
                if i % steps_per_decay == 0:
                    scheduler.step()
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
            for j, (x, y) in enumerate(loader):
                if (j + 1) % steps_per_decay == 0:
                    scheduler.step()
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        """,
        _COUNTED_RUNNER % ("runner.global_step % runner.steps_per_epoch == 0 and runner.epoch > 0", "start_step"),
        # The same trainer with the hook stepping the schedule after the optimizer (`after_step`); the callbacks of
        # a registry's `.values()` run at the end of each epoch.
        _HOOKED_TRAINER % ("            def before_step(self):\n                pass\n"
                           "            def after_step(self):\n                self._scheduler.step()\n") + """
        class EpochSchedule:
            def __init__(self, scheduler):
                self.scheduler = scheduler
            def on_epoch_end(self, trainer):
                self.scheduler.step()
        class Trainer:
            def fit(self, epochs):
                for epoch in range(epochs):
                    for x, y in self.loader:
                        self.optimizer.zero_grad()
                        self.criterion(self.model(x), y).backward()
                        self.optimizer.step()
                    for callback in self.callbacks.values():
                        callback.on_epoch_end(self)
        """,
        # Gradient accumulation stepping both under one `if`, in the right order; a warm-up `if` of its own.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30)
        for epoch in range(epochs):
            if epoch > warmup:
                scheduler.step()
            for step, (x, y) in enumerate(loader):
                torch.nn.functional.cross_entropy(model(x), y).backward()
                if (step + 1) % accumulation == 0:
                    optimizer.step()
                    scheduler.step()
                    optimizer.zero_grad()
        """,
        # The step helper steps the schedule after the optimizer.
        """
        import torch
        def train_step(model, batch, optimizer, scheduler):
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(batch[0]), batch[1]).backward()
            optimizer.step()
            scheduler.step()
        for step in range(100):
            train_step(model, next(batches), optimizer, scheduler)
        """,
        # pytorch/examples mnist: the scheduler steps after each epoch's training.
        """
        import torch
        from torch.optim.lr_scheduler import StepLR
        scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
        for epoch in range(1, epochs + 1):
            train(args, model, device, train_loader, optimizer, epoch)
            test(model, device, test_loader)
            scheduler.step()
        """,
        # HF-style per-batch schedule after the optimizer step.
        """
        import torch
        for step, batch in enumerate(loader):
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
        """,
        # ReduceLROnPlateau steps on a metric; warm-up only from the second epoch on.
        """
        import torch
        for epoch in range(epochs):
            if epoch > 0:
                warmup_scheduler.step()
            plateau.step(val_loss)
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        """,
        # diffusers: the noise scheduler's step takes the model output.
        """
        import torch
        for t in noise_scheduler.timesteps:
            noise_pred = unet(latents, t).sample
            latents = noise_scheduler.step(noise_pred, t, latents).prev_sample
        """,
        # The training function is imported: the order inside it is not in view.
        """
        import torch
        from engine import train_one_epoch
        for epoch in range(epochs):
            scheduler.step()
            train_one_epoch(model, loader, optimizer)
        """,
        # A trainer's epoch-end hook, called after the batches.
        """
        import torch
        class Trainer:
            def __init__(self, model, batches):
                self.model, self.batches = model, batches
                self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
                self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=10)
            def on_epoch_end(self):
                self.scheduler.step()
            def fit(self, epochs):
                for epoch in range(epochs):
                    for x, y in self.batches:
                        self.optimizer.zero_grad()
                        criterion(self.model(x), y).backward()
                        self.optimizer.step()
                    self.on_epoch_end()
        """,

        # ProtoPNet's main.py after its fix: warm-up epochs train with their own optimizer; the joint epochs step
        # the schedule after the helper that steps the joint optimizer.
        """
        import torch
        def train(model, batches, optimizer):
            for x, y in batches:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
        joint_lr_scheduler = torch.optim.lr_scheduler.StepLR(joint_optimizer, step_size=5, gamma=0.1)
        for epoch in range(num_train_epochs):
            if epoch < num_warm_epochs:
                train(ppnet, train_loader, warm_optimizer)
            else:
                train(ppnet, train_loader, joint_optimizer)
                joint_lr_scheduler.step()
        """,
        # BasicSR's train.py after the fix of issue #206: the model steps its schedulers from the second iteration
        # on, so the call before `optimize_parameters` leaves the first value of the schedule to the first step.
        """
        import torch
        class SRModel:
            def __init__(self, net):
                self.net = net
                self.optimizer_g = torch.optim.Adam(net.parameters(), lr=2e-4)
                self.schedulers = [torch.optim.lr_scheduler.MultiStepLR(self.optimizer_g, [50, 80])]
            def update_learning_rate(self, current_iter):
                if current_iter > 1:
                    for scheduler in self.schedulers:
                        scheduler.step()
            def optimize_parameters(self, lq, gt):
                self.optimizer_g.zero_grad()
                torch.nn.functional.l1_loss(self.net(lq), gt).backward()
                self.optimizer_g.step()
        model = SRModel(net)
        for current_iter, (lq, gt) in enumerate(loader, 1):
            model.update_learning_rate(current_iter)
            model.optimize_parameters(lq, gt)
        """,
        # vq-vae-2's layout, with a hand-written schedule: its `step()` sets the rate of the coming update, so it
        # runs before the optimizer's.
        """
        import torch
        class WarmupCycle:
            def __init__(self, optimizer, lr_max, warmup):
                self.optimizer, self.lr_max, self.warmup, self.iteration = optimizer, lr_max, warmup, 0
            def step(self):
                self.iteration += 1
                for param_group in self.optimizer.param_groups:
                    param_group["lr"] = self.lr_max * min(1.0, self.iteration / self.warmup)
        def train(loader, model, optimizer, scheduler):
            for img, label in loader:
                model.zero_grad()
                torch.nn.functional.cross_entropy(model(img), label).backward()
                if scheduler is not None:
                    scheduler.step()
                optimizer.step()
        def main(args):
            optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
            scheduler = None
            if args.sched == "cycle":
                scheduler = WarmupCycle(optimizer, args.lr, warmup=500)
            for epoch in range(args.epoch):
                train(loader, model, optimizer, scheduler)
        """,
    ]
    INVALID = [
        # A hook stepping the schedule "at each epoch start", `global_step % steps_per_epoch == 0`: true on the
        # first pass, where the runner's counter is still 0 (padertorch's LR hook before its fix).
        _COUNTED_RUNNER % ("False", "0"),
        # A decay every k batches of `enumerate`, counted from 0: the first batch decays before any update.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
        for epoch in range(epochs):
            for it, batch in enumerate(train_loader):
                if it % decay_every == 0:
                    scheduler.step()
                optimizer.zero_grad()
                model(batch).mean().backward()
                optimizer.step()
        """,
        # detectron2's layout in one file: the trainer runs each hook's method by name, and the LR hook steps the
        # schedule in `before_step`, before `run_step` steps the optimizer.
        _HOOKED_TRAINER % ("            def before_step(self):\n                self._scheduler.step()\n"
                           "            def after_step(self):\n                pass\n"),
        # A model wrapper stepping each of its schedulers, called before it optimizes (BasicSR before #206).
        """
        import torch
        class GANModel:
            def __init__(self, g, d):
                self.g, self.d = g, d
                self.opt_g = torch.optim.Adam(g.parameters(), lr=1e-4)
                self.schedulers = {"g": torch.optim.lr_scheduler.StepLR(self.opt_g, 100)}
            def update_lr(self):
                for name, sched in self.schedulers.items():
                    sched.step()
            def optimize(self, z, real):
                self.opt_g.zero_grad()
                (-self.d(self.g(z)).mean()).backward()
                self.opt_g.step()
        model = GANModel(g, d)
        for z, real in loader:
            model.update_lr()
            model.optimize(z, real)
        """,
        # The schedule stepped in one branch before the helper that steps its optimizer there; the other
        # branches' steps run in other epochs.
        """
        import torch
        def fit_epoch(net, data, opt):
            for xb, yb in data:
                opt.zero_grad()
                torch.nn.functional.mse_loss(net(xb), yb).backward()
                opt.step()
        sched = torch.optim.lr_scheduler.ExponentialLR(main_opt, gamma=0.9)
        for epoch in range(20):
            if epoch < 2:
                fit_epoch(net, data, head_opt)
            else:
                sched.step()
                fit_epoch(net, data, main_opt)
        """,
        # pytorch-transformers-classification before its fix: both steps under the accumulation `if`, the
        # scheduler's first.
        """
        import torch
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
        for _ in range(epochs):
            for step, batch in enumerate(loader):
                model.train()
                loss = model(**batch)[0]
                loss.backward()
                if (step + 1) % accumulation == 0:
                    scheduler.step()
                    optimizer.step()
                    model.zero_grad()
        """,
        # BatsResearch/labelmodels: an optional scheduler stepped at the top of each epoch.
        """
        import torch
        def fit(model, batches, config):
            optimizer = torch.optim.SGD(model.parameters(), lr=config.step_size)
            scheduler = None
            if config.milestones:
                scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, config.milestones)
            for epoch in range(config.epochs):
                if scheduler is not None:
                    scheduler.step()
                for inputs in batches:
                    optimizer.zero_grad()
                    (-model(*inputs).mean()).backward()
                    optimizer.step()
        """,
        # A step helper called every iteration steps the schedule first.
        """
        import torch
        def train_step(model, batch, optimizer, scheduler):
            x, y = batch
            scheduler.step()
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=100)
        for step in range(100):
            train_step(model, next(batches), optimizer, scheduler)
        """,
        """
        import torch
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
        for epoch in range(epochs):
            scheduler.step()
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        """,
        # The order inside one iteration.
        """
        import torch
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            scheduler.step()
            optimizer.step()
        """,
        # The optimizer steps in a same-file helper the epoch loop calls after the scheduler.
        """
        import torch
        def train_epoch(model, loader, optimizer):
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        for epoch in range(epochs):
            lr_scheduler.step()
            train_epoch(model, train_loader, optimizer)
        """,
        # The same hook called at the start of each epoch.
        """
        import torch
        class Trainer:
            def __init__(self, model, batches):
                self.model, self.batches = model, batches
                self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
                self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=10)
            def on_epoch_start(self):
                self.scheduler.step()
            def fit(self, epochs):
                for epoch in range(epochs):
                    self.on_epoch_start()
                    for x, y in self.batches:
                        self.optimizer.zero_grad()
                        criterion(self.model(x), y).backward()
                        self.optimizer.step()
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._steps: list[Event] = []  # scheduler steps that could be reported
        # the branches of `if`s around a step that must also run an optimizer step after it (the modulo `if` of
        # gradient accumulation stepping both): decided in `finish()`, once the later steps are seen
        # (or that lets the first pass through, `if iteration % k == 0:` from 0, when the schedule has not stepped)
        self._sharing: dict[cst.CSTNode, list[tuple[cst.CSTNode, cst.If]]] = {}
        self._in_helpers: list[Event] = []  # ... and those of a function's body outside any loop

    def visit_Call(self, node: cst.Call) -> None:
        event = training_loop(self.ctx).event_at(node)
        if event is None or event.kind != "schedule" or in_test(self.ctx):
            return
        # The block the step runs in every time: its loop, or a helper's body (`def on_epoch_start(self):`); a loop
        # over the schedulers themselves (`for scheduler in self.schedulers: scheduler.step()`) steps each once.
        loops = event.loops
        while loops and over_stepped(loops[-1], node):
            loops = loops[:-1]
        block = loops[-1] if loops else event.function
        if block is None:
            return
        if loops != event.loops:
            event = replace(event, loops=loops)
        branches = []
        inner: cst.CSTNode = node
        for ancestor in reversed(self.ctx.ancestors):
            if ancestor is block:
                (self._steps if loops else self._in_helpers).append(event)
                self._sharing[node] = branches
                return
            if type(ancestor) is cst.IfExp:
                return
            # `if scheduler is not None:` asks only whether there is a scheduler; another `if` counts only when
            # the optimizer steps in the same branch after it
            if type(ancestor) is cst.If and not checks_existence(ancestor.test, event.subject):
                branches.append((inner, ancestor))
            inner = ancestor

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        training = training_loop(self.ctx)
        placed = [(event, event.order, event.loops, event.function) for event in self._steps if self._every(event)]
        # A helper's step runs where the helper is called: `self.on_epoch_start()` at the top of the epoch loop;
        # under an `if` of the helper's (`if current_iter > 1:`), on some calls only.
        for event in self._in_helpers:
            assert event.function is not None
            if not self._every(event):
                continue
            placed += [(event, site.order, training.enclosing(site.loop), site.function)
                       for site in self.ctx.calls_of(event.function)
                       if site.loop is not None and event.function in training.definitions_of(site.node)]
        # A helper of an imported module stepping the schedule on every call (BasicSR's
        # `model.update_learning_rate()`, a method of the model class `models.py` defines): placed at the call.
        for function, sites in training.local_calls().items():
            for site in sites:
                if site.loop is None:
                    continue
                placed += [(event, site.order, training.enclosing(site.loop), function)
                           for event in training.helper_events(site.node)
                           if event.kind == "schedule" and event.origin is not None and event.function is not None
                           and _every_call(event.function, event.origin)]
        reported: set[cst.CSTNode] = set()
        # A callback's step runs where the trainer of a module beside this one runs that method on each of its
        # callbacks (`for cb in self.callbacks: cb.on_epoch_start(self)`): reported here, where the fix goes.
        for event in self._in_helpers:
            assert event.function is not None
            if self._every(event):
                trainer = next((found for found in training.dispatched_at(event.function)
                                if _before_loop_step(*found)), None)
                if trainer is not None:
                    self._report(event, reported, trainer)
        for event, order, loops, function in placed:
            if training.handed_own_object(event):
                continue  # the project's own scheduler, whose `step()` may set the rate of the coming update
            if event.function is not function and self._before_own_step(event):
                # `train_step(...)` called in a loop, with `scheduler.step()` above its own `optimizer.step()`
                self._report(event, reported)
                continue
            # an optimizer step in the other branch of an `if` around the scheduler's runs in other iterations:
            # `if warm: train(warm_opt) else: sched.step(); train(joint_opt)` steps `joint_opt` after the schedule
            elsewhere = self._other_branches(event, function)
            for loop in reversed(loops):
                steps = [e.order for e in training.loop_events(loop, function)
                         if e.optimizer_step and e.order not in elsewhere]
                if not steps:
                    continue
                if order < min(steps):
                    self._report(event, reported)
                break

    def _every(self, event: Event) -> bool:
        """The step runs every time its block does, or the optimizer steps after it under each `if` around it, or
        the `if` lets the first pass through (where the first schedule step comes before the first optimizer
        step)."""
        training = training_loop(self.ctx)
        return all(self._steps_after(event, branch)
                   or branch is guard.body and runs_first_pass(training, guard.test, event.function, event.loops)
                   for branch, guard in self._sharing[event.node])

    def _report(self, event: Event, reported: set[cst.CSTNode],
                trainer: tuple[TrainingLoop, CallSite] | None = None) -> None:
        if event.node in reported:
            return
        reported.add(event.node)
        where = "in this loop" if trainer is None else f"in the loop of {os.path.basename(trainer[0].ctx.filename)} " \
                                                      f"that runs this callback (`{trainer[0].ctx.code(trainer[1].node)}`)"
        inside = f" (`{self.ctx.code(event.origin)}` inside)" if event.origin is not None else ""
        self.report(event.node, f"`{self.ctx.code(event.node)}`{inside} runs before the optimizer's `step()` {where}: "
                                "since PyTorch 1.1 the scheduler steps after the optimizer, and this order skips the "
                                "first value of the schedule; move it after `optimizer.step()`")

    def _steps_after(self, event: Event, branch: cst.CSTNode) -> bool:
        """An optimizer step runs in `branch` after the scheduler's step, its own or a same-file helper's it calls
        there (`sched.step(); train(model, batches, optimizer)`)."""
        return any(order > event.order for order in self._step_orders(branch, event.function))

    def _step_orders(self, branch: cst.CSTNode, function: cst.FunctionDef | None) -> set[int]:
        """The `order` of each optimizer step that runs in `branch` of `function`: its own, or the call of a helper
        whose body steps one."""
        training = training_loop(self.ctx)
        inside = {id(node) for node in self.ctx.walk(branch) if type(node) is cst.Call}
        orders = {other.order for other in training.in_function(function)
                  if other.optimizer_step and id(other.node) in inside}
        return orders | {site.order for site in training.local_calls().get(function, ())
                         if id(site.node) in inside and any(e.optimizer_step
                                                            for e in training.helper_events(site.node))}

    def _other_branches(self, event: Event, function: cst.FunctionDef | None) -> set[int]:
        """The `order` of the optimizer steps in the branches of the `if`s around `event` that it is not in."""
        orders: set[int] = set()
        if event.origin is not None:
            return orders  # an imported helper's `if`s: the steps of their branches are not this file's
        for guard, branch in event.guards:
            for other in (guard.body, guard.orelse):
                if other is not None and other is not branch:
                    orders |= self._step_orders(other, function)
        return orders

    def _before_own_step(self, event: Event) -> bool:
        """The helper's scheduler step comes before an optimizer step of the helper's own body (in its own file's
        record, for an imported helper's)."""
        assert event.function is not None
        training = training_loop(self.ctx)
        if event.origin is None:
            return any(other.optimizer_step and other.order > event.order
                       for other in training.in_function(event.function))
        events = training.owner_of(event.function).in_function(event.function)
        at = next((other.order for other in events if other.node is event.origin), None)
        return at is not None and any(other.optimizer_step and other.order > at for other in events)


def _before_loop_step(record: TrainingLoop, site: CallSite) -> bool:
    """The call `site` of `record`'s file comes before the optimizer steps of the innermost loop around it that
    steps one (the loop over the callbacks themselves steps none)."""
    for loop in reversed(record.enclosing(site.loop) if site.loop is not None else ()):
        steps = [event.order for event in record.loop_events(loop, site.function) if event.optimizer_step]
        if steps:
            return site.order < min(steps)
    return False


def _every_call(function: cst.FunctionDef, step: cst.CSTNode) -> bool:
    """The step runs on every call of `function`: nothing around it in the body but `with`, `try`, loops over the
    schedulers it steps and `if scheduler is not None:` (a helper of another module, whose record keeps its own
    `if`s only up to its innermost loop)."""
    path = _path(function.body, step)
    if path is None:
        return False
    subject = dotted_name(step.func.value)  # type: ignore[attr-defined]
    for outer, inner in zip(path, path[1:]):
        kind = type(outer)
        if kind is cst.For and outer.body is inner:  # type: ignore[attr-defined]
            if not over_stepped(outer, step):
                return False
        elif kind is cst.If:
            if outer.body is not inner or not checks_existence(outer.test, subject):  # type: ignore[attr-defined]
                return False
        elif kind in (cst.While, cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.FunctionDef, cst.Else):
            return False
    return True


def _path(root: cst.CSTNode, node: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `node`, both included; None when `node` is not in `root`."""
    if root is node:
        return [node]
    for child in children(root):
        found = _path(child, node)
        if found is not None:
            return [root, *found]
    return None
