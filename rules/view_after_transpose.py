"""SC101 view-after-transpose: `.view(...)` that merges dimensions a transpose or permute left out of memory order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import libcst as cst

from shapecheck.engine import Binding, Context, Fix, Invalid, Rule
from shapecheck.engine.syntax import keyword_arg
from shapecheck.rules._shape_facts import (CREATION, WILDCARD, Key, Size, argument, declared_shape, int_argument,
                                           literal_int, shape_arguments, size_of)

SWAPS = frozenset({"transpose", "swapaxes", "swapdims"})
SWAP_FUNCTIONS = frozenset({"torch.transpose", "torch.swapaxes", "torch.swapdims"})
MOVES = frozenset({"movedim", "moveaxis"})
MOVE_FUNCTIONS = frozenset({"torch.movedim", "torch.moveaxis"})
PERMUTING = SWAPS | MOVES | {"permute", "t"}
# Methods that keep the strides of a dense tensor (`preserve_format`), so a transposed layout survives them.
KEEP_LAYOUT = frozenset({"detach", "float", "half", "double", "bfloat16", "to", "clone", "requires_grad_"})
# Element-wise methods and functions: same rank, and a contiguous input gives a contiguous output.
ELEMENTWISE_METHODS = frozenset({"masked_fill", "masked_fill_", "softmax", "log_softmax", "relu", "sigmoid", "tanh",
                                 "exp", "abs", "neg", "sqrt", "rsqrt", "pow", "clamp", "mul", "div", "add", "sub"})
ELEMENTWISE_FUNCTIONS = frozenset(
    {f"torch.{name}" for name in ("softmax", "log_softmax", "relu", "sigmoid", "tanh", "exp", "abs", "sqrt")}
    | {f"torch.nn.functional.{name}" for name in ("softmax", "log_softmax", "relu", "gelu", "silu", "sigmoid",
                                                   "tanh", "dropout", "leaky_relu", "elu", "normalize")}
)
ELEMENTWISE_MODULES = frozenset(f"torch.nn.{name}" for name in ("Dropout", "ReLU", "GELU", "SiLU", "Sigmoid", "Tanh",
                                                                "Softmax", "Identity", "LeakyReLU"))
# torch modules whose output may be a transposed view of fresh memory (batch_first RNNs, attention).
PERMUTED_MODULES = frozenset(f"torch.nn.{name}" for name in ("LSTM", "GRU", "RNN", "MultiheadAttention"))
MATMUL = frozenset({"torch.matmul", "torch.mm"})
PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
PIECES = frozenset({"chunk", "split", "unbind", "tensor_split"})
LAYOUT_TESTS = ("is_contiguous", "stride", "memory_format")
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)

TAIL = -1  # the dimensions after the last one the code names, when the rank is unknown; kept in order


@dataclass(frozen=True, slots=True)
class Permutation:
    """One layout change: `swap` (a, b), `order` (the permute's dims), `move` (sources, destinations),
    `reverse` (`.T`), `matrix` (`.mT`, the last two) or `t` (`.t()`, the first two of at most two)."""

    kind: str
    dims: tuple[int, ...]
    moves_to: tuple[int, ...]
    spelled: str = ""

    def spelled_as(self, spelled: str) -> Permutation:
        return Permutation(self.kind, self.dims, self.moves_to, spelled)

    def rank(self) -> int | None:
        return len(self.dims) if self.kind == "order" else None

    def highest(self) -> int | None:
        """The largest dim it names when all are non-negative; None when it needs the rank."""
        if self.kind in ("reverse", "matrix") or any(d < 0 for d in self.dims + self.moves_to):
            return None
        return max(self.dims + self.moves_to, default=-1)

    def apply(self, order: list[int], rank: int | None) -> list[int] | None:
        """`order` (original dims, in this tensor's order) after this permutation; None when it can't be told."""
        size = len(order)
        dims = [_normalized(d, rank) for d in self.dims]
        moves_to = [_normalized(d, rank) for d in self.moves_to]
        if any(d is None or d >= size for d in dims + moves_to):
            return None
        if self.kind == "swap":
            result = list(order)
            result[dims[0]], result[dims[1]] = order[dims[1]], order[dims[0]]
            return result
        if self.kind == "order":
            return [order[d] for d in dims] if sorted(dims) == list(range(size)) else None
        if self.kind == "t":
            return list(reversed(order)) if size == 2 else list(order)
        if rank is None:
            return None
        if self.kind == "reverse":
            return list(reversed(order))
        if self.kind == "matrix":
            return order[:-2] + [order[-1], order[-2]] if size >= 2 else None
        # move: the moved dims land at their destinations, the others keep their order around them
        if len(set(dims)) != len(dims) or len(set(moves_to)) != len(moves_to) or len(dims) != len(moves_to):
            return None
        rest = iter(order[i] for i in range(size) if i not in dims)
        placed = dict(zip(moves_to, (order[d] for d in dims)))
        return [placed[i] if i in placed else next(rest) for i in range(size)]


@dataclass(slots=True)
class Trace:
    """How the tensor a `.view` reads came to be: the permutations (closest to the view first), the names it went
    through (binding id -> how many permutations lie between that name and the view) and the assignments followed."""

    permutations: list[Permutation] = field(default_factory=list)
    names: dict[int, int] = field(default_factory=dict)
    followed: list[Binding] = field(default_factory=list)
    root: cst.BaseExpression | None = None
    before: int | None = None
    settled: bool = False  # a `.contiguous()` lies between the root and the permutations


class ViewAfterTranspose(Rule):
    code = "SC101"
    name = "view-after-transpose"
    severity = "error"  # `.view` on a non-contiguous tensor raises
    message = "`.view(...)` merges dims that a transpose left non-contiguous: use `.reshape(...)` or " \
              "`.contiguous().view(...)`"
    fixable = "safe"
    triggers = (".view(",)
    docs = """
        ## What it does
        Finds `.view(...)` on a tensor whose layout was changed by `.transpose`, `.permute`, `.t()`, `.T`, `.mT`,
        `.swapaxes`/`.swapdims`, `.movedim` (or their `torch.*` forms), chained or through a local name, with no
        `.contiguous()` in between, when the view merges dimensions that are no longer adjacent in memory:
        `.view(-1)`, `.view(B, -1)` over the swapped dims, sizes taken from `.shape` that show the merge, or a view
        with fewer sizes than the permuted tensor has separate runs of memory (`(att @ v).transpose(1, 2).view(B,
        T, C)` on a 4-d tensor: four runs, three sizes), which must merge across one whatever the sizes are.

        Views that work are not reported: splitting one dimension (`x.transpose(1, 2).view(B, C, H, W)` from
        `B, N, C = x.shape`), merging dimensions the permute kept in order (`x.permute(0, 2, 3, 1).view(b, h * w,
        c)`), views that keep the shape, `.view(dtype)`, and views whose sizes can't be matched to dimensions. The
        tensor before the permutation must be one the code shows to be plain: a parameter, a fresh result (matmul,
        a module, a `view`/`reshape` of such), not a slice of a permuted tensor, an unpacked RNN output or a
        `scaled_dot_product_attention`/`einsum` result, which may come back as transposed views; a permute under
        `if t.is_contiguous(memory_format=...)` is taken to know what it does.

        ## Why is this bad?
        The primer: "view requires contiguous memory. After transpose or permute, the underlying storage layout no
        longer matches the logical shape. view will raise; either call .contiguous() first or use reshape (which
        calls contiguous internally if needed)." The error ("view size is not compatible with input tensor's size
        and stride") only appears at run time, often only for some shapes: a dimension of size 1 hides it in a
        test and the first real batch crashes.

        ## Example
        ```python
        B, N, C = x.shape
        y = x.transpose(1, 2).view(B, -1)  # merges dims 1 and 2 of the transposed tensor
        ```

        ## Use instead
        ```python
        y = x.transpose(1, 2).reshape(B, -1)
        # or
        y = x.transpose(1, 2).contiguous().view(B, -1)
        ```

        ## Fix
        Safe: `.view(...)` becomes `.reshape(...)` with the same arguments; it copies only when it has to.
    """
    VALID = [
        # nanoGPT: the merge comes after `.contiguous()`
        """
        import torch
        def merge_heads(y, B, T, C):
            return y.transpose(1, 2).contiguous().view(B, T, C)
        """,
        # Swin / PVT: splitting one dimension back into two is always a valid view
        """
        import torch
        def to_image(x, H, W):
            B, N, C = x.shape
            return x.transpose(1, 2).view(B, C, H, W)
        """,
        # NCHW -> NHWC, then merging H and W, which stay adjacent and in order
        """
        import torch
        def tokens(x):
            b, c, h, w = x.shape
            return x.permute(0, 2, 3, 1).view(b, h * w, c)
        """,
        # the same merge with `-1`
        """
        import torch
        def tokens(x):
            B, C, H, W = x.size()
            return x.permute(0, 2, 3, 1).view(B, -1, C)
        """,
        # same shape, only swapped back by name
        """
        import torch
        def time_major(x):
            B, T, C = x.shape
            y = x.transpose(0, 1)
            return y.view(T, B, C)
        """,
        # `.view(dtype)` reinterprets the bytes, it doesn't merge dims
        """
        import torch
        bits = weight.t().view(torch.int16)
        """,
        # a `.contiguous()` between, through a name
        """
        import torch
        def flat(x):
            x = x.transpose(1, 2)
            x = x.contiguous()
            return x.view(x.size(0), -1)
        """,
        # the sizes are arbitrary expressions: nothing shows which dims are merged
        """
        import torch
        def f(x, shape):
            return x.permute(0, 2, 1).view(shape[0], shape[1] // 2, -1)
        """,
        # numpy's `.view` is a dtype view and `.T` is free
        """
        import numpy as np
        import torch
        a = np.random.randn(4, 3).T.view(np.float32)
        """,
        # the transpose is in the other branch
        """
        import torch
        def f(x, batch_first):
            B = x.size(0)
            if batch_first:
                x = x.transpose(0, 1)
                return x.reshape(B, -1)
            else:
                return x.view(B, -1)
        """,
        # a batch_first LSTM hands back a transposed view: transposing it again makes it contiguous
        """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.LSTM(32, 64, batch_first=True)
            def forward(self, x):
                out, _ = self.rnn(x)
                T = out.size(1)
                return out.transpose(0, 1).view(T, -1)
        """,
        # apex: the permute is there to make a channels-last tensor contiguous
        """
        import torch
        def flat(param):
            if param.is_contiguous(memory_format=torch.channels_last):
                param = param.permute(0, 2, 3, 1)
            return param.detach().view(-1)
        """,
        # the permuted tensor was made by a view of a transposed one: the layouts cancel, nothing to tell
        """
        import torch
        def roundtrip(x, H, W):
            B, N, C = x.shape
            y = x.transpose(1, 2).view(B, C, H, W)
            return y.permute(0, 2, 3, 1).view(B, -1)
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            def flatten_tokens(x):
                B, N, C = x.shape
                return x.transpose(1, 2).view(B, -1)
            """,
            fixed="""
            import torch
            def flatten_tokens(x):
                B, N, C = x.shape
                return x.transpose(1, 2).reshape(B, -1)
            """,
        ),
        # the primer's own example
        Invalid(
            """
            import torch
            x = torch.randn(2, 3).transpose(0, 1)
            y = x.view(6)
            """,
            fixed="""
            import torch
            x = torch.randn(2, 3).transpose(0, 1)
            y = x.reshape(6)
            """,
        ),
        # merging heads back without `.contiguous()`
        Invalid(
            """
            import torch
            def merge_heads(y, B, T, n_head, head_dim):
                y = y.view(B, n_head, T, head_dim).transpose(1, 2)
                return y.view(B, T, n_head * head_dim)
            """,
            fixed="""
            import torch
            def merge_heads(y, B, T, n_head, head_dim):
                y = y.view(B, n_head, T, head_dim).transpose(1, 2)
                return y.reshape(B, T, n_head * head_dim)
            """,
        ),
        # attention heads merged back without `.contiguous()`: four runs of memory, three sizes
        Invalid(
            """
            import math
            import torch
            import torch.nn.functional as F
            def attention(q, k, v, B, T, C, nh):
                q = q.view(B, T, nh, C // nh).transpose(1, 2)
                k = k.view(B, T, nh, C // nh).transpose(1, 2)
                v = v.view(B, T, nh, C // nh).transpose(1, 2)
                att = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.size(-1)), dim=-1)
                y = att @ v
                return y.transpose(1, 2).view(B, T, C)
            """,
            fixed="""
            import math
            import torch
            import torch.nn.functional as F
            def attention(q, k, v, B, T, C, nh):
                q = q.view(B, T, nh, C // nh).transpose(1, 2)
                k = k.view(B, T, nh, C // nh).transpose(1, 2)
                v = v.view(B, T, nh, C // nh).transpose(1, 2)
                att = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.size(-1)), dim=-1)
                y = att @ v
                return y.transpose(1, 2).reshape(B, T, C)
            """,
        ),
        """
        import torch
        def pool(h):
            return h.permute(1, 0, 2).view(-1)
        """,
        """
        import torch as th
        def channels(x):
            b, c, h, w = x.size()
            return th.transpose(x, 1, 3).view(b, w * h * c)
        """,
        """
        import torch
        def last(x):
            B, T, C = x.shape
            y = x.mT
            return y.view(B, -1)
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value != "view" or not node.args:
            return
        if self.ctx.qualname(func) is not None:
            return
        trace = self._trace(func.value)
        if trace is None or not trace.permutations or self.ctx.is_foreign(func.value):
            return
        origin = self._origin(trace.root, trace.before)
        if not trace.settled and (origin is None or not origin.contiguous):
            return  # a tensor of unknown layout: the permutation may even make it contiguous (NHWC -> NCHW)
        verdict = self._verdict(node, trace, origin)
        if verdict is None or any(self.ctx.reach(binding) == "never" for binding in trace.followed):
            return
        if self._guarded_by_layout_test(trace.followed):
            return
        arguments = _arguments(self.ctx, node)
        spelled = " and ".join(f"`{p.spelled}`" for p in reversed(trace.permutations))
        message = f"`.view({arguments})` {verdict.format(spelled)}: use `.reshape(...)` or `.contiguous().view(...)`"
        new = node.with_changes(func=func.with_changes(attr=cst.Name("reshape")))
        self.report(node, message, Fix("Use `.reshape(...)`", ((node, new),)))

    def _guarded_by_layout_test(self, bindings: Sequence[Binding]) -> bool:
        """A permutation made under `if t.is_contiguous(memory_format=torch.channels_last):` (or another test of
        strides) is there to make the tensor contiguous: the code knows its layout better than we do."""
        statements = {id(binding.statement) for binding in bindings}
        if not statements:
            return False
        for node in self.ctx.walk(self.ctx.function or self.ctx.module):
            if type(node) is cst.If and any(word in self.ctx.code(node.test) for word in LAYOUT_TESTS):
                if any(id(inner) in statements for inner in self.ctx.walk(node.body)):
                    return True
        return False

    # ------------------------------------------------------------------------------------------------ the trace

    def _trace(self, expr: cst.BaseExpression) -> Trace | None:
        """Walk back from the tensor a view reads, collecting permutations, to where the chain leaves what is known
        (a call, a parameter); None when a permutation can't be read (`x.permute(*dims)`). Past a `.contiguous()`
        (which settles the layout) only names are collected, to tell the shape."""
        ctx = self.ctx
        trace = Trace()
        before: int | None = None
        for _ in range(32):
            kind = type(expr)
            if kind is cst.Name or _is_self_attribute(expr):
                binding = ctx.binding(expr, before)
                if binding is None:
                    break
                trace.names[id(binding)] = len(trace.permutations)
                if binding.kind != "assign" or binding.value is None:
                    break
                trace.followed.append(binding)
                expr, before = binding.value, binding.seq
                continue
            if kind is cst.Attribute and expr.attr.value in ("T", "mT") and ctx.qualname(expr) is None:
                if trace.settled:
                    break
                name = expr.attr.value
                trace.permutations.append(Permutation("reverse" if name == "T" else "matrix", (), (), "." + name))
                expr = expr.value
                continue
            if kind is not cst.Call:
                break
            func = expr.func
            if type(func) is cst.Attribute and func.attr.value == "contiguous" and not expr.args:
                if not trace.permutations:
                    break
                trace.settled = True
                expr = func.value
                continue
            step = self._step(expr)
            if step is None or trace.settled and (step is False or step[0] is not None):
                break
            if step is False:
                return None
            permutation, expr = step
            if permutation is not None:
                trace.permutations.append(permutation)
        trace.root, trace.before = expr, before
        return trace

    def _step(self, call: cst.Call) -> tuple[Permutation | None, cst.BaseExpression] | Literal[False] | None:
        """One call of the chain: (its permutation, or None when it keeps the layout; its input tensor); False when
        it permutes in a way that can't be read; None when the chain ends here."""
        func = call.func
        if type(func) is cst.Attribute and self.ctx.qualname(func) is None:
            method, tensor = func.attr.value, func.value
            if method in KEEP_LAYOUT:
                return None if keyword_arg(call, "memory_format") is not None else (None, tensor)
            offset = 0
        else:
            method = _FUNCTION_METHODS.get(self.ctx.qualname(func) or "")
            if method is None:
                return None
            tensor = argument(call, 0, "input")
            if tensor is None:
                return False
            offset = 1
        if method in SWAPS:
            first = int_argument(call, offset, "dim0" if method != "swapaxes" else "axis0")
            second = int_argument(call, offset + 1, "dim1" if method != "swapaxes" else "axis1")
            permutation = Permutation("swap", (first, second), ()) if first is not None and second is not None \
                else None
        elif method == "permute":
            dims = _ints(call.args[offset:]) if len(call.args) > offset + 1 else None
            if dims is None:
                listed = argument(call, offset, "dims")
                dims = _ints_of(listed) if listed is not None else None
            permutation = Permutation("order", dims, ()) if dims else None
        elif method == "t":
            permutation = Permutation("t", (0, 1), ()) if len(call.args) == offset else None
        elif method in MOVES:
            sources = _ints_of(argument(call, offset, "source"))
            targets = _ints_of(argument(call, offset + 1, "destination"))
            permutation = Permutation("move", sources, targets) if sources and targets else None
        else:
            return None
        if permutation is None:
            return False
        return permutation.spelled_as(f"{self._callee(call)}({_arguments(self.ctx, call)})"), tensor

    def _callee(self, call: cst.Call) -> str:
        func = call.func
        if type(func) is cst.Attribute and self.ctx.qualname(func) is None:
            return "." + func.attr.value
        return self.ctx.code(func)

    # ------------------------------------------------------------------------------------------- the origin

    def _origin(self, expr: cst.BaseExpression, before: int | None, depth: int = 0) -> Origin | None:
        """What the code shows about the layout and rank of the tensor `expr` evaluates to; None when it can't be
        told (an unpacked tuple, a subscript, einsum or attention output, which may be permuted views)."""
        if depth > 16:
            return None
        kind = type(expr)
        if kind is cst.Name or _is_self_attribute(expr):
            binding = self.ctx.binding(expr, before)
            if binding is None or binding.value is None and binding.kind != "param":
                return None
            if binding.kind == "param":
                return Origin(True)  # callers pass ordinary tensors; a permuted argument is their business
            if binding.kind == "assign":
                return self._origin(binding.value, binding.seq, depth + 1)
            if binding.kind == "unpack" and not binding.starred and type(binding.value) is cst.Call:
                return self._piece(binding.value, binding.seq, depth)
            return None
        if kind is cst.BinaryOperation:
            return self._operation(expr, before, depth)
        if kind is cst.Subscript:
            return self._subscript(expr, before, depth)
        if kind is cst.Call:
            return self._call_origin(expr, before, depth)
        return None

    def _call_origin(self, call: cst.Call, before: int | None, depth: int) -> Origin | None:
        ctx = self.ctx
        func = call.func
        qualname = ctx.qualname(func)
        if qualname is None and type(func) is cst.Attribute and not _is_self_attribute(func):
            method, tensor = func.attr.value, func.value
            if method in ("view", "reshape"):
                args = shape_arguments(call, "size" if method == "view" else "shape")
                if args is None:
                    return None
                inner = self._origin(tensor, before, depth + 1)
                return Origin(inner is not None and inner.contiguous, len(args), True)
            inner = self._origin(tensor, before, depth + 1)
            if method == "contiguous" and not call.args:
                return Origin(True, inner.rank, inner.exact) if inner is not None else Origin(True)
            if inner is None:
                return None
            if method in PERMUTING:
                return Origin(False, inner.rank, inner.exact)
            if method in KEEP_LAYOUT or method in ELEMENTWISE_METHODS:
                return inner
            if method == "unsqueeze":
                return inner.plus(1)
            if method == "flatten":
                start = int_argument(call, 0, "start_dim", 0)
                end = int_argument(call, 1, "end_dim", -1)
                if start is None or end is None or inner.rank is None or not inner.exact:
                    return Origin(inner.contiguous)
                first, last = _normalized(start, inner.rank), _normalized(end, inner.rank)
                return inner.plus(first - last) if first is not None and last is not None else None
            return None
        if qualname is not None:
            if qualname in CREATION:
                args = shape_arguments(call)
                return Origin(True, len(args), True) if args is not None else Origin(True)
            if qualname == "torch.bmm":
                return Origin(True, 3, True)
            if qualname in MATMUL:
                return self._matmul(argument(call, 0, "input"), argument(call, 1, "other"), before, depth)
            if qualname in ELEMENTWISE_FUNCTIONS or qualname in PARAMETER:
                tensor = argument(call, 0, "input" if qualname not in PARAMETER else "data")
                return self._origin(tensor, before, depth + 1) if tensor is not None else None
            if qualname == "torch.nn.functional.linear":
                inner = self._origin(argument(call, 0, "input"), before, depth + 1) if call.args else None
                return Origin(True, inner.rank if inner else None, inner.exact if inner else False)
            return None
        # A module or a function of the project: its result is a fresh tensor unless it is one of torch's modules
        # known to hand back a transposed view.
        module, _ = ctx.value_of(func)
        module_name = ctx.qualname(module.func) if type(module) is cst.Call else None
        if module_name in ELEMENTWISE_MODULES:
            tensor = argument(call, 0, "input")
            return self._origin(tensor, before, depth + 1) if tensor is not None else None
        if module_name in PERMUTED_MODULES:
            return None
        return Origin(True)

    def _operation(self, expr: cst.BinaryOperation, before: int | None, depth: int) -> Origin | None:
        if type(expr.operator) is cst.MatrixMultiply:
            return self._matmul(expr.left, expr.right, before, depth)
        if type(expr.operator) not in ARITHMETIC:
            return None
        sides = [self._origin(side, before, depth + 1) for side in (expr.left, expr.right)]
        # An operand that can't be told (`1.0 / math.sqrt(d)`, `self.scale`) is taken for a scalar.
        known = [side for side in sides if side is not None]
        if not known:
            return None
        ranks = [side.rank for side in known if side.rank is not None]
        # Broadcasting may add leading dims: the rank is exact only when both sides agree on it.
        exact = len(ranks) == 2 and ranks[0] == ranks[1] and all(side.exact for side in known)
        return Origin(all(side.contiguous for side in known), max(ranks, default=None), exact)

    def _matmul(self, left: cst.BaseExpression | None, right: cst.BaseExpression | None, before: int | None,
                depth: int) -> Origin | None:
        if left is None or right is None:
            return None
        ranks = [o.rank if o is not None else None for o in (self._origin(left, before, depth + 1),
                                                                 self._origin(right, before, depth + 1))]
        known = [rank for rank in ranks if rank is not None]
        if len(known) == 2 and min(known) >= 2:
            return Origin(True, max(known), known[0] == known[1])
        if len(known) == 1 and known[0] >= 2:
            return Origin(True, known[0] - 1)  # the other side may be a vector, which drops a dim
        return Origin(True)

    def _piece(self, call: cst.Call, before: int | None, depth: int) -> Origin | None:
        """`a, b = t.chunk(2, dim=-1)` / `.split(...)` / `.unbind(0)`: slices of `t`. Slicing only makes merges
        harder, so a slice of a contiguous tensor can be treated as contiguous when proving a view fails."""
        func = call.func
        if type(func) is not cst.Attribute or self.ctx.qualname(func) is not None or func.attr.value not in PIECES:
            return None
        inner = self._origin(func.value, before, depth + 1)
        if inner is None:
            return None
        return inner.plus(-1) if func.attr.value == "unbind" else inner

    def _subscript(self, expr: cst.Subscript, before: int | None, depth: int) -> Origin | None:
        """`t[0]`, `t[:, :n]`: basic indexing, a slice of `t` (see `_piece`); None for anything fancier."""
        dropped = 0
        for element in expr.slice:
            index = element.slice
            if type(index) is cst.Index:
                if literal_int(index.value) is None:
                    return None
                dropped += 1
            elif type(index) is not cst.Slice:
                return None
        inner = self._origin(expr.value, before, depth + 1)
        return inner.plus(-dropped) if inner is not None else None

    # ------------------------------------------------------------------------------------------- the verdict

    def _verdict(self, view: cst.Call, trace: Trace, origin: Origin | None) -> str | None:
        """Why the view can't work, as a message with `{}` for the permutations; None when it may work or its
        sizes can't be read."""
        args = shape_arguments(view)
        if args is None:
            return None
        permutations = list(reversed(trace.permutations))  # in the order they are applied
        depth = len(permutations)
        ranks: set[int] = {r for r in (p.rank() for p in permutations) if r is not None}
        if origin is not None and origin.exact and origin.rank is not None:
            ranks.add(origin.rank)

        def dim_ref(binding: Binding, index: int, rank: int | None) -> Key | None:
            seen = trace.names.get(id(binding))
            if seen is None:
                return None
            if rank is not None:
                ranks.add(rank)
            return ("stage", depth - seen, index)

        root = trace.root
        base = declared_shape(self.ctx, root, trace.before, dim_ref) if type(root) is cst.Call else None
        if base is not None:
            ranks.add(len(base))
        sizes = [size_of(self.ctx, arg, None, dim_ref) for arg in args]
        if sizes.count(WILDCARD) > 1 or len(ranks) > 1:
            return None
        rank = next(iter(ranks), None)
        order = _initial_order(permutations, rank, origin.rank if origin is not None else None)
        if order is None:
            return None
        stages = [order]
        for permutation in permutations:
            order = permutation.apply(order, rank)
            if order is None:
                return None
            stages.append(order)
        dims = [_Dim(d, base[d] if base is not None and d != TAIL else None) for d in order]
        merged = _misaligned(dims, [_resolve(size, stages, rank) for size in sizes])
        if merged is not None:
            return f"merges dims {_listed(merged)}, which {{}} left non-contiguous"
        runs = _runs(dims)
        wanted = sum(1 for size in sizes if size != Size(1))  # a new size-1 dim separates nothing
        if len(runs) > wanted:
            shown = " | ".join(", ".join(str(i) for i in run) for run in runs)
            return (f"must merge dims that {{}} left non-contiguous: it has {wanted} size{'s' if wanted > 1 else ''}"
                    f" for {len(runs)} separate runs of memory (dims {shown})")
        return None


_FUNCTION_METHODS = {
    **{name: name.rsplit(".", 1)[1] for name in SWAP_FUNCTIONS | MOVE_FUNCTIONS},
    "torch.permute": "permute",
    "torch.t": "t",
}


@dataclass(frozen=True, slots=True)
class Origin:
    """What the code shows about a tensor: whether its memory is in plain row-major order, and its rank, exact or
    only a lower bound (broadcasting may add leading dims)."""

    contiguous: bool
    rank: int | None = None
    exact: bool = False

    def plus(self, dims: int) -> Origin | None:
        if self.rank is None:
            return Origin(self.contiguous)
        return Origin(self.contiguous, self.rank + dims, self.exact) if self.rank + dims >= 0 else None


@dataclass(frozen=True, slots=True)
class _Dim:
    original: int  # the dim's position before any permutation
    size: Size | None

    @property
    def unit(self) -> bool:
        return self.size is not None and self.size.coef == 1 and not self.size.factors


def _is_self_attribute(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"


def _arguments(ctx: Context, call: cst.Call) -> str:
    return ", ".join((f"{arg.keyword.value}=" if arg.keyword else "") + arg.star + ctx.code(arg.value)
                     for arg in call.args)


def _listed(dims: Sequence[int]) -> str:
    names = [str(d) for d in dims]
    return " and ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _normalized(dim: int, rank: int | None) -> int | None:
    if dim >= 0:
        return dim
    return dim + rank if rank is not None and dim + rank >= 0 else None


def _ints(args: Sequence[cst.Arg]) -> tuple[int, ...] | None:
    values = [literal_int(arg.value) if not arg.star and arg.keyword is None else None for arg in args]
    return None if None in values else tuple(values)


def _ints_of(expr: cst.BaseExpression | None) -> tuple[int, ...] | None:
    single = literal_int(expr)
    if single is not None:
        return (single,)
    if type(expr) not in (cst.Tuple, cst.List):
        return None
    values = [literal_int(element.value) if type(element) is cst.Element else None for element in expr.elements]
    return None if None in values else tuple(values)


def _initial_order(permutations: Sequence[Permutation], rank: int | None, at_least: int | None) -> list[int] | None:
    """The dims before any permutation: all of them when the rank is known, else those the code names followed by
    TAIL."""
    if rank is not None:
        return list(range(rank))
    if any(p.kind == "t" for p in permutations):
        return [0, 1]  # `.t()` works on at most two dims; on one it changes nothing and needs no check
    highest = [p.highest() for p in permutations]
    if None in highest:
        return None
    return list(range(max(max(highest) + 1, at_least or 0))) + [TAIL]


def _resolve(size: Size | str | None, stages: list[list[int]], rank: int | None) -> Size | str | None:
    """Turn references to a dim of a named stage of the chain (`B` from `B, N, C = x.shape`) into the dim's
    position before any permutation."""
    if size is None or size == WILDCARD:
        return size
    factors = []
    for factor in size.factors:
        if type(factor) is tuple and factor[0] == "stage":
            _, stage, index = factor
            position = _normalized(index, rank)
            order = stages[stage]
            if position is None or position >= len(order) or order[position] == TAIL:
                return None
            factor = ("base", order[position])
        factors.append(factor)
    return Size(size.coef, tuple(factors))


def _misaligned(dims: Sequence[_Dim], sizes: Sequence[Size | str | None]) -> list[int] | None:
    """The dims one size of the view takes that are not adjacent and in order in memory; None when every size
    takes dims that are, or when the sizes can't be matched to dims."""
    if None in sizes:
        return None
    groups = _groups(dims, sizes)
    units = {dim.original for dim in dims if dim.unit}
    for start, end in groups or ():
        real = [i for i in range(start, end) if not dims[i].unit and dims[i].original != TAIL]
        if any(not _follows(dims[a].original, dims[b].original, units) for a, b in zip(real, real[1:])):
            return real
    return None


def _follows(first: int, second: int, units: set[int]) -> bool:
    """Dim `second` comes right after dim `first` in memory: nothing but size-1 dims between them."""
    return second > first and all(between in units for between in range(first + 1, second))


def _runs(dims: Sequence[_Dim]) -> list[list[int]]:
    """The dims split where the next one does not follow in memory; size-1 dims and TAIL don't split."""
    runs: list[list[int]] = []
    previous: int | None = None
    units = {dim.original for dim in dims if dim.unit}
    for i, dim in enumerate(dims):
        if dim.unit or dim.original == TAIL:
            continue
        if previous is None or not _follows(previous, dim.original, units):
            runs.append([])
        runs[-1].append(i)
        previous = dim.original
    return runs


def _groups(dims: Sequence[_Dim], sizes: Sequence[Size | str]) -> list[tuple[int, int]] | None:
    """Which dims each size of the view takes, as (start, end) ranges, the `-1` taking what the others leave;
    None when a size doesn't match the dims in front of it."""
    wildcard = sizes.index(WILDCARD) if WILDCARD in sizes else len(sizes)
    groups = []
    cursor = 0
    for size in sizes[:wildcard]:
        end = _take(dims, cursor, size, 1)
        if end is None:
            return None
        groups.append((cursor, end))
        cursor = end
    closed = all(d.original != TAIL for d in dims)
    if wildcard == len(sizes):
        rest = dims[cursor:]
        return groups if closed and all(d.unit for d in rest) else None
    right = len(dims)
    for size in reversed(sizes[wildcard + 1:]):
        if not closed:
            return None
        start = _take(dims, right - 1, size, -1)
        if start is None or start + 1 < cursor:
            return None
        groups.append((start + 1, right))
        right = start + 1
    groups.append((cursor, right))
    return groups


def _take(dims: Sequence[_Dim], cursor: int, size: Size, step: int) -> int | None:
    """Consume dims from `cursor` (forward with step 1, backward with -1) until their sizes make `size`; the index
    after the last one taken, or None when they don't."""
    factors = Counter(size.factors)
    coef = size.coef
    while factors or coef != 1:
        if not 0 <= cursor < len(dims):
            return None
        dim = dims[cursor]
        own = ("base", dim.original)
        if factors[own]:
            factors[own] -= 1
        elif dim.size is not None and coef % dim.size.coef == 0 and not Counter(dim.size.factors) - factors:
            coef //= dim.size.coef
            factors.subtract(dim.size.factors)
        else:
            return None
        factors = +factors
        cursor += step
    return cursor
