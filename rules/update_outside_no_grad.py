"""SC202 update-outside-no-grad: a hand-written parameter update from its gradient that autograd records."""

from __future__ import annotations

from typing import Literal

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.syntax import dotted_name, keyword_arg
from shapecheck.loops.training_loop import IN_PLACE_UPDATES, grad_owners, runs_without_grad, text_of, updated_tensor
from shapecheck.loops.surroundings import in_test, is_test_file, statements_around


Form = Literal["in-place", "rebind"]


class UpdateOutsideNoGrad(Rule):
    code = "SC202"
    name = "update-outside-no-grad"
    severity = "error"  # the update is recorded in the graph, or raises on a leaf
    # The visits gather the updates and the functions that backpropagate through the graph; `finish` decides with
    # the file's grad mode, so the editor server keeps each statement's part between edits.
    scope = "statement"
    gathered = ("_updates", "_graph_through_grad")
    message = "parameter update outside `torch.no_grad()`: wrap it in `with torch.no_grad():`"
    triggers = (".grad",)
    docs = """
        ## What it does
        Finds a hand-written gradient-descent update of a tensor from its own gradient that runs while autograd
        is recording: in place (`w -= lr * w.grad`, `w.sub_(lr * w.grad)`, `w.add_(w.grad, alpha=-lr)`) or by
        rebinding (`w = w - lr * w.grad`), outside `with torch.no_grad():`.

        Not reported: updates through `.data` (`p.data.add_(p.grad, alpha=-lr)`), updates in a function decorated
        with `@torch.no_grad()` (a custom optimizer's `step`) or only ever called under `no_grad` in the same
        file (for a method, matched by name only, one call under `no_grad` is enough), updates in a function that
        builds a graph through the gradient on purpose (`create_graph=True`, meta-learning), a rebound tensor made
        a leaf again right after (`w = w.detach()`, `nn.Parameter(w)`), gradient edits (`p.grad += noise`), and
        names that merely contain "grad" (`x -= lr * grad_estimate`), and tests (`test_*` functions and test
        files), which may do it on purpose to check the error. A run of updates in one block is reported once: one
        `with` block fixes them all.

        ## Why is this bad?
        The primer: "Forgetting torch.no_grad() for the update step. If you write your own optimizer and update
        parameters without no_grad, the update tensor op gets recorded in the graph, and the next forward+backward
        tries to differentiate through it. Wrap the update." In place on a leaf that requires grad, the update
        raises "a leaf Variable that requires grad is being used in an in-place operation". Rebinding silently
        turns `w` into a non-leaf: the next `backward()` leaves `w.grad` as `None` and the history grows every
        step.

        ## Example
        ```python
        loss.backward()
        w -= lr * w.grad
        w.grad.zero_()
        ```

        ## Use instead
        ```python
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
        w.grad.zero_()
        ```

        This rule has no fix: the `with` block has to cover the whole update, which may span several statements.
    """
    VALID = [
        # The primer's own form.
        """
        import torch
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
        """,
        # torch.optim-style custom optimizer.
        """
        import torch
        from torch.optim import Optimizer
        class PlainSGD(Optimizer):
            @torch.no_grad()
            def step(self, closure=None):
                for group in self.param_groups:
                    for p in group["params"]:
                        if p.grad is not None:
                            p.add_(p.grad, alpha=-group["lr"])
        """,
        # pytorch/examples word_language_model: through `.data`.
        """
        import torch
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        """,
        # Old-style optimizers: `.data` on both sides.
        """
        import torch
        for w in params:
            w.data -= lr * w.grad.data
            w.grad.data.zero_()
        """,
        # A helper only ever called under no_grad.
        """
        import torch
        def sgd_update(params, lr):
            for p in params:
                p.sub_(lr * p.grad)
        loss.backward()
        with torch.no_grad():
            sgd_update(model.parameters(), 0.1)
        """,
        # Momentum buffer fed a gradient: the buffer is no parameter.
        """
        import torch
        with torch.no_grad():
            for p, buf in zip(params, buffers):
                buf.mul_(momentum).add_(p.grad)
                p.sub_(lr * buf)
        """,
        # A variable that merely contains the letters "grad".
        """
        import torch
        grad = torch.autograd.grad(loss, x)[0]
        x_adv = x_adv + alpha * grad.sign()
        theta -= lr * grad_estimate
        """,
        # PGD: rebinding from the detached input is a fresh leaf, not a recorded update.
        """
        import torch
        x_adv.requires_grad_(True)
        loss = criterion(model(x_adv), y)
        loss.backward()
        x_adv = x_adv.detach() + alpha * x_adv.grad.sign()
        """,
        # MAML-style: a differentiable inner step on purpose.
        """
        import torch
        def inner_step(w, x, y, lr):
            loss = ((x @ w - y) ** 2).mean()
            loss.backward(create_graph=True)
            w = w - lr * w.grad
            return w
        """,
        # d2l: a hand-written optimizer whose `step` the trainer calls under no_grad.
        """
        import torch
        class SGD:
            def __init__(self, params, lr):
                self.params, self.lr = params, lr
            def step(self):
                for param in self.params:
                    param -= self.lr * param.grad
        class Trainer:
            def fit_epoch(self, batch):
                loss = self.model.loss(self.model(*batch[:-1]), batch[-1])
                self.optim.zero_grad()
                with torch.no_grad():
                    loss.backward()
                    self.optim.step()
        """,
        # Rebound, but made a leaf again right after: wasteful, yet the update works.
        """
        import torch
        from torch import nn
        for epoch in range(num_epochs):
            loss = mse(model(x), y)
            loss.backward()
            w = model.linear.weight
            w = w - lr * w.grad
            model.linear.weight = nn.Parameter(w)
        """,
        # A test checking the error on purpose.
        """
        import pytest
        import torch
        def test_in_place_update_of_a_leaf_raises():
            w = torch.ones(3, requires_grad=True)
            (w * 2).sum().backward()
            with pytest.raises(RuntimeError):
                w -= 0.1 * w.grad
        """,
        # Editing a gradient (clipping, noise) is no parameter update.
        """
        import torch
        for p in model.parameters():
            p.grad += sigma * torch.randn_like(p.grad)
            p.grad.add_(weight_decay * p.grad)
        """,
    ]
    INVALID = [
        """
        import torch
        w = torch.randn(3, requires_grad=True)
        for epoch in range(100):
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            w -= lr * w.grad
            w.grad.zero_()
        """,
        """
        import torch
        for epoch in range(100):
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            w = w - lr * w.grad
        """,
        """
        import torch
        def step(model, lr):
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)
        """,
        """
        import torch
        class Linear:
            def update(self, lr):
                self.W.sub_(lr * self.W.grad)
                self.b.sub_(lr * self.b.grad)
        """,
        """
        import torch
        loss.backward()
        g = w.grad
        w -= 0.01 * g
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # The updates in order: (their block, None at module level; the update; its function; "in-place" or
        # "rebind"). `finish` keeps one per block: one `with` fixes a run of updates.
        self._updates: list[tuple[cst.CSTNode | None, cst.CSTNode, cst.FunctionDef | None, Form]] = []
        self._graph_through_grad: list[cst.FunctionDef | None] = []  # functions backpropagating with create_graph

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is not cst.Attribute:
            return
        name = func.attr.value
        if name in IN_PLACE_UPDATES:
            self._check(node)
        elif name == "backward" or name == "grad":
            if keyword_arg(node, "create_graph") is not None:
                self._graph_through_grad.append(self.ctx.function)

    def visit_Assign(self, node: cst.Assign) -> None:
        """`w = w - lr * w.grad`: the new `w` is a non-leaf in the graph."""
        value = node.value
        if len(node.targets) != 1 or type(value) is not cst.BinaryOperation:
            return
        if type(value.operator) not in (cst.Subtract, cst.Add) or self.ctx.grad_disabled:
            return
        target = node.targets[0].target
        if type(target) is not cst.Name and type(target) is not cst.Attribute:
            return
        spelled = text_of(self.ctx, target)
        if spelled not in (text_of(self.ctx, value.left), text_of(self.ctx, value.right)):
            return
        if spelled in grad_owners(self.ctx, value) and not self._made_leaf_again(spelled):
            self._add(node, "rebind")

    def _made_leaf_again(self, name: str) -> bool:
        """A later statement of the same block turns the rebound tensor back into a leaf: `w = w.detach()...`,
        `w.detach_()`, `layer.weight = nn.Parameter(w)`. Wasteful, but the update then works."""
        around = statements_around(self.ctx)
        if around is None:
            return False
        for statement in around[1]:
            for node in self.ctx.walk(statement):
                if type(node) is not cst.Call:
                    continue
                func = node.func
                if type(func) is cst.Attribute and func.attr.value in ("detach", "detach_"):
                    if text_of(self.ctx, func.value) == name:
                        return True
                elif (dotted_name(func) or "").rsplit(".", 1)[-1] == "Parameter" and node.args:
                    if text_of(self.ctx, node.args[0].value) == name:
                        return True
        return False

    def _check(self, node: cst.CSTNode) -> None:
        if self.ctx.grad_disabled:
            return
        found = updated_tensor(self.ctx, node)
        if found is not None and not found[1]:
            self._add(node, "in-place")

    def _add(self, node: cst.CSTNode, form: Form) -> None:
        if in_test(self.ctx):
            return
        # The module is parsed anew on every edit, where the blocks an edit did not touch are kept: None stands for it.
        block = next((a for a in reversed(self.ctx.ancestors) if type(a) is cst.IndentedBlock), None)
        self._updates.append((block, node, self.ctx.function, form))

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return  # a test may update outside no_grad on purpose, to check the error it raises
        first: dict[cst.CSTNode | None, tuple[cst.CSTNode, cst.FunctionDef | None, Form]] = {}
        for block, node, function, form in self._updates:
            first.setdefault(block, (node, function, form))
        graph_through_grad = set(self._graph_through_grad)
        for node, function, form in first.values():
            if function in graph_through_grad or runs_without_grad(self.ctx, function):
                continue
            code = self.ctx.code(node).strip()
            if form == "rebind":
                message = (f"`{code}` outside `torch.no_grad()` records the update in the graph: the new tensor is "
                           "no leaf, so the next `backward()` leaves its `.grad` as None; update in place under "
                           "`with torch.no_grad():`")
            else:
                message = (f"`{code}` updates a parameter while autograd is recording (an in-place update of a leaf "
                           "that requires grad raises): wrap the update in `with torch.no_grad():`")
            self.report(node, message)
