"""SC206 stuck-in-eval: a training loop that switches its model to eval mode and never back to train mode."""

from __future__ import annotations

import re

import libcst as cst

from shapecheck.engine import CallSite, Context, Rule
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk
from shapecheck.loops.training_loop import TRAINING, Event, called_module, related, training_loop
from shapecheck.loops.surroundings import is_test_file

# A call to a function this file does not define that plausibly calls `model.train()` itself: `train_epoch(...)`,
# `trainer.train_one_epoch()`, `self.fit(...)` from a base class. The loop is then given the benefit of the doubt.
_MAY_TRAIN = re.compile(r"train|(?:^|_)fit(?:$|_)", re.IGNORECASE)


class StuckInEval(Rule):
    code = "SC206"
    name = "stuck-in-eval"
    severity = "error"  # dropout and batch norm stay in eval mode: training silently goes wrong
    message = "this training loop puts the model in eval mode and never back in train mode"
    # "train": the switch may be in a helper of another of the project's modules, called from a file that only
    # names a trainer, a loader or `model.train()`
    triggers = (".eval(", ".train(False", ".train(mode=False", "train")
    docs = """
        ## What it does
        Finds a training loop (it steps an optimizer, directly or in a helper; `backward()` alone, as in a
        gradient plot, is no training) that switches a model it trains to eval mode (`model.eval()` or
        `model.train(False)`, directly or in a helper such as `evaluate(model, val_loader)`) but never calls
        `model.train()` inside the loop. Typically the epoch loop validates at its end and `model.train()` was
        called once, before the loop.

        Helpers defined in the same file are followed two calls deep, for both the switch to eval and the switch
        back; so are those the project's own modules define and the file imports (`from utils import evaluate`,
        `trainer.evaluate()` with `from trainer import Trainer`). A call to a function this file neither defines
        nor imports from the project whose name says it trains (`train_one_epoch(...)`, `trainer.fit()`) may
        switch back itself, so the loop is not reported. A model that the loop does not
        train is not reported either: the loop must run it with autograd on (itself or in a helper) or hand it to
        a helper that trains, and the optimizers it steps, when their construction is in view, must hold its
        parameters (an EMA copy, a frozen teacher or a target network only run under `no_grad` stay quiet).
        `model.train(was_training)` counts as switching back. A loop whose training helper switches to eval
        itself and then steps (a linear probe keeping a frozen backbone's batch norm statistics) trains in eval
        mode on purpose and is not reported. A switch on the last batch (`if i == len(batches) - 1:`, `i` the
        batch loop's counter) leaves no later batch of that loop to train: the loops around it decide. Test files
        are not checked.

        ## Why is this bad?
        Every epoch after the first then trains with dropout off and batch norm using (and no longer updating)
        its running statistics: the model silently trains worse, and validation numbers stop matching. The
        primer: "Always call model.train() before training and model.eval() before evaluation. These toggle
        behaviors of layers like Dropout and BatchNorm."

        ## Example
        ```python
        model.train()
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optimizer.step()
            evaluate(model, val_loader)  # calls model.eval()
        ```

        ## Use instead
        ```python
        for epoch in range(epochs):
            model.train()
            for x, y in train_loader:
                optimizer.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optimizer.step()
            evaluate(model, val_loader)
        ```

        This rule has no fix: `model.train()` belongs where the training part of the iteration starts.
    """
    VALID = [
        # End-of-epoch validation on the last batch (t81-558's early stopping): no later batch of the inner loop
        # trains, and the epoch loop switches back to train mode.
        """
        import torch


        def fit(model, loader, x_val, y_val, loss_fn, optimizer, epochs):
            for epoch in range(epochs):
                model.train()
                batches = list(enumerate(loader))
                for i, (xb, yb) in batches:
                    optimizer.zero_grad()
                    loss = loss_fn(model(xb), yb)
                    loss.backward()
                    optimizer.step()
                    if i == len(batches) - 1:
                        model.eval()
                        with torch.no_grad():
                            val_loss = loss_fn(model(x_val), y_val)
                        print(epoch, loss.item(), val_loss.item())
        """,
        # Curt-Park/rainbow-is-all-you-need: the action helper switches to eval only when testing
        """
        import torch
        class DQNAgent:
            def __init__(self, dqn, optimizer):
                self.dqn, self.optimizer, self.is_test = dqn, optimizer, False
            def select_action(self, state):
                if self.is_test:
                    self.dqn.eval()
                return self.dqn(torch.as_tensor(state)).argmax()
            def train(self, states, targets):
                for state, target in zip(states, targets):
                    action = self.select_action(state)
                    loss = (self.dqn(torch.as_tensor(state))[action] - target) ** 2
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
        """,
        # pytorch/examples imagenet: train() and validate() helpers each set their mode.
        """
        import torch
        def train(loader, model, criterion, optimizer):
            model.train()
            for images, target in loader:
                loss = criterion(model(images), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        def validate(loader, model):
            model.eval()
            with torch.no_grad():
                for images, target in loader:
                    model(images)
        for epoch in range(epochs):
            train(train_loader, model, criterion, optimizer)
            validate(val_loader, model)
        """,
        # nanoGPT: estimate_loss() switches back itself.
        """
        import torch
        @torch.no_grad()
        def estimate_loss():
            model.eval()
            for k in range(eval_iters):
                logits, loss = model(X, Y)
            model.train()
        while True:
            if iter_num % eval_interval == 0:
                losses = estimate_loss()
            logits, loss = model(X, Y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        """,
        # demucs's solver: one epoch helper steps only under `if train:`; validating each averaged copy of the
        # weights calls it with `train=False`, so that inner loop steps nothing, and the epoch loop switches back.
        """
        import torch
        class Solver:
            def _prepare(self):
                self.model.eval()
            def _epoch(self, loader, train=True):
                if not train:
                    self._prepare()
                for batch in loader:
                    loss = self.model(batch).mean()
                    if train:
                        loss.backward()
                        self.optimizer.step()
                        self.optimizer.zero_grad()
            def fit(self, epochs):
                for epoch in range(epochs):
                    self.model.train()
                    self._epoch(self.train_loader)
                    with torch.no_grad():
                        for average in self.averages:
                            with average.swap():
                                self._epoch(self.valid_loader, train=False)
        """,
        # train() at the top of each epoch.
        """
        import torch
        for epoch in range(epochs):
            model.train()
            for x, y in train_loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
            model.eval()
            with torch.no_grad():
                val_loss = sum(criterion(model(x), y).item() for x, y in val_loader)
        """,
        # DQN: the target network is only run under no_grad, never trained.
        """
        import torch
        for episode in range(episodes):
            with torch.no_grad():
                next_q = target_net(next_state).max(1).values
            loss = criterion(policy_net(state), reward + gamma * next_q)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if episode % sync_every == 0:
                target_net.load_state_dict(policy_net.state_dict())
                target_net.eval()
        """,
        # Training delegated to an imported helper that sets train mode itself.
        """
        import torch
        from engine import train_one_epoch
        for epoch in range(epochs):
            train_one_epoch(model, criterion, train_loader, optimizer)
            model.eval()
            with torch.no_grad():
                evaluate(model, val_loader)
        """,
        # Restoring the previous mode through a variable counts as switching back.
        """
        import torch
        for step, batch in enumerate(loader):
            loss = model(batch).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step % 100 == 0:
                was_training = model.training
                model.eval()
                with torch.no_grad():
                    sample = model(fixed_noise)
                model.train(was_training)
        """,
        # pytorch/examples fast_neural_style: back to train mode through `.to(device).train()`.
        """
        import torch
        for e in range(epochs):
            transformer.train()
            for batch_id, (x, _) in enumerate(train_loader):
                optimizer.zero_grad()
                total_loss = loss_fn(transformer(x))
                total_loss.backward()
                optimizer.step()
                if (batch_id + 1) % checkpoint_interval == 0:
                    transformer.eval().cpu()
                    torch.save(transformer.state_dict(), path)
                    transformer.to(device).train()
        """,
        # pyro's tests: the helper's own local `transform` is not the caller's.
        """
        import torch
        def make_batchnorm(dim):
            transform = BatchNorm(dim)
            transform.eval()
            return transform
        def check_transform(factory):
            for shape in [(2,), (5,)]:
                transform = factory(shape[0])
                loss = transform(torch.rand(shape)).sum()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
                other = make_batchnorm(shape[0])
        """,
        # Mean teacher: the EMA copy runs with autograd on but the optimizer only trains the student.
        """
        import torch
        optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
        student.train()
        for epoch in range(epochs):
            teacher.eval()
            for x, y in loader:
                consistency = F.mse_loss(student(x), teacher(x).detach())
                optimizer.zero_grad()
                consistency.backward()
                optimizer.step()
                update_ema(teacher, student)
        """,
        # UvA-DL notebook: a fresh network per iteration, switched to eval to plot its gradients; nothing steps.
        """
        import torch
        def visualize_gradients(net):
            net.eval()
            loss = F.cross_entropy(net(imgs), labels)
            loss.backward()
        for i, act_fn_name in enumerate(act_fn_by_name):
            net_actfn = BaseNetwork(act_fn=act_fn_by_name[act_fn_name]()).to(device)
            visualize_gradients(net_actfn)
        """,
        # Freezing batch norm inside the loop on purpose: the BN layers are not what the loop calls.
        """
        import torch
        for x, y in loader:
            model.train()
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        """,
        # Adversarial training (Person_reID's ODFA): the attack switches a copy of the model to eval mode, and the
        # model the loop trains stays in train mode.
        """
        from copy import deepcopy
        import torch.nn as nn
        def ODFA(model, img, rate=16):
            model = deepcopy(model)
            model.eval()
            inputs = img.clone().requires_grad_(True)
            model(inputs).norm().backward()
            return (img - inputs.grad.sign() * rate).detach()
        model.train()
        for epoch in range(epochs):
            for inputs, labels in loader:
                optimizer.zero_grad()
                outputs = model(inputs)
                inputs_adv = ODFA(model, inputs)
                loss = nn.functional.cross_entropy(outputs, labels) + nn.functional.cross_entropy(model(inputs_adv), labels)
                loss.backward()
                optimizer.step()
        """,
        # A linear probe: the training helper switches the frozen backbone to eval on purpose, then trains.
        """
        import torch
        def train(loader, model, criterion, optimizer):
            model.eval()
            for images, target in loader:
                loss = criterion(model(images), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        def validate(loader, model, criterion):
            model.eval()
            with torch.no_grad():
                return sum(criterion(model(x), y).item() for x, y in loader)
        def main(model, criterion, optimizer, train_loader, val_loader, epochs):
            for epoch in range(epochs):
                train(train_loader, model, criterion, optimizer)
                validate(val_loader, model, criterion)
        """,
        # ogigo/semantic_segmentation_drone_: validation in the `else:` of the batch loop, which runs once after the
        # last batch; `model.train()` opens every epoch.
        """
        import torch
        def fit(epochs, model, train_loader, val_loader, criterion, optimizer):
            for e in range(epochs):
                model.train()
                for image, mask in train_loader:
                    loss = criterion(model(image), mask)
                    loss.backward()
                    optimizer.step()
                    optimizer.zero_grad()
                else:
                    model.eval()
                    with torch.no_grad():
                        val_loss = sum(criterion(model(image), mask).item() for image, mask in val_loader)
        """,
    ]
    INVALID = [
        # Validation on the last batch, but train mode is set once before the epochs: the next epoch trains in eval
        # mode.
        """
        import torch


        def fit(model, loader, x_val, y_val, loss_fn, optimizer, epochs):
            model.train()
            for epoch in range(epochs):
                for i, (xb, yb) in enumerate(loader):
                    optimizer.zero_grad()
                    loss = loss_fn(model(xb), yb)
                    loss.backward()
                    optimizer.step()
                    if i + 1 == len(loader):
                        model.eval()
                        with torch.no_grad():
                            val_loss = loss_fn(model(x_val), y_val)
                        print(epoch, loss.item(), val_loss.item())
        """,
        """
        import torch
        model.train()
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
            model.eval()
            with torch.no_grad():
                val_loss = sum(criterion(model(x), y).item() for x, y in val_loader)
        """,
        """
        import torch
        def evaluate(net, loader):
            net.eval()
            with torch.no_grad():
                return sum((net(x).argmax(1) == y).sum().item() for x, y in loader)
        def fit(model, optimizer, train_loader, val_loader, epochs):
            model.train()
            for epoch in range(epochs):
                for x, y in train_loader:
                    optimizer.zero_grad()
                    criterion(model(x), y).backward()
                    optimizer.step()
                print(evaluate(model, val_loader))
        """,
        # A trainer class: the model runs in a training_step helper, validation switches it to eval mode.
        """
        import torch
        class Trainer:
            def training_step(self, batch):
                x, y = batch
                return self.criterion(self.model(x), y)
            @torch.no_grad()
            def validate(self):
                self.model.eval()
                return sum(self.criterion(self.model(x), y).item() for x, y in self.val_loader)
            def fit(self, epochs):
                self.model.train()
                for epoch in range(epochs):
                    for batch in self.train_loader:
                        loss = self.training_step(batch)
                        self.optimizer.zero_grad()
                        loss.backward()
                        self.optimizer.step()
                    self.validate()
        """,
        # Sampling from the generator every few iterations leaves it in eval mode.
        """
        import torch
        for i, (real, _) in enumerate(dataloader):
            optimizer_G.zero_grad()
            g_loss = adversarial_loss(discriminator(generator(z)), valid)
            g_loss.backward()
            optimizer_G.step()
            if i % sample_interval == 0:
                generator.train(False)
                with torch.no_grad():
                    save_image(generator(fixed_z), f"images/{i}.png")
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._may_train_sites: list[CallSite] | None = None
        self._runs_with_grad: list[tuple[CallSite, str]] | None = None

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return  # a test trains a few steps to check something else; the mode it trains in rarely matters
        facts = training_loop(self.ctx)
        reported: set[cst.CSTNode] = set()
        for event in facts.events:
            if event.kind == "eval" and event.loops:
                # on the innermost loop's last iteration no later iteration of it trains: the loops around decide
                loops = event.loops[:-1] if _on_last_iteration(self.ctx, event.node, event.loops[-1]) else event.loops
                self._check(event.node, event.subject, loops, event.function, False, reported)
        switches: list[tuple[CallSite, cst.CSTNode, str, Event]] = []
        for sites in facts.local_calls().values():
            for site in sites:
                if site.loop is not None:
                    # a helper's switch under an `if` (`if self.is_test: self.dqn.eval()`) is not known to run
                    switches += [(site, site.loop, event.subject, event) for event in facts.helper_events(site.node)
                                 if event.kind == "eval" and event.subject is not None and not event.guards]
        for site, loop, _, event in switches:
            if _trains_after(facts.helper_events(site.node), event):
                # the helper switches to eval and then trains, on purpose (a linear probe of frozen features): the
                # loop trains in the mode its helper chose, whatever else switches it
                reported.update(facts.enclosing(loop))
        for site, loop, model, _ in switches:
            loops = facts.enclosing(loop)
            if _on_last_iteration(self.ctx, site.node, loop):
                loops = loops[:-1]
            self._check(site.node, model, loops, site.function, True, reported)

    def _check(self, node: cst.CSTNode, model: str, loops: tuple[cst.CSTNode, ...], function: cst.FunctionDef | None,
               via_helper: bool, reported: set[cst.CSTNode]) -> None:
        """Report the switch to eval at `node` if the innermost loop around it that trains never switches back."""
        for loop in reversed(loops):
            activity = self._activity(loop, function)
            if "step" not in activity:  # backward() alone is no training: gradient plots, saliency, checks
                continue
            if "train" in activity or loop in reported or not self._trains(model, loop, function):
                return
            reported.add(loop)
            if via_helper:
                what = f"`{self.ctx.code(node)}` switches `{model}` to eval mode and this training loop"
            else:
                what = f"`{self.ctx.code(node)}` inside this training loop"
            self.report(node, f"{what} never switches back: the following iterations train with dropout and batch "
                              f"norm in eval mode; call `{model}.train()` where the training part of the loop starts")
            return

    def _activity(self, loop: cst.CSTNode, function: cst.FunctionDef | None) -> set[str]:
        """The kinds of events in the loop, directly or through same-file helpers; "train" too when the loop calls
        an unknown function that may switch to train mode."""
        kinds: set[str] = {event.kind for event in training_loop(self.ctx).in_loop(loop)}
        for site in training_loop(self.ctx).local_calls_in(loop, function):
            kinds.update(event.kind for event in training_loop(self.ctx).helper_events(site.node))
        if "train" not in kinds and any(site.function is function and training_loop(self.ctx).site_within(site, loop)
                                        for site in self._may_train()):
            kinds.add("train")
        return kinds

    def _may_train(self) -> list[CallSite]:
        """Calls of functions this file neither defines nor imports from the project whose names say they train."""
        if self._may_train_sites is None:
            switches = {event.node for event in training_loop(self.ctx).events if event.kind == "eval" or event.kind == "train"}
            known = training_loop(self.ctx).imported_helpers()
            self._may_train_sites = [site for name, sites in self.ctx.calls.items()
                                     if name not in self.ctx.functions and name not in known and _MAY_TRAIN.search(name)
                                     for site in sites if site.node not in switches]
        return self._may_train_sites

    def _trains(self, model: str, loop: cst.CSTNode, function: cst.FunctionDef | None) -> bool:
        """The loop runs `model` with autograd on, itself or in a helper it calls, or hands it to a helper that
        trains; and the optimizers it steps, where their parameters can be told, include the model's."""
        steps = [event for event in training_loop(self.ctx).in_loop(loop) if event.kind == "step"]
        if steps and all(step.owners for step in steps) and not any(
                related(model, owner) for step in steps for owner in step.owners or ()):
            return False  # an EMA copy, a teacher, a target network: the optimizer does not train it
        runs = self._runs()
        if any(site.function is function and training_loop(self.ctx).site_within(site, loop) and callee == model
               for site, callee in runs):
            return True
        for helper in training_loop(self.ctx).local_calls_in(loop, function):
            call = helper.node
            if any(training_loop(self.ctx).caller_spelling(callee, definition, call) == model
                   for definition in training_loop(self.ctx).helpers_of(call)
                   for _, callee in training_loop(self.ctx).runs_in(definition)):
                return True
            passed = any(dotted_name(arg.value) == model for arg in call.args) or model.startswith("self.")
            if passed and any(event.kind in TRAINING for event in training_loop(self.ctx).helper_events(call)):
                return True
        return False

    def _runs(self) -> list[tuple[CallSite, str]]:
        """Calls of a module by name with autograd on (`model(x)`, `self.net.forward(x)`), with the module's
        spelling."""
        if self._runs_with_grad is None:
            self._runs_with_grad = []
            for sites in self.ctx.calls.values():
                for site in sites:
                    callee = called_module(site.node)
                    if callee is not None and not site.grad_disabled:
                        self._runs_with_grad.append((site, callee))
        return self._runs_with_grad


def _trains_after(events: list[Event], switch: Event) -> bool:
    """A step follows the switch in the function that makes it."""
    return any(event.kind == "step" and event.function is switch.function and event.order > switch.order
               for event in events)


def _on_last_iteration(ctx: Context, node: cst.CSTNode, loop: cst.CSTNode) -> bool:
    """`node` runs under `if i == len(steps) - 1:` (or `i + 1 == len(loader)`) with `i` a target of `loop`:
    end-of-epoch validation on the last batch, after which no iteration of `loop` trains."""
    if type(loop) is not cst.For:
        return False
    counters = {name.value for name in walk(loop.target) if type(name) is cst.Name}
    return any(type(guard) is cst.If and _is_last(guard.test, counters)
               and any(inner is node for inner in ctx.walk(guard.body)) for guard in ctx.walk(loop.body))


def _is_last(test: cst.BaseExpression, counters: set[str]) -> bool:
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) is not cst.Equal:
        return False
    sides = (test.left, test.comparisons[0].comparator)
    for index, length in (sides, sides[::-1]):
        if type(length) is cst.BinaryOperation and type(length.operator) is cst.Subtract and _is_one(length.right):
            length = length.left
        elif type(index) is cst.BinaryOperation and type(index.operator) is cst.Add and _is_one(index.right):
            index = index.left
        else:
            continue
        if type(index) is cst.Name and index.value in counters and type(length) is cst.Call \
                and type(length.func) is cst.Name and length.func.value == "len":
            return True
    return False

def _is_one(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Integer and expr.value == "1"
