"""SC218 accumulation-reset-every-step: gradient accumulation whose `zero_grad()` runs on every micro-batch."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.loops.training_loop import Event, TrainingLoop, is_step_call, training_loop
from shapecheck.loops.surroundings import is_test_file


class AccumulationResetEveryStep(Rule):
    code = "SC218"
    name = "accumulation-reset-every-step"
    severity = "error"  # each step applies only the last micro-batch's gradient
    message = ("gradients are reset on every iteration but the optimizer steps only every k iterations: the "
               "accumulated gradients of the other micro-batches are thrown away")
    triggers = ("backward",)
    docs = """
        ## What it does
        Finds gradient accumulation whose reset runs on every micro-batch: a loop (or a training-step method
        called once per batch) that runs `loss.backward()` every time and `optimizer.step()` only under
        `if (i + 1) % k == 0:` (or once a counter reaches k and is set back to 0: `if micro == k: ...; micro = 0`,
        or after `if micro < k: continue` skips the rest of the iteration until then), but calls
        `optimizer.zero_grad()` (or `model.zero_grad()`) outside that `if`, on every iteration; any of the three may
        be in a helper the loop calls (a trainer's `self._optimizer_step()` holding the counted step, an
        `on_train_batch_end()` hook resetting), unless the loop calls that helper under an `if`. Also
        the form with the micro-batches in a loop of their own: `optimizer.zero_grad()` and `backward()` on every
        pass of an inner loop with no step, and `optimizer.step()` after it, also through same-file helpers (a
        trainer's `fwd_bwd()` that resets and runs `backward()`, called per micro-batch, and its `optim_step()`
        after the loop).

        ## Why is this bad?
        Accumulation relies on gradients adding up across `backward()` calls. The primer: "Gradients in PyTorch
        accumulate by default. If you call .backward() twice without zeroing gradients, the second set of
        gradients is added to the first. This is intentional (it enables gradient accumulation across
        mini-batches)". A reset on every micro-batch throws the sum away: each step applies the gradient of the
        last micro-batch alone, scaled down by `k` when the loss is divided by `k`. Training runs with a k times
        smaller batch and learning rate than intended, and nothing fails.

        Not reported: the reset inside the same `if` as the step, a reset under its own `if i % k == 0:` at the
        top of the loop, loops that step on every iteration (also by turns, `if i % 2 == 0: ... else: ...`), and a
        step guarded by `%` whose `backward()` is in the same `if` (a GAN's generator updated every `n_critic`
        iterations resets only its own optimizer); in the inner-loop form, a loop that steps itself (a WGAN's
        critic), one that reads `.grad` (per-task gradients combined by hand), a retry loop whose pass that
        succeeds breaks out (`try: ... backward()`, `except` out of memory: smaller chunks, `else: break`), and a
        reset of another object.

        ## Example
        ```python
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = criterion(model(x), y) / accumulation_steps
            loss.backward()
            if (i + 1) % accumulation_steps == 0:
                optimizer.step()
        ```

        ## Use instead
        ```python
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y) / accumulation_steps
            loss.backward()
            if (i + 1) % accumulation_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
        ```
    """
    VALID = [
        # The counted step method resets after it steps; the batch-end hook only logs, or resets when it is told to
        # (the loop calls it under an `if`).
        """
        import torch
        class Trainer:
            def __init__(self, model, optimizer, accumulate=4):
                self.model, self.optimizer, self.accumulate = model, optimizer, accumulate
                self._micro = 0
            def on_train_batch_end(self, loss):
                self.losses.append(loss.item())
            def on_skip(self):
                self.optimizer.zero_grad()
            def _optimizer_step(self):
                self._micro += 1
                if self._micro % self.accumulate == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad()
            def fit(self, loader):
                for x, y in loader:
                    loss = torch.nn.functional.cross_entropy(self.model(x), y) / self.accumulate
                    if not torch.isfinite(loss):
                        self.on_skip()
                        continue
                    loss.backward()
                    self._optimizer_step()
                    self.on_train_batch_end(loss)
        """,
        # bytetriper/RAE after its fix: the step waits behind `continue` until the counter reaches k; the reset
        # follows it.
        """
        import torch
        for epoch in range(epochs):
            opt.zero_grad()
            accum_counter = 0
            for x, y in loader:
                loss = model(x, y).mean()
                (loss / grad_accum_steps).backward()
                accum_counter += 1
                if accum_counter < grad_accum_steps:
                    continue
                opt.step()
                opt.zero_grad()
                accum_counter = 0
        """,
        """
        import torch
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y) / accumulation_steps
            loss.backward()
            if (i + 1) % accumulation_steps == 0:
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
        """,
        """
        import torch
        # the reset at the top of the loop, under its own modulo test: correct accumulation
        for i, (x, y) in enumerate(loader):
            if i % accumulation_steps == 0:
                optimizer.zero_grad()
            loss = criterion(model(x), y) / accumulation_steps
            loss.backward()
            if (i + 1) % accumulation_steps == 0:
                optimizer.step()
        """,
        """
        import torch
        # step and reset on every iteration; only the logging is every k
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if i % 100 == 0:
                print(i, loss.item())
        """,
        """
        import torch
        # WGAN: the critic every iteration, the generator every n_critic iterations with its own backward
        opt_d = torch.optim.RMSprop(netD.parameters(), lr=5e-5)
        opt_g = torch.optim.RMSprop(netG.parameters(), lr=5e-5)
        for i, real in enumerate(loader):
            opt_d.zero_grad()
            d_loss = -netD(real).mean() + netD(netG(z).detach()).mean()
            d_loss.backward()
            opt_d.step()
            if i % n_critic == 0:
                opt_g.zero_grad()
                g_loss = -netD(netG(z)).mean()
                g_loss.backward()
                opt_g.step()
        """,
        """
        import torch
        # without accumulation the other branch steps and resets on every iteration
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y)
            if accumulation_steps > 1:
                (loss / accumulation_steps).backward()
                if (i + 1) % accumulation_steps == 0:
                    optimizer.step()
                    optimizer.zero_grad()
            else:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """,
        """
        import torch
        # two optimizers stepped by turns: one of them steps on every iteration
        for i, batch in enumerate(loader):
            optimizer.zero_grad()
            model(batch).mean().backward()
            if i % 2 == 0:
                opt_encoder.step()
            else:
                opt_decoder.step()
        """,
        """
        import torch
        # a second optimizer stepped every iteration is reset every iteration; the accumulated one is not
        opt_main = torch.optim.Adam(model.parameters())
        opt_aux = torch.optim.Adam(aux.parameters())
        for i, batch in enumerate(loader):
            opt_aux.zero_grad()
            (model(batch).mean() + aux(batch).mean()).backward()
            opt_aux.step()
            if (i + 1) % k == 0:
                opt_main.step()
                opt_main.zero_grad()
        """,
        # a counter that restarts, with the reset next to the step; a warm-up test is no counter (it never
        # restarts), so the step there is not once every k iterations
        """
        import torch
        micro = 0
        for x, y in loader:
            loss = criterion(model(x), y) / accum
            loss.backward()
            micro += 1
            if micro == accum:
                optimizer.step()
                optimizer.zero_grad()
                micro = 0
        for step, (x, y) in enumerate(loader):
            optimizer2.zero_grad()
            criterion(model(x), y).backward()
            if step >= warmup_steps:
                optimizer2.step()
        """,
        # a WGAN's critic steps inside its own loop; PCGrad collects each task's gradients and combines them by
        # hand; a reset before the micro-batch loop lets them add up
        """
        import torch
        for real in loader:
            for _ in range(n_critic):
                opt_d.zero_grad()
                d_loss = D(G(z).detach()).mean() - D(real).mean()
                d_loss.backward()
                opt_d.step()
            opt_g.zero_grad()
            (-D(G(z)).mean()).backward()
            opt_g.step()
        for batch in loader:
            grads = []
            for loss in task_losses(model, batch):
                optimizer.zero_grad()
                loss.backward(retain_graph=True)
                grads.append([p.grad.clone() for p in model.parameters()])
            set_projected_grads(model, grads)
            optimizer.step()
        for batch in loader:
            optimizer.zero_grad()
            for chunk in batch.split(micro):
                (model(chunk).mean() / accum).backward()
            optimizer.step()
        """,
        # torchtitan's RL trainer after its fix: `fwd_bwd()` only adds up, `optim_step()` resets after the step;
        # WeiChengTseng/Pytorch-PCGrad: each objective's gradient reset, computed and read in a helper, then combined.
        """
        import torch
        class Trainer:
            def __init__(self, model):
                self.model = model
                self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
            def fwd_bwd(self, tokens, weights):
                loss = -(self.model(tokens).log_softmax(-1).mean(-1) * weights).mean()
                loss.backward()
            def optim_step(self):
                self.optimizer.step()
                self.optimizer.zero_grad()
        def objective_grad(optimizer, loss):
            optimizer.zero_grad()
            loss.backward()
            return [p.grad.clone() for group in optimizer.param_groups for p in group["params"]]
        trainer = Trainer(model)
        for step in range(steps):
            for tokens, weights in rollouts():
                trainer.fwd_bwd(tokens, weights)
            trainer.optim_step()
            grads = [objective_grad(opt, loss) for loss in model(x)]
            for task_loss in model(x):
                grads.append(objective_grad(opt, task_loss))
            combine_into_grad(model, grads)
            opt.step()
        """,

        # yandex-research/tabular-dl-revisiting-models: a retry loop, not micro-batches; a pass that ran out of
        # memory goes round again with smaller chunks, reset first, and the pass that succeeds leaves the loop.
        """
        import torch
        def train_with_auto_virtual_batch(optimizer, loss_fn, step, batch, chunk_size):
            batch_size = len(batch)
            while chunk_size != 0:
                try:
                    optimizer.zero_grad()
                    if batch_size <= chunk_size:
                        loss = loss_fn(*step(batch))
                        loss.backward()
                    else:
                        for chunk in batch.split(chunk_size):
                            (loss_fn(*step(chunk)) * (len(chunk) / batch_size)).backward()
                except RuntimeError as err:
                    if "out of memory" not in str(err):
                        raise
                    chunk_size //= 2
                else:
                    break
            optimizer.step()
        """,
    ]
    INVALID = [
        # A trainer whose counted step is a method of its own and whose batch-end hook resets on every batch.
        """
        import torch
        class Trainer:
            def __init__(self, model, optimizer, accumulate=4):
                self.model, self.optimizer, self.accumulate = model, optimizer, accumulate
                self._micro = 0
            def on_train_batch_end(self):
                self.optimizer.zero_grad(set_to_none=True)
            def _optimizer_step(self):
                self._micro += 1
                if self._micro % self.accumulate == 0:
                    self.optimizer.step()
            def fit(self, loader):
                for x, y in loader:
                    (torch.nn.functional.cross_entropy(self.model(x), y) / self.accumulate).backward()
                    self._optimizer_step()
                    self.on_train_batch_end()
        """,
        # bytetriper/RAE before its fix: the reset at the top of each micro-batch, the step behind `continue`.
        """
        import torch
        for epoch in range(epochs):
            accum_counter = 0
            for x, y in loader:
                opt.zero_grad(set_to_none=True)
                loss = model(x, y).mean()
                (loss / grad_accum_steps).backward()
                accum_counter += 1
                if accum_counter < grad_accum_steps:
                    continue
                opt.step()
                accum_counter = 0
        """,
        """
        import torch
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y)
            if accumulation_steps > 1:
                optimizer.zero_grad()
                (loss / accumulation_steps).backward()
                if (i + 1) % accumulation_steps == 0:
                    optimizer.step()
            else:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """,
        """
        import torch
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = criterion(model(x), y) / accumulation_steps
            loss.backward()
            if (i + 1) % accumulation_steps == 0:
                optimizer.step()
        """,
        """
        import torch
        class Learner:
            def __init__(self, net, accumulate=8):
                self.net = net
                self.optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
                self.accumulate = accumulate
                self.micro_step = 0
            def train_step(self, batch, target):
                loss = torch.nn.functional.mse_loss(self.net(batch), target) / self.accumulate
                loss.backward()
                self.micro_step += 1
                if self.micro_step % self.accumulate == 0:
                    self.optimizer.step()
                self.optimizer.zero_grad(set_to_none=True)
        """,
        # the counter form: the step waits for `micro_step` to reach k, the reset does not
        """
        import torch
        class Trainer:
            def __init__(self, model, grad_accum=8):
                self.model = model
                self.optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
                self.grad_accum = grad_accum
                self.micro_step = 0
            def train_epoch(self, loader):
                for x, y in loader:
                    self.optim.zero_grad()
                    loss = torch.nn.functional.mse_loss(self.model(x), y) / self.grad_accum
                    loss.backward()
                    self.micro_step += 1
                    if self.micro_step == self.grad_accum:
                        self.optim.step()
                        self.micro_step = 0
        """,
        # the same through a worker's methods: each micro-batch's pass resets, the step comes after the loop
        """
        import torch
        class Worker:
            def __init__(self, policy, lr=3e-4):
                self.policy = policy
                self.opt = torch.optim.Adam(policy.parameters(), lr=lr)
            def accumulate(self, obs, ret):
                self.opt.zero_grad()
                ((self.policy(obs).squeeze(-1) - ret) ** 2).mean().backward()
            def apply(self):
                self.opt.step()
        worker = Worker(policy)
        for it in range(iterations):
            for obs, ret in chunks(buffer, 4):
                worker.accumulate(obs, ret)
            worker.apply()
        """,
        # micro-batches in a loop of their own, each reset before its backward pass, then one step; a `break` only
        # where the data runs out leaves the passes that succeed going on to the next
        """
        import torch
        for epoch in range(epochs):
            for micro in range(accum):
                try:
                    opt.zero_grad()
                    model(next(batches)).pow(2).mean().backward()
                except StopIteration:
                    break
            opt.step()
        """,
        # micro-batches in a loop of their own, each reset before its backward pass, then one step
        """
        import torch
        while global_step < max_steps:
            for micro in range(accum):
                opt.zero_grad()
                loss = model(next(batches)).pow(2).mean() / accum
                loss.backward()
            opt.step()
            global_step += 1
        """,
    ]

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        facts = training_loop(self.ctx)
        reported: set[cst.CSTNode] = set()
        for step in facts.events:
            if step.kind != "step" or not is_step_call(step.node):
                continue
            guard = step.accumulation_guard
            if guard is None:
                self._report_inner(_resets_every_micro_batch(self.ctx, facts, step, facts.in_function(step.function)),
                                   step, reported)
                continue
            if guard.orelse is not None:
                continue  # with an `else`, the branches may step every iteration by turns
            for reset in _resets_every_iteration(facts, step, guard, facts.in_function(step.function)):
                if reset.node not in reported:
                    reported.add(reset.node)
                    self.report(reset.node, self._message(reset, step, guard))

        # The same through the helpers a body calls, their events placed at the calls: a trainer's `fwd_bwd()`
        # resetting and running `backward()` on each micro-batch, and its `optim_step()` after the loop; its
        # `_optimizer_step()` counting micro-batches, and an `on_batch_end()` hook resetting on each.
        for function in facts.local_calls():
            placed = facts.body_events(function)
            for step in placed:
                if step.kind == "step" and is_step_call(step.node) and step.function is function and step.loops:
                    self._report_inner(_resets_every_micro_batch(self.ctx, facts, step, placed), step, reported)
                    guard = step.accumulation_guard
                    if guard is None or guard.orelse is not None:
                        continue
                    conditional = _called_under_if(self.ctx, facts, step.loops[-1], function)
                    if step.order in conditional:
                        continue
                    body = [event for event in placed if event.order not in conditional]
                    for reset in _resets_every_iteration(facts, step, guard, body):
                        # a helper holding both the reset and the step is reported in its own body
                        if reset.node not in reported and reset.order != step.order:
                            reported.add(reset.node)
                            self.report(reset.node, self._message(reset, step, guard))

    def _report_inner(self, resets: list[Event], step: Event, reported: set[cst.CSTNode]) -> None:
        for reset in resets:
            if reset.node not in reported:
                reported.add(reset.node)
                self.report(reset.node, self._inner_message(reset, step))

    def _inner_message(self, reset: Event, step: Event) -> str:
        return (f"`{self.ctx.code(reset.node)}` runs on every pass of the loop around it, whose `backward()` "
                f"passes are meant to add up for `{self.ctx.code(step.node)}` after it: only the last pass's "
                f"gradients reach the step; reset before that loop, or after the step")

    def _message(self, reset: Event, step: Event, guard: cst.If) -> str:
        test = " ".join(self.ctx.code(guard.test).split())
        when = f"once `{test}` no longer skips the rest of the iteration" if guard in step.skipped_by \
            else f"when `{test}`"
        return (f"`{self.ctx.code(reset.node)}` runs on every iteration but `{self.ctx.code(step.node)}` only {when}: "
                "the gradients accumulated since the last step are thrown away; reset right after the step, under "
                "the same condition")


def _resets_every_micro_batch(ctx: Context, facts: TrainingLoop, step: Event, events: list[Event]) -> list[Event]:
    """The resets of `step`'s optimizer in a loop nested in the step's own, before the step, whose every pass runs
    `backward()` after the reset and no step (`for micro in range(accum): opt.zero_grad(); loss.backward()`, then
    `opt.step()`): only the last pass's gradients reach the step. `events` holds `step`, in the order a run goes
    through them (a helper's events placed at its call keep their own order there). Not when that loop reads
    `.grad`, itself or in a helper it calls (per-task gradients collected and combined by hand, as PCGrad does), nor
    for a helper called under an `if` there; only a reset of the same optimizer counts."""
    depth = len(step.loops)
    before = events[:next(at for at, event in enumerate(events) if event is step)]
    inner = [event for event in before if event.function is step.function
             and len(event.loops) == depth + 1 and event.loops[:depth] == step.loops]
    found = []
    for loop in dict.fromkeys(event.loops[-1] for event in inner):
        passes = [event for event in inner if event.loops[-1] is loop]
        if any(event.kind == "step" for event in passes) or _reads_grad(ctx, facts, loop, step.function):
            continue
        guarded = _called_under_if(ctx, facts, loop, step.function)
        for at, reset in enumerate(passes):
            if reset.kind == "reset" and not reset.guards and reset.subject is not None \
                    and reset.subject == step.subject and reset.order not in guarded \
                    and any(event.kind == "backward" and _goes_on_after(ctx, loop, event.node)
                            for event in passes[at + 1:]):
                found.append(reset)
    return found


def _goes_on_after(ctx: Context, loop: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Whether a pass of `loop` that runs `node` without raising may go on to the loop's next pass. Not in a retry
    loop (yandex-research's `train_with_auto_virtual_batch`: `try: optimizer.zero_grad(); loss.backward()`, `except`
    out of memory: halve the chunk and go round again, `else: break`): only a pass that failed is run again, and
    its gradients are the ones the reset throws away."""
    body = getattr(loop, "body", None)
    return type(body) is not cst.IndentedBlock or _falls_through(ctx, body.body, node) is not False


def _falls_through(ctx: Context, block: Sequence[cst.BaseStatement], node: cst.CSTNode) -> bool | None:
    """Whether, after `node` runs, the block holding it runs to its end rather than `break` out of the loop; None
    when `node` is not in it. A loop nested in the block keeps its own `break`s."""
    for at, statement in enumerate(block):
        if not any(inner is node for inner in ctx.walk(statement)):
            continue
        if _leaves_from(ctx, statement, node) or any(_breaks(later) for later in block[at + 1:]):
            return False
        return True
    return None


def _leaves_from(ctx: Context, statement: cst.BaseStatement, node: cst.CSTNode) -> bool:
    """The statement holding `node` breaks out of the loop once `node` has run: a `break` after it in the same
    branch, or in the `else` of a `try` whose body holds it (run only when the body raised nothing)."""
    if type(statement) is cst.If:
        parts: list[cst.CSTNode] = [statement.body]
        if statement.orelse is not None:
            parts.append(statement.orelse if type(statement.orelse) is cst.If else statement.orelse.body)
    elif type(statement) is cst.Try:
        through = _falls_through(ctx, _statements(statement.body), node)
        if through is not None:
            return not through or statement.orelse is not None \
                and any(_breaks(line) for line in _statements(statement.orelse.body))
        parts = [handler.body for handler in statement.handlers]
        parts += [part.body for part in (statement.orelse, statement.finalbody) if part is not None]
    elif type(statement) is cst.With:
        parts = [statement.body]
    else:
        return False  # a simple statement, or a loop of its own (its `break` stays inside it)
    for part in parts:
        if type(part) is cst.If:
            if any(inner is node for inner in ctx.walk(part)):
                return _leaves_from(ctx, part, node)
            continue
        through = _falls_through(ctx, _statements(part), node)
        if through is not None:
            return not through
    return False


def _statements(suite: cst.CSTNode) -> Sequence[cst.BaseStatement]:
    return suite.body if type(suite) is cst.IndentedBlock else ()  # type: ignore[attr-defined,return-value]


def _breaks(statement: cst.BaseStatement) -> bool:
    return type(statement) is cst.SimpleStatementLine and any(type(small) is cst.Break for small in statement.body)


def _reads_grad(ctx: Context, facts: TrainingLoop, loop: cst.CSTNode, function: cst.FunctionDef | None) -> bool:
    scopes = [loop, *(definition for site in facts.local_calls_in(loop, function)
                      for definition in facts.helpers_of(site.node))]
    return any(type(node) is cst.Attribute and node.attr.value == "grad" for scope in scopes
               for node in ctx.walk(scope))


def _called_under_if(ctx: Context, facts: TrainingLoop, loop: cst.CSTNode, function: cst.FunctionDef | None
                     ) -> set[int]:
    """The `order` of the helper calls under an `if` inside `loop`: their events do not run on every pass."""
    sites = {id(site.node): site.order for site in facts.local_calls_in(loop, function)}
    return {sites[id(node)] for branch in ctx.walk(loop) if type(branch) is cst.If
            for node in ctx.walk(branch) if id(node) in sites}


def _resets_every_iteration(facts: TrainingLoop, step: Event, guard: cst.If, events: list[Event]) -> list[Event]:
    """The resets of `step`'s gradients that run on every iteration of the body that runs it: its innermost loop's
    iteration, or its function's body when it is in no loop (a `training_step` called per batch). Only when that
    body runs `backward()` outside the step's modulo `if` and never inside it: the gradients are meant to add up.
    `events` are the function's: its own, or with those of the helpers it calls placed at the calls."""
    body = [event for event in events if event.loops == step.loops]
    backward = [event for event in body if event.kind == "backward"]
    if not backward or any(any(around is guard for around, _ in event.guards) for event in backward):
        return []
    stepped = {event.subject for event in body if event.kind == "step" and event.subject is not None}
    # A reset runs on every iteration that reaches the step's `if` when every `if` around it is also around the
    # step (`if accumulate > 1:` around both), and the modulo test is not
    outer = {(around, branch) for around, branch in step.guards if around is not guard}
    return [event for event in body if event.kind == "reset" and set(event.guards) <= outer
            and guard not in event.skipped_by and facts.covers(event, step, stepped)]
