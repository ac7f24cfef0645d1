"""SC102 cat-of-scalars: `torch.cat` over 0-d tensors (losses, full reductions, `torch.tensor(3.0)`)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from shapecheck.engine import Binding, Context, Fix, Invalid, Rule
from shapecheck.engine.syntax import keyword_arg
from shapecheck.engine.expected_errors import expects_error
from shapecheck.objects.tensor_facts import argument_of, is_builtin_call, is_int, number_kind, positional, string_value
from shapecheck.shapes import runs
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator
from shapecheck.shapes.joins import zero_dim_joined

CAT = frozenset({"torch.cat", "torch.concat", "torch.concatenate"})
_CAT_NAMES = frozenset({"cat", "concat", "concatenate"})

# Reductions over every element when called without a dim: their result is 0-d.
FULL_REDUCTIONS = frozenset({
    "sum", "mean", "prod", "std", "var", "median", "nanmedian", "nansum", "nanmean", "max", "min", "amax", "amin",
    "all", "any", "count_nonzero", "norm", "trace",
})
# `x.norm(2)`, `torch.norm(x, 2)`, `torch.linalg.norm(x, 2)`: the extra positional is the order, not a dim.
_ORDER_FIRST = frozenset({"norm", "vector_norm"})
_FUNCTION_REDUCTIONS = frozenset({f"torch.{name}" for name in FULL_REDUCTIONS} | {
    "torch.linalg.norm", "torch.linalg.vector_norm", "torch.dot", "torch.vdot"})
_SCALAR_TENSORS = frozenset({"torch.tensor", "torch.as_tensor", "torch.scalar_tensor"})
# Elementwise methods that keep a 0-d tensor 0-d.
_PRESERVING = frozenset({
    "detach", "cpu", "cuda", "clone", "float", "double", "half", "bfloat16", "long", "int", "to", "contiguous",
    "squeeze", "abs", "neg", "sqrt", "exp", "log", "sigmoid", "tanh", "requires_grad_", "type_as",
})
_LOSS_FUNCTIONS = frozenset({
    "mse_loss", "l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "smooth_l1_loss", "huber_loss", "kl_div", "soft_margin_loss", "multilabel_soft_margin_loss", "poisson_nll_loss",
    "gaussian_nll_loss", "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
    "triplet_margin_loss", "multi_margin_loss", "multilabel_margin_loss",
})
_LOSS_MODULES = frozenset({
    "MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss",
    "KLDivLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss",
    "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "MultiMarginLoss",
    "MultiLabelMarginLoss",
})
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power, cst.Modulo)
_LIST_MUTATORS = frozenset({"extend", "insert", "__setitem__", "__iadd__"})

# (id(class) or 0, function name) -> whether each of its `return`s gives a 0-d tensor, judged at the `return`
# while the function's own names still resolve: `def compute_loss(p, y): return F.mse_loss(p, y)`.
Helpers = dict[tuple[int, str], list[bool]]


# An epoch-end hook given the outputs of the training steps (a Lightning-style module driven by a plain loop): `%s`
# joins the steps' 0-d losses.
_EPOCH_END_HOOK = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Linear(20, 4)

            def training_step(self, batch):
                x, y = batch
                return {"loss": F.cross_entropy(self.net(x), y)}

            def training_epoch_end(self, outputs):
                return torch.%s([out["loss"] for out in outputs]).mean()

        def fit(model, batches):
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            outputs = []
            for batch in batches:
                out = model.training_step(batch)
                optimizer.zero_grad()
                out["loss"].backward()
                optimizer.step()
                outputs.append({k: v.detach() for k, v in out.items()})
            return model.training_epoch_end(outputs)

        fit(Classifier(), [(torch.randn(8, 20), torch.randint(0, 4, (8,))) for _ in range(3)])
        """


class CatOfScalars(Rule):
    code = "SC102"
    name = "cat-of-scalars"
    severity = "error"  # `torch.cat` of 0-d tensors raises
    message = "`torch.cat` of 0-d tensors raises \"zero-dimensional tensor cannot be concatenated\": use `torch.stack`"
    fixable = "safe"
    triggers = ("cat(", "concatenate(")
    triggered_through_imports = True  # a trainer handing a hook of another module the steps' losses
    docs = """
        ## What it does
        Finds `torch.cat` (and `torch.concat`) over tensors that are certainly 0-d: full reductions such as
        `x.sum()`, `x.mean()`, `x.max()` without a `dim`, `torch.tensor(<number>)`, losses from
        `F.mse_loss(...)` / `nn.CrossEntropyLoss()(...)` with a reducing `reduction`, written in the call or
        appended to a list that is then concatenated, also when a function of the same file returns it
        (`def compute_loss(pred, y): return F.mse_loss(pred, y)`, every `return` a 0-d tensor), and where the
        shape analysis knows every tensor joined is 0-d, also in the code a call runs (an epoch-end hook of
        another module handed the losses the training steps returned, reported "via" the trainer's call).

        ## Why is this bad?
        `cat` joins tensors along an existing dimension, and a 0-d tensor has none: PyTorch raises
        "zero-dimensional tensor (at position 0) cannot be concatenated". The primer: "stack adds a new
        dimension; cat extends an existing one", and "stack vs cat — the most common mix-up".

        Tensors of shape `(1,)` (`loss.view(1)`, `x.sum().unsqueeze(0)`, the `log_prob` of a batch of one
        action) concatenate fine and are not reported, nor is code that expects the error (under
        `pytest.raises` / `assertRaises`, or in a `try` that catches it).

        ## Example
        ```python
        losses = []
        for x, y in loader:
            losses.append(criterion(model(x), y))
        epoch_loss = torch.cat(losses).mean()
        ```

        ## Use instead
        ```python
        epoch_loss = torch.stack(losses).mean()
        ```

        ## Fix
        Safe, when every element is certainly 0-d and the `dim` is absent, 0 or -1: `cat` becomes `stack` in
        the same spelling with the same arguments, which gives the 1-d tensor of the values.
    """
    VALID = [
        """
        import torch
        import torch.nn.functional as F
        # the helper keeps the batch dimension, or returns 0-d only on one path
        def per_sample(pred, y):
            return F.cross_entropy(pred, y, reduction="none")
        def score(pred, y, reduce):
            if reduce:
                return F.mse_loss(pred, y)
            return (pred - y) ** 2
        losses = torch.cat([per_sample(p, y) for p, y in pairs])
        scores = torch.cat([score(p, y, False) for p, y in pairs])
        """,
        """
        import torch
        def batch_loss(model, x, y):
            return model.loss(x, y).view(1)
        epoch = torch.cat([batch_loss(model, x, y) for x, y in loader])
        """,
        """
        import torch
        policy_loss = []
        for log_prob, R in zip(saved_log_probs, returns):
            policy_loss.append(-log_prob * R)
        loss = torch.cat(policy_loss).sum()
        """,
        """
        import torch
        end = torch.cat([end, batch.max().unsqueeze(0)])
        """,
        """
        import torch
        import torch.nn.functional as F
        mse = []
        for data in loader:
            mse.append(F.mse_loss(model(data.x), data.y, reduction='none').cpu())
        rmse = float(torch.cat(mse, dim=0).mean().sqrt())
        """,
        """
        import torch
        lbox = torch.zeros(1)
        lbox += (1.0 - iou).mean()
        stats = torch.cat((lbox, lobj, lcls)).detach()
        """,
        """
        import torch
        losses = [loss.view(1) for loss in step_losses]
        total = torch.cat(losses).sum()
        """,
        """
        import torch
        losses = torch.stack([l1.mean(), l2.mean()])
        """,
        """
        import torch
        feats = torch.cat([x.mean(dim=1), x.amax(1)], dim=-1)
        """,
        """
        import numpy as np
        import torch
        totals = np.concatenate([a.sum(), b.sum()])
        """,
        """
        import torch
        x = torch.ones(3).sum()
        parts = torch.cat([x for x in chunks])
        """,
        """
        import torch
        losses = []
        for batch in loader:
            losses.append(loss_fn(batch))
        total = torch.cat(losses)
        """,
        """
        import torch
        import torch.nn as nn
        class CrossAttention(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.norm = nn.LayerNorm(dim)
            def forward(self, x, context):
                x = self.norm(x)
                h = encoder.norm(context)
                return torch.cat((x, h), dim=1)
        """,
        """
        import torch
        import unittest
        class TestCat(unittest.TestCase):
            def test_zero_dim_raises(self):
                with self.assertRaisesRegex(RuntimeError, "zero-dimensional"):
                    torch.cat([torch.tensor(1.0), torch.tensor(2.0)])
        """,
        _EPOCH_END_HOOK % "stack",
    ]
    INVALID = [
        _EPOCH_END_HOOK % "cat",
        """
        import torch
        import torch.nn.functional as F
        def compute_loss(model, batch):
            x, y = batch
            loss = F.cross_entropy(model(x), y)
            return loss
        losses = []
        for batch in loader:
            losses.append(compute_loss(model, batch).detach())
        print(torch.cat(losses).mean())
        """,
        """
        import torch
        class Trainer:
            def val_loss(self, pred, target):
                return ((pred - target) ** 2).mean()
            def validate(self, pairs):
                return torch.cat([self.val_loss(p, t) for p, t in pairs]).mean()
        """,
        Invalid(
            """
            import torch
            import torch.nn as nn
            criterion = nn.CrossEntropyLoss()
            losses = []
            for x, y in loader:
                loss = criterion(model(x), y)
                losses.append(loss.detach())
            epoch_loss = torch.cat(losses).mean()
            """,
            fixed="""
            import torch
            import torch.nn as nn
            criterion = nn.CrossEntropyLoss()
            losses = []
            for x, y in loader:
                loss = criterion(model(x), y)
                losses.append(loss.detach())
            epoch_loss = torch.stack(losses).mean()
            """,
        ),
        Invalid(
            """
            import torch as th
            norms = th.cat([g.norm() for g in grads], dim=0)
            """,
            fixed="""
            import torch as th
            norms = th.stack([g.norm() for g in grads], dim=0)
            """,
        ),
        Invalid(
            """
            import torch
            values = torch.cat((torch.tensor(1.0), torch.tensor(2.0)))
            """,
            fixed="""
            import torch
            values = torch.stack((torch.tensor(1.0), torch.tensor(2.0)))
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            recon = F.mse_loss(x_hat, x)
            kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
            parts = torch.cat([recon, kl])
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            recon = F.mse_loss(x_hat, x)
            kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
            parts = torch.stack([recon, kl])
            """,
        ),
        Invalid(
            """
            import torch
            dist_ap, dist_an = [], []
            for i in range(n):
                dist_ap.append(dist[i][mask[i]].max())
                dist_an.append(dist[i][mask[i] == 0].min())
            dist_ap = torch.cat(dist_ap)
            dist_an = torch.cat(dist_an)
            """,
            fixed="""
            import torch
            dist_ap, dist_an = [], []
            for i in range(n):
                dist_ap.append(dist[i][mask[i]].max())
                dist_an.append(dist[i][mask[i] == 0].min())
            dist_ap = torch.stack(dist_ap)
            dist_an = torch.stack(dist_an)
            """,
            count=2,
        ),
        Invalid(
            """
            import torch
            from torch import nn
            criterion = nn.CrossEntropyLoss()
            loss = torch.sum(torch.cat([criterion(logits, labels) for logits in logits_list]))
            """,
            fixed="""
            import torch
            from torch import nn
            criterion = nn.CrossEntropyLoss()
            loss = torch.sum(torch.stack([criterion(logits, labels) for logits in logits_list]))
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn as nn
            class Trainer:
                def __init__(self, model):
                    self.model = model
                    self.criterion = nn.MSELoss()
                def epoch(self, loader):
                    losses = []
                    for x, y in loader:
                        losses.append(self.criterion(self.model(x), y))
                    return torch.cat(losses, 0)
            """,
            fixed="""
            import torch
            import torch.nn as nn
            class Trainer:
                def __init__(self, model):
                    self.model = model
                    self.criterion = nn.MSELoss()
                def epoch(self, loader):
                    losses = []
                    for x, y in loader:
                        losses.append(self.criterion(self.model(x), y))
                    return torch.stack(losses, 0)
            """,
        ),
        # One 0-d element is enough to raise; with a (1,) element beside it `stack` would raise too: no fix.
        """
        import torch
        stats = torch.cat([torch.zeros(1), loss.sum()])
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Per list binding (its `seq`): whether each appended value is certainly 0-d; None once the list is
        # changed in a way we don't follow.
        self._appends: dict[int, list[bool] | None] = {}
        self._pending: list[tuple[cst.Call, list[bool], int]] = []
        self._helpers: Helpers = {}

    def visit_Return(self, node: cst.Return) -> None:
        function = self.ctx.function
        if function is None or any(type(a) is cst.Lambda for a in self.ctx.ancestors):
            return
        owner = self.ctx.class_def
        if owner is not None and not any(a is function for a in owner.body.body):
            owner = None  # a function nested in a method is not a method
        key = (0 if owner is None else id(owner), function.name.value)
        zero_dim = node.value is not None and is_zero_dim(self.ctx, node.value, helpers=self._helpers)
        self._helpers.setdefault(key, []).append(zero_dim)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute:
            name = func.attr.value
            if name == "append" or name in _LIST_MUTATORS:
                self._record_mutation(node, func, name)
                return
        elif type(func) is not cst.Name:
            return
        else:
            name = func.value
        if expects_error(self.ctx):
            return
        ev = evaluator(self.ctx)
        if name not in _CAT_NAMES or self.ctx.qualname(func) not in CAT:
            # a cat in the code the call runs, on the values the call hands it (an epoch-end hook handed the
            # steps' outputs)
            where = runs.found_at_call(ev, node, _zero_dim_cat)
            if where is not None:
                self.report(*where)
            return
        tensors = argument_of(node, "tensors", 0)
        if tensors is None:
            return
        if not self._check(node, tensors.value) and runs.found_here(ev, node, _zero_dim_cat) is not None:
            self._report(node, [True])  # the shapes say 0-d where the elements as written do not decide

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:  # `losses[i] = ...` may replace a 0-d element
            if type(target.target) is cst.Subscript:
                self._forget(target.target.value)

    def _record_mutation(self, node: cst.Call, func: cst.Attribute, name: str) -> None:
        found = self._list_binding(func.value)
        if found is None:
            return
        seq = found[0].seq
        recorded = self._appends.setdefault(seq, [])
        if recorded is None:
            return
        if name != "append" or len(node.args) != 1:
            self._appends[seq] = None
        else:
            recorded.append(is_zero_dim(self.ctx, node.args[0].value, helpers=self._helpers))

    def _forget(self, expr: cst.BaseExpression) -> None:
        found = self._list_binding(expr)
        if found is not None:
            self._appends[found[0].seq] = None

    def _list_binding(self, expr: cst.BaseExpression) -> tuple[Binding, cst.List] | None:
        """The binding of a name to a list display (`losses = []`, `ap, an = [], []`) and that display."""
        if type(expr) is not cst.Name:
            return None
        binding = self.ctx.binding(expr)
        if binding is None or binding.value is None:
            return None
        value = binding.value
        if binding.kind == "unpack" and type(value) in (cst.Tuple, cst.List) and not binding.starred:
            elements = value.elements
            if binding.index is None or len(elements) <= binding.index or any(
                    type(e) is cst.StarredElement for e in elements):
                return None
            value = elements[binding.index].value
        elif binding.kind != "assign":
            return None
        return (binding, value) if type(value) is cst.List else None

    def _check(self, node: cst.Call, tensors: cst.BaseExpression) -> bool:
        """Whether the elements as written decide the call: reported now, or at the end of the file."""
        ctx = self.ctx
        kind = type(tensors)
        if kind is cst.List or kind is cst.Tuple:
            verdicts = _element_verdicts(ctx, tensors.elements, None, self._helpers)
            if verdicts is not None and any(verdicts):
                self._report(node, verdicts)
                return True
        elif kind is cst.ListComp:
            return self._check_comprehension(node, tensors)
        elif kind is cst.Name:
            found = self._list_binding(tensors)
            if found is None:
                return False
            binding, display = found
            verdicts = _element_verdicts(ctx, display.elements, binding.seq, self._helpers)
            if verdicts is not None:
                # Appends may come later in the source (a loop body): decide when the whole file is seen.
                self._pending.append((node, verdicts, binding.seq))
                return True
        return False

    def _check_comprehension(self, node: cst.Call, comp: cst.ListComp) -> bool:
        # The element is evaluated in the comprehension's scope: its loop names must not resolve to outer ones.
        bound: set[str] = set()
        for_in: cst.CompFor | None = comp.for_in
        while for_in is not None:
            bound.update(n.value for n in self.ctx.walk(for_in.target) if type(n) is cst.Name)
            for_in = for_in.inner_for_in
        zero_dim = is_zero_dim(self.ctx, comp.elt, opaque=frozenset(bound), helpers=self._helpers)
        if zero_dim:
            self._report(node, [True])
        return zero_dim

    def finish(self) -> None:
        for node, verdicts, seq in self._pending:
            appended = self._appends.get(seq, [])
            if appended is None:
                continue
            verdicts = verdicts + appended
            if verdicts and all(verdicts):  # a list that also takes unknown values may be emptied of the 0-d ones
                self._report(node, verdicts)

    def _report(self, node: cst.Call, verdicts: list[bool]) -> None:
        fix = None
        if all(verdicts) and _dim_allows_stack(node):
            fix = self._fix(node)
        self.report(node, fix=fix)

    def _fix(self, node: cst.Call) -> Fix | None:
        func = node.func
        if type(func) is cst.Attribute:
            new_func: cst.BaseExpression = func.with_changes(attr=cst.Name("stack"))
        else:
            spelling = self.ctx.spelling("torch.stack")
            if spelling is None:
                return None
            new_func = cst.parse_expression(spelling)
        return Fix("Use `torch.stack`", ((node, node.with_changes(func=new_func)),))


def _element_verdicts(ctx: Context, elements: Sequence[cst.BaseElement], before: int | None,
                      helpers: Helpers) -> list[bool] | None:
    verdicts = []
    for element in elements:
        if type(element) is cst.StarredElement:
            return None
        verdicts.append(is_zero_dim(ctx, element.value, before, helpers=helpers))
    return verdicts


def _zero_dim_cat(ev: ShapeEvaluator, node: cst.CSTNode, before: int) -> str | None:
    """A `torch.cat` whose tensors the shape analysis knows are each 0-d, there or in the code a call runs."""
    if type(node) is not cst.Call or ev.ctx.qualname(node.func) not in CAT or not zero_dim_joined(ev, node, before):
        return None
    return f"`{ev.ctx.code(node)}` joins 0-d tensors: {CatOfScalars.message}"


def _dim_allows_stack(node: cst.Call) -> bool:
    """`stack` of 0-d tensors accepts only dim 0 / -1: other dims would turn one error into another."""
    dim = argument_of(node, "dim", 1)
    if dim is None:
        return True
    value = dim.value
    if type(value) is cst.UnaryOperation and type(value.operator) is cst.Minus:
        return type(value.expression) is cst.Integer and value.expression.value == "1"
    return type(value) is cst.Integer and value.value == "0"


def is_zero_dim(ctx: Context, expr: cst.BaseExpression, before: int | None = None,
                opaque: frozenset[str] = frozenset(), depth: int = 0, helpers: Helpers | None = None) -> bool:
    """`expr` is certainly a 0-d tensor. With `helpers`, also a call of a function of this file whose every
    `return` is one."""
    if depth > 12:
        return False
    kind = type(expr)
    if kind is cst.Call:
        return _call_is_zero_dim(ctx, expr, before, opaque, depth, helpers)
    if kind is cst.BinaryOperation and type(expr.operator) in _ARITHMETIC:
        left = is_zero_dim(ctx, expr.left, before, opaque, depth + 1, helpers)
        right = is_zero_dim(ctx, expr.right, before, opaque, depth + 1, helpers)
        # A 0-d tensor broadcast against anything but another 0-d tensor or a number takes its shape.
        return (left and (right or _is_number(ctx, expr.right, before))) or (right and _is_number(ctx, expr.left,
                                                                                                  before))
    if kind is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        return is_zero_dim(ctx, expr.expression, before, opaque, depth + 1, helpers)
    if kind is cst.Name or kind is cst.Attribute:
        if kind is cst.Name and expr.value in opaque:
            return False
        value, seq = ctx.value_of(expr, before)
        return value is not expr and is_zero_dim(ctx, value, seq, frozenset(), depth + 1, helpers)
    return False


def _call_is_zero_dim(ctx: Context, call: cst.Call, before: int | None, opaque: frozenset[str], depth: int,
                      helpers: Helpers | None) -> bool:
    func = call.func
    qualname = ctx.qualname(func)
    args = positional(call)
    if args is None:
        return False
    if helpers and qualname is None and _helper_is_zero_dim(ctx, func, before, helpers):
        return True
    if qualname is None and type(func) is cst.Attribute:
        receiver = func.value
        if ctx.is_foreign(receiver):
            return False
        method = func.attr.value
        if method in FULL_REDUCTIONS or method == "dot":
            if _reduces_along_dim(call) or type(receiver) is cst.Name and receiver.value == "self":
                return False  # `self.norm(h)` is a module's LayerNorm, not a reduction
            if method == "dot":
                return len(args) == 1
            if method in _ORDER_FIRST:  # `x.norm(2)`; `encoder.norm(h)` would be a layer
                return not args or len(args) == 1 and _is_order(ctx, args[0].value, before)
            return not args
        if method in _PRESERVING:
            return is_zero_dim(ctx, func.value, before, opaque, depth + 1, helpers)
        return _loss_module_call(ctx, func, before)
    if qualname is None:
        return type(func) is cst.Name and _loss_module_call(ctx, func, before)
    if qualname in _FUNCTION_REDUCTIONS:
        allowed = 2 if qualname.rsplit(".", 1)[1] in _ORDER_FIRST or qualname in ("torch.dot", "torch.vdot") else 1
        return 1 <= len(args) <= allowed and not _reduces_along_dim(call)
    if qualname in _SCALAR_TENSORS:
        return len(args) >= 1 and _is_number(ctx, args[0].value, before)
    if qualname.startswith("torch.nn.functional.") and qualname.rsplit(".", 1)[1] in _LOSS_FUNCTIONS:
        return len(args) <= 2 and _reducing(call)
    return False


def _helper_is_zero_dim(ctx: Context, func: cst.BaseExpression, before: int | None, helpers: Helpers) -> bool:
    """`compute_loss(p, y)` / `self.compute_loss(p, y)`: a function or method of this file (bound as such where it
    is called) whose every `return` gives a 0-d tensor."""
    if type(func) is cst.Name:
        binding = ctx.binding(func, before)
        if binding is None or binding.kind != "def":
            return False
        key = (0, func.value)
    elif type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self":
        if ctx.class_def is None:
            return False
        key = (id(ctx.class_def), func.attr.value)
    else:
        return False
    verdicts = helpers.get(key)
    return bool(verdicts) and all(verdicts)


def _is_order(ctx: Context, expr: cst.BaseExpression, before: int | None) -> bool:
    """A norm's order: `2`, `1.5`, `"fro"`, `float("inf")`."""
    if number_kind(expr) in ("int", "float") or string_value(expr) is not None:
        return True
    return is_builtin_call(ctx, expr, "float", before=before) and len(expr.args) == 1 and string_value(
        expr.args[0].value) is not None


def _reduces_along_dim(call: cst.Call) -> bool:
    return keyword_arg(call, "dim") is not None or keyword_arg(call, "axis") is not None


def _reducing(call: cst.Call) -> bool:
    """A loss call or module whose reduction gives one number (the default "mean", or "sum")."""
    if keyword_arg(call, "reduce") is not None or keyword_arg(call, "size_average") is not None:
        return False
    reduction = keyword_arg(call, "reduction")
    return reduction is None or string_value(reduction.value) in ("mean", "sum")


def _loss_module_call(ctx: Context, func: cst.BaseExpression, before: int | None) -> bool:
    """`criterion(...)` where `criterion = nn.CrossEntropyLoss()` (or `self.criterion`) with a reducing reduction."""
    module, seq = ctx.value_of(func, before)
    if type(module) is not cst.Call:
        return False
    qualname = ctx.qualname(module.func)
    if qualname is None or not qualname.startswith("torch.nn."):
        return False
    args = positional(module)
    return qualname.rsplit(".", 1)[1] in _LOSS_MODULES and args is not None and len(args) <= 1 and _reducing(module)


def _is_number(ctx: Context, expr: cst.BaseExpression, before: int | None) -> bool:
    """A Python number: a literal, an int expression, `float(...)`, `x.item()`."""
    if number_kind(expr) is not None or is_int(ctx, expr, before):
        return True
    if is_builtin_call(ctx, expr, "float", before=before):
        return True
    if type(expr) is cst.Name:
        value, seq = ctx.value_of(expr, before)
        return value is not expr and _is_number(ctx, value, seq)
    return (type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "item"
            and not expr.args)
