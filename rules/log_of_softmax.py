"""SC301 log-of-softmax: `softmax(x).log()` and `log(sigmoid(x))` instead of their stable fused forms."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.walker import walk
from shapecheck.shapes.activations import Activation, activation_input, activation_of, first_argument
from shapecheck.loops.autograd_saves import IN_PLACE_METHODS
from shapecheck.objects.tensor_facts import number_kind

LOG = frozenset({"torch.log", "torch.special.log"})


class LogOfSoftmax(Rule):
    code = "SC301"
    name = "log-of-softmax"
    severity = "error"  # `log` of an underflowed softmax is -inf: NaN losses
    message = "log of softmax is numerically unstable: use `log_softmax(..., dim=...)`"
    fixable = "safe"
    triggers = ("softmax", "sigmoid", "Softmax", "Sigmoid", "expit")
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds the log taken of a softmax or sigmoid output: `F.softmax(x, dim=-1).log()`,
        `torch.log(torch.softmax(x, 1))`, `x.softmax(-1).log()`, `torch.log(torch.sigmoid(x))`, also through a
        local name and with an epsilon added (`torch.log(probs + 1e-8)`); `torch.log(1 - torch.sigmoid(x))`; and
        a log taken through a one-line helper of the same file (`def safe_log(p): return torch.log(p + 1e-8)`).

        ## Why is this bad?
        Softmax underflows to exactly 0 for logits far below the maximum, and `log(0)` is `-inf`: the loss
        becomes `inf` or `nan` and training dies. `log_softmax` computes the same value as
        `x - logsumexp(x)`, which never underflows; adding an epsilon only hides the problem and biases the
        result. The primer: "`F.log_softmax(x, dim=-1)` — ALWAYS prefer over `softmax(x).log()` — numerically
        stable", and "`F.logsigmoid(x)` — log(sigmoid(x)) but stable". `1 - sigmoid(x)` is `sigmoid(-x)`, so
        `log(1 - sigmoid(x))` is `F.logsigmoid(-x)`: the other half of every hand-written binary cross-entropy.

        A log of a mixture of softmaxes (`torch.log(0.5 * p + 0.5 * q)`) has no fused form and is not reported.
        Nor is a log of a name whose tensor the code changes in place (`probs.clamp_(min=1e-6)`, `probs += eps`,
        `probs[probs == 0] = eps`) in the function that binds it: the log is then not known to be of the
        activation's output as it was made, as with `probs = probs.clamp(min=1e-6)`.

        ## Example
        ```python
        log_probs = F.softmax(logits, dim=-1).log()
        log_p = torch.log(torch.sigmoid(scores))
        ```

        ## Use instead
        ```python
        log_probs = F.log_softmax(logits, dim=-1)
        log_p = F.logsigmoid(scores)
        ```

        ## Fix
        Safe, when the softmax call is written inline with no epsilon: `softmax` becomes `log_softmax` in the
        same spelling (`F.`, `torch.`, method) with the same arguments; `log(sigmoid(x))` becomes
        `F.logsigmoid(x)` and `log(1 - sigmoid(x))` becomes `F.logsigmoid(-x)`, adding
        `import torch.nn.functional as F` when the file has no spelling for it.
    """
    VALID = [
        """
        import torch
        import torch.nn.functional as F
        # log(1 - p) of a probability that is not a sigmoid output, and of a softmax (no fused form)
        neg = torch.log(1 - keep_prob)
        rest = torch.log(1 - F.softmax(scores, dim=-1))
        def log_clamped(p):
            return torch.log(p.clamp(min=1e-6))
        def entropy(p):
            return -(p * torch.log(p)).sum(-1)
        h = entropy(torch.sigmoid(z))
        """,
        """
        import torch.nn.functional as F
        log_probs = F.log_softmax(logits, dim=-1)
        """,
        """
        import torch
        import torch.nn.functional as F
        # a mixture of two distributions has no fused log form
        mix = torch.log(0.5 * F.softmax(a, dim=-1) + 0.5 * F.softmax(b, dim=-1))
        """,
        """
        import torch
        probs = torch.softmax(logits, dim=-1)
        entropy = -(probs * torch.log_softmax(logits, dim=-1)).sum(-1)
        """,
        """
        import numpy as np
        import torch
        from scipy.special import softmax
        p = np.log(softmax(x))
        """,
        """
        import torch
        import tensorflow as tf
        y = tf.math.log(tf.nn.softmax(x))
        """,
        """
        import torch
        probs = torch.softmax(logits, dim=-1)
        probs = probs.clamp(min=1e-6)
        logp = torch.log(probs)
        """,
        """
        import torch
        x = torch.log(torch.exp(y).sum(-1))
        """,
        """
        import torch
        import torch.nn.functional as F
        # the probabilities are floored in place before the log: not the softmax's output as it was made
        def soft_dice_ce(logits, onehot, eps=1e-7):
            p = F.softmax(logits, dim=1)
            p.clamp_min_(eps)
            ce = -(onehot * torch.log(p)).sum(1).mean()
            inter = (p * onehot).sum((2, 3))
            return ce + 1 - (2 * inter / (p.sum((2, 3)) + onehot.sum((2, 3)))).mean()
        """,
        """
        import torch
        gate = torch.sigmoid(head(features))
        gate[gate > 1 - 1e-6] = 1 - 1e-6
        keep_nll = -torch.log(1 - gate).mean()
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            loss = -(y * torch.log(torch.sigmoid(z)) + (1 - y) * torch.log(1 - torch.sigmoid(z))).mean()
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            loss = -(y * F.logsigmoid(z) + (1 - y) * F.logsigmoid(-z)).mean()
            """,
            count=2,
        ),
        """
        import torch
        p = torch.sigmoid(scores)
        neg = torch.log(1.0 - p + 1e-7)
        """,
        """
        import torch
        def safe_log(x):
            return torch.log(x + 1e-8)
        def bce(logits, y):
            p = torch.sigmoid(logits)
            return -(y * safe_log(p)).mean()
        """,
        Invalid(
            """
            import torch
            def log(p):
                return torch.log(p)
            log_probs = log(torch.softmax(logits, dim=1))
            """,
            fixed="""
            import torch
            def log(p):
                return torch.log(p)
            log_probs = torch.log_softmax(logits, dim=1)
            """,
        ),
        Invalid(
            """
            import torch.nn.functional as F
            log_probs = F.softmax(logits, dim=-1).log()
            """,
            fixed="""
            import torch.nn.functional as F
            log_probs = F.log_softmax(logits, dim=-1)
            """,
        ),
        Invalid(
            """
            import torch as th
            y = th.log(th.softmax(x, 1))
            """,
            fixed="""
            import torch as th
            y = th.log_softmax(x, 1)
            """,
        ),
        Invalid(
            """
            import torch
            y = x.softmax(-1).log()
            """,
            fixed="""
            import torch
            y = x.log_softmax(-1)
            """,
        ),
        Invalid(
            """
            import torch
            from torch import nn
            y = nn.functional.softmax(x, dim=2).log()
            """,
            fixed="""
            import torch
            from torch import nn
            y = nn.functional.log_softmax(x, dim=2)
            """,
        ),
        Invalid(
            """
            import torch
            log_p = torch.log(torch.sigmoid(scores))
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            log_p = F.logsigmoid(scores)
            """,
        ),
        """
        import torch
        import torch.nn.functional as F
        probs = F.softmax(logits, dim=-1)
        loss = -torch.log(probs + 1e-8)[range(n), targets].mean()
        """,
        """
        import torch
        from torch.nn.functional import softmax
        p = softmax(z, dim=1)
        logp = p.log()
        """,
        """
        import torch
        # `p` is changed in place in another function, never in the one that takes the log
        def sharpen(p, temperature=0.5):
            p.pow_(1 / temperature)
            return p / p.sum(-1, keepdim=True)
        def nll(logits, target):
            p = torch.softmax(logits, dim=-1)
            return -torch.log(p).gather(1, target[:, None]).mean()
        """,
        """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.softmax = nn.Softmax(dim=-1)
            def forward(self, x):
                return torch.log(self.softmax(x))
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute and func.attr.value == "log" and not node.args:
            if self.ctx.qualname(func) is None and not self.ctx.is_foreign(func.value):
                self._check(node, func.value)
        elif self.ctx.qualname(func) in LOG:
            argument = first_argument(node, "input")
            if argument is not None:
                self._check(node, argument)
        elif type(func) is cst.Name and len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None:
            self._check_helper(node, func)

    def _check_helper(self, call: cst.Call, func: cst.Name) -> None:
        """`safe_log(torch.sigmoid(x))` with `def safe_log(p): return torch.log(p + 1e-8)` in the file."""
        binding = self.ctx.binding(func)
        if binding is None or binding.kind != "def":
            return
        definition = binding.statement
        params = definition.params
        if len(params.params) != 1 or isinstance(params.star_arg, cst.Param) or params.kwonly_params:
            return
        body = definition.body.body
        if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or len(body[0].body) != 1:
            return
        returned = body[0].body[0]
        if type(returned) is not cst.Return or type(returned.value) is not cst.Call:
            return
        log_argument = _log_argument(self.ctx, returned.value)
        if log_argument is None:
            return
        param, argument = params.params[0].name, call.args[0].value
        if type(log_argument) is cst.Name and log_argument.value == param.value:
            self._check(call, argument)
        elif (type(log_argument) is cst.BinaryOperation and type(log_argument.operator) is cst.Add
              and type(log_argument.left) is cst.Name and log_argument.left.value == param.value
              and number_kind(log_argument.right) is not None):  # `log(p + eps)`: never fixed, an epsilon is there
            self._check(call, log_argument.with_changes(left=argument))

    def _check(self, log_call: cst.Call, argument: cst.BaseExpression) -> None:
        inline = argument
        with_epsilon = False
        if type(argument) is cst.BinaryOperation and type(argument.operator) is cst.Add:
            # `softmax(x) + eps` is the same bug hidden; `w * softmax(a) + w * softmax(b)` is a mixture.
            left, right = argument.left, argument.right
            inline = left if self._term(left) else right
            other = right if inline is left else left
            if self._term(other) or _contains_product(other):
                return
            with_epsilon = True
        term = self._term(inline)
        if term is None or self._changed_in_place(inline.right if term[1] else inline):
            return
        activation, complement = term
        fix = None
        if activation.call is (inline.right if complement else inline) and not with_epsilon:
            fix = self._fix(log_call, activation, complement)
        if complement:
            self.report(log_call, "log(1 - sigmoid(x)) is numerically unstable: use `F.logsigmoid(-x)`", fix)
        elif activation.kind == "sigmoid":
            self.report(log_call, "log of sigmoid is numerically unstable: use `F.logsigmoid(x)`", fix)
        else:
            self.report(log_call, self.message, fix)

    def _term(self, expr: cst.BaseExpression) -> tuple[Activation, bool] | None:
        """A softmax or sigmoid output, or `1 - sigmoid(x)` (complement True), else None."""
        complement = (type(expr) is cst.BinaryOperation and type(expr.operator) is cst.Subtract
                      and _is_one(expr.left))
        activation = self._probabilities(expr.right if complement else expr)
        if activation is None or complement and activation.kind != "sigmoid":
            return None
        return activation, complement

    def _changed_in_place(self, expr: cst.BaseExpression) -> bool:
        """Whether `expr` is a name whose tensor the code that binds it changes in place: the function of its
        binding, or the whole module (a module fact) for a module-level name. Where in that code is not asked, so
        a change after the log silences it too (precision before recall)."""
        if type(expr) is not cst.Name:
            return False
        binding = self.ctx.binding(expr)
        if binding is None:
            return False
        function = next((node for node in reversed(binding.path) if type(node) is cst.FunctionDef), None)
        if function is None:
            changed = self.ctx.module_fact(_CHANGED_IN_PLACE, _statement_changes)
        else:
            changed = _tensors_changed_in(self.ctx.walk(function))
        return expr.value in changed

    def _probabilities(self, expr: cst.BaseExpression) -> Activation | None:
        activation = activation_of(self.ctx, expr)
        return activation if activation is not None and activation.kind in ("softmax", "sigmoid") else None

    def _fix(self, log_call: cst.Call, activation: Activation, complement: bool) -> Fix | None:
        source, func = activation.call, activation.call.func
        if activation.form not in ("function", "method") or type(func) is not cst.Attribute:
            return None  # a module, or a bare imported `softmax`: no same-family spelling
        if len(log_call.args) > 1:
            return None  # `torch.log(p, out=q)`: the fused call has nowhere to put `out`
        if activation.kind == "softmax":
            new = source.with_changes(func=func.with_changes(attr=cst.Name("log_softmax")))
            return Fix("Use `log_softmax`", ((log_call, new),))
        argument = activation_input(activation)
        if argument is None or len(source.args) != (0 if activation.form == "method" else 1):
            return None  # `*args`, `out=` or more: `logsigmoid(x)` would drop them
        if complement:  # 1 - sigmoid(x) == sigmoid(-x)
            argument = cst.UnaryOperation(cst.Minus(), argument if type(argument) in _ATOMS else
                                          argument.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
        spelling = self.ctx.spelling("torch.nn.functional.logsigmoid")
        imports: tuple[str, ...] = ()
        if spelling is None or spelling.startswith("torch.nn.functional."):
            # Prefer the conventional `F.` spelling, importing it when the name is free.
            if self.ctx.binding("F") is None:
                spelling, imports = "F.logsigmoid", ("import torch.nn.functional as F",)
            elif spelling is None:
                return None
        new = cst.Call(func=cst.parse_expression(spelling), args=[cst.Arg(argument)])
        return Fix("Use `F.logsigmoid`", ((log_call, new),), imports=imports)


_CHANGED_IN_PLACE = "tensors changed in place"  # the module fact's kind


def _statement_changes(statement: cst.CSTNode) -> frozenset[str]:
    """A top-level statement's part of the module fact, read from the statement alone: the editor server works it out
    again for an edited statement after the lint that first asked is over, so a part may not ask a lint's context."""
    return _tensors_changed_in(walk(statement))


def _tensors_changed_in(nodes: Iterable[cst.CSTNode]) -> frozenset[str]:
    """The plain names the code of `nodes` (a walk) changes the tensor of in place: `p.clamp_(...)`, `p += eps`, `p[mask] = eps`.
    The function form (`torch.clamp_(p, ...)`) is not read: its spelling is known only through the imports at a
    point, and a module fact holds no point."""
    changed: set[str] = set()
    for inner in nodes:
        kind = type(inner)
        if kind is cst.AugAssign or kind is cst.AssignTarget:
            target = inner.target  # type: ignore[attr-defined]
            if kind is cst.AssignTarget and type(target) is cst.Subscript:
                target = target.value
            elif kind is cst.AssignTarget:
                continue
            if type(target) is cst.Name:
                changed.add(target.value)
        elif kind is cst.Call:
            func = inner.func  # type: ignore[attr-defined]
            if type(func) is cst.Attribute and func.attr.value in IN_PLACE_METHODS and type(func.value) is cst.Name:
                changed.add(func.value.value)
    return frozenset(changed)


# Expressions that need no parentheses after a unary minus.
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)


def _is_one(expr: cst.BaseExpression) -> bool:
    """The literal 1 (`-1` is a number too, but not one)."""
    return type(expr) in (cst.Integer, cst.Float) and number_kind(expr) is not None \
        and float(expr.value.replace("_", "")) == 1.0  # type: ignore[attr-defined]


def _log_argument(ctx: Context, call: cst.Call) -> cst.BaseExpression | None:
    """What `torch.log(p)` / `p.log()` takes the log of."""
    func = call.func
    if type(func) is cst.Attribute and func.attr.value == "log" and not call.args:
        return None if ctx.qualname(func) is not None else func.value
    if ctx.qualname(func) in LOG and call.args and call.args[0].keyword is None:
        return call.args[0].value
    return None


def _contains_product(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.BinaryOperation and type(expr.operator) in (cst.Multiply, cst.Add, cst.Subtract)
