"""SC214 clip-before-unscale: gradients clipped while a GradScaler still scales them."""

from __future__ import annotations

from shapecheck.engine import Rule
from shapecheck.loops.training_loop import Event, training_loop
from shapecheck.loops.surroundings import is_test_file


# allennlp's trainer, its callbacks run between the scaled backward pass and the scaler's step; %s is what the
# clipping callback does before it clips
_CALLBACK_TRAINER = """
        import torch
        class GradientNormClipping:
            def __init__(self, max_norm):
                self.max_norm = max_norm
            def on_backward(self, trainer):
%s                torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)
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


class ClipBeforeUnscale(Rule):
    code = "SC214"
    name = "clip-before-unscale"
    message = "gradients are clipped while still scaled by the GradScaler: call `scaler.unscale_(optimizer)` first"
    triggers = ("clip_grad_",)
    triggered_through_imports = True  # a helper or callback of another module may clip (see Rule)
    docs = """
        ## What it does
        Finds `torch.nn.utils.clip_grad_norm_(...)` / `clip_grad_value_(...)` after
        `scaler.scale(loss).backward()` with no `scaler.unscale_(optimizer)` between the backward pass and the
        clip (in source order, since the last optimizer step of the same function or module-level code). A clip,
        an unscale, a step or the scaled backward pass itself in a helper the code calls (`clip(model)`, a
        trainer's `self._backward(loss)`, a callback hook `callback.on_before_optimizer_step(self)`, the method of a
        project object the trainer keeps, `self.amp.backward(loss)` with `self.amp = MixedPrecision()`; of this
        file or imported from the project) counts where the helper is called; a helper that both scales and clips is
        reported in its own body. So does the method a trainer runs on each of its callbacks (`for callback in
        self.callbacks: callback.on_backward(self)`), of the callback classes of this file, of the project modules
        beside it (its folder, its imports, and the imports of the modules that import it: the script that hands
        the trainer its callbacks).

        Not reported: clipping through a framework that unscales itself (`accelerator.clip_grad_norm_`,
        `fabric.clip_gradients`), a backward pass that is not scaled, and tests.

        ## Why is this bad?
        `scaler.scale(loss)` multiplies the loss, and so every gradient, by the scale factor (65536 at the start).
        Clipping those gradients compares the scaled norm with the threshold: the clip almost always fires and
        shrinks the real gradients by the scale factor, or never fires on values clipped by value. PyTorch's AMP
        guide: "All gradients produced by scaler.scale(loss).backward() are scaled. If you wish to modify or
        inspect the parameters' .grad attributes between backward() and scaler.step(optimizer), you should unscale
        them first. For example, gradient clipping manipulates a set of gradients such that their global norm ...
        is <= some user-imposed threshold."

        ## Example
        ```python
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(optimizer)
        scaler.update()
        ```

        ## Use instead
        ```python
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(optimizer)
        scaler.update()
        ```

        This rule has no fix: which optimizer to unscale, when there are several, is the author's call.
    """
    VALID = [
        # The clipping callback unscales the trainer's optimizer first.
        _CALLBACK_TRAINER % "                trainer.scaler.unscale_(trainer.optimizer)\n",
        # The backward helper unscales before it returns: the trainer's clip then sees true gradients.
        """
        import torch
        class Trainer:
            def _backward(self, loss):
                self.scaler.scale(loss).backward()
                self.scaler.unscale_(self.optimizer)
            def train_step(self, batch):
                self.optimizer.zero_grad()
                self._backward(self.model(batch).mean())
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.scaler.step(self.optimizer)
                self.scaler.update()
        """,
        # The clip helper unscales first; the scaled backward pass is a method of the trainer.
        """
        import torch
        class Trainer:
            def _backward(self, loss):
                self.scaler.scale(loss).backward()
            def _clip(self):
                self.scaler.unscale_(self.optimizer)
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            def train_step(self, batch):
                self.optimizer.zero_grad()
                self._backward(self.model(batch).mean())
                self._clip()
                self.scaler.step(self.optimizer)
                self.scaler.update()
        """,
        # The scaled backward helper runs after the clip of the previous step's gradients was followed by a step.
        """
        import torch
        class Trainer:
            def _backward(self, loss):
                self.scaler.scale(loss).backward()
            def train_step(self, batch):
                self._backward(self.model(batch).mean())
                self.scaler.step(self.optimizer)
                self.scaler.update()
                self.optimizer.zero_grad()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        """,
        # A helper that unscales before it clips.
        """
        import torch
        def clip(model, scaler, opt):
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        for step in range(10):
            opt.zero_grad()
            scaler.scale(model(x).mean()).backward()
            clip(model, scaler, opt)
            scaler.step(opt)
            scaler.update()
        """,
        # nanoGPT: unscale, then clip.
        """
        import torch
        scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))
        while True:
            for micro_step in range(gradient_accumulation_steps):
                logits, loss = model(X, Y)
                scaler.scale(loss).backward()
            if grad_clip != 0.0:
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
        """,
        # Accelerate unscales in its own clip_grad_norm_.
        """
        import torch
        for batch in loader:
            with accelerator.autocast():
                loss = model(**batch).loss
            accelerator.backward(loss)
            accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
        """,
        # Without AMP the gradients are not scaled.
        """
        import torch
        from torch.nn.utils import clip_grad_norm_
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
        """,
        # timm: one branch scales and unscales, the other clips plain gradients.
        """
        import torch
        def update(loss, model, optimizer, scaler, clip):
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
                scaler.step(optimizer)
                scaler.update()
            else:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
                optimizer.step()
        """,
    ]
    INVALID = [
        # allennlp's trainer runs its callbacks between the scaled backward pass and the scaler's step; the
        # clipping callback sees scaled gradients.
        _CALLBACK_TRAINER % "",
        # A trainer whose backward pass and clip are methods of their own: the step method runs both, in this order.
        """
        import torch
        class AMPTrainer:
            def __init__(self, model, optimizer, max_norm=1.0):
                self.model, self.optimizer, self.max_norm = model, optimizer, max_norm
                self.scaler = torch.amp.GradScaler("cuda")
            def _backward(self, loss):
                self.scaler.scale(loss).backward()
            def _clip_gradients(self):
                if self.max_norm > 0:
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
            def train_step(self, x, y):
                self.optimizer.zero_grad(set_to_none=True)
                with torch.autocast("cuda"):
                    loss = torch.nn.functional.cross_entropy(self.model(x), y)
                self._backward(loss)
                self._clip_gradients()
                self.scaler.step(self.optimizer)
                self.scaler.update()
        """,
        # A helper that scales and clips is reported once, in itself, not again where the loop calls it.
        """
        import torch
        def backward_and_clip(loss, model, scaler):
            scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        for x, y in loader:
            optimizer.zero_grad()
            backward_and_clip(criterion(model(x), y), model, scaler)
            scaler.step(optimizer)
            scaler.update()
        """,
        # The clip is in a helper the loop calls after the scaled backward pass.
        """
        import torch
        def clip(model, max_norm=1.0):
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        for step in range(10):
            opt.zero_grad()
            with torch.autocast("cuda"):
                loss = model(x).mean()
            scaler.scale(loss).backward()
            clip(model)
            scaler.step(opt)
            scaler.update()
        """,
        """
        import torch
        scaler = torch.amp.GradScaler("cuda")
        for x, y in loader:
            optimizer.zero_grad()
            with torch.autocast("cuda"):
                loss = criterion(model(x), y)
            scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            scaler.step(optimizer)
            scaler.update()
        """,
        # Clipping by value, in a method.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def step(self, loss):
                self.optimizer.zero_grad()
                self.scaler.scale(loss).backward()
                nn.utils.clip_grad_value_(self.model.parameters(), 0.5)
                self.scaler.step(self.optimizer)
                self.scaler.update()
        """,
    ]

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        training = training_loop(self.ctx)
        bodies = training.bodies_with(lambda event: event.kind == "backward" and event.scaled)
        for function in bodies:
            sites = {site.order: site.node for site in training.local_calls().get(function, ())}
            own = {id(event) for event in training.in_function(function)}
            # What happened to the gradients since the last optimizer step, in source order, the helpers' events
            # (a `clip(model)` helper) placed at their calls.
            since: list[Event] = []
            for event in training.body_events(function):
                if event.kind == "step":
                    since = []
                elif event.kind == "backward" and event.scaled or event.kind == "unscale" and since:
                    since.append(event)
                # a helper that both scales and clips (both events placed at its call) is reported in its own body
                elif event.kind == "clip" and since and since[-1].kind == "backward" \
                        and not (since[-1].order == event.order and id(event) not in own):
                    node = event.node if id(event) in own else sites.get(event.order, event.node)
                    # a callback of another module clips where the trainer runs it: its own call named inside
                    clip = event.origin or event.node
                    how = f"`{self.ctx.code(clip.func)}`" if node is clip else \
                        f"`{self.ctx.code(node)}` (`{self.ctx.code(clip.func)}` inside)"
                    self.report(node, f"{how} clips gradients that `{self.ctx.code(since[-1].node)}` left "
                                      "multiplied by the GradScaler's scale: the threshold is compared with scaled "
                                      "values; call `scaler.unscale_(optimizer)` before clipping")
