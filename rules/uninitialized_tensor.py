"""SC401 uninitialized-tensor: `torch.Tensor(3)` / `torch.FloatTensor(n)` with sizes, never initialized."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.syntax import dotted_name, keyword_arg, last_name, new_keyword_arg
from shapecheck.rules._tensor_facts import is_builtin_call, is_int, positional, string_value

# Legacy constructors: with integer arguments they allocate that shape without writing it.
_DTYPE_OF = {"Tensor": None, "FloatTensor": "float", "DoubleTensor": "double", "HalfTensor": "half",
             "BFloat16Tensor": "bfloat16", "ByteTensor": "uint8", "CharTensor": "int8", "ShortTensor": "short",
             "IntTensor": "int", "LongTensor": "long", "BoolTensor": "bool"}
CONSTRUCTORS = frozenset({f"torch.{name}" for name in _DTYPE_OF} | {f"torch.cuda.{name}" for name in _DTYPE_OF
                                                                     if name != "Tensor"})
_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                        "torch.nn.parameter.Buffer", "torch.autograd.Variable"})
# Functions that only read their tensor arguments (except `out=`).
_PURE_MODULES = frozenset({"torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft"})
# In-place methods that write no values.
_NOT_WRITING = frozenset({"requires_grad_", "resize_", "resize_as_", "share_memory_", "detach_", "retain_grad_"})

_MESSAGE = ("`{call}(...)` with sizes allocates uninitialized memory: use `torch.tensor(...)` for a value or "
            "`torch.empty(...)` for a buffer you fill")

# ("local", id(function), name), ("attr", id(class), attribute) or ("dotted", 0, "module.attribute")
Key = tuple[str, int, str]


@dataclass
class _Allocation:
    node: cst.Call
    keys: set[Key]
    class_id: int | None
    fix: Fix | None


class UninitializedTensor(Rule):
    code = "SC401"
    name = "uninitialized-tensor"
    severity = "error"  # the tensor holds uninitialised memory
    message = _MESSAGE.format(call="torch.Tensor")
    fixable = "safe"
    triggers = ("Tensor(",)
    docs = """
        ## What it does
        Finds the legacy constructors `torch.Tensor(...)`, `torch.FloatTensor(...)`, `torch.LongTensor(...)`
        (and the other typed ones) called with integer sizes (literals, `len(...)`, `x.size(i)`, `x.shape[i]`,
        names bound to ints, or two or more arguments) whose result is never initialized: not chained to
        `.uniform_()` / `.normal_()` / `.fill_()` / `.zero_()`, not passed to an `nn.init.*_` function, and not
        written later (an in-place method, `out=`, `x[...] = ...`, `reset_parameters()` in the same class).

        ## Why is this bad?
        The primer: "Uppercase torch.Tensor(2, 3) is the class constructor and treats integer args as shape",
        "torch.Tensor(3) gives you a length-3 tensor of garbage, not the scalar 3. Always use lowercase
        torch.tensor unless you have a specific reason." The garbage is whatever was in memory: often zeros,
        so the bug hides in tests and shows up as NaNs or nondeterminism later.

        Data arguments (`torch.Tensor([1, 2])`, `torch.FloatTensor(array)`, a name we can't prove is an int) are
        not reported.

        ## Example
        ```python
        scale = torch.Tensor(3)          # meant the scalar 3
        bias = nn.Parameter(torch.Tensor(out_features))   # never initialized
        ```

        ## Use instead
        ```python
        scale = torch.tensor(3.0)
        bias = nn.Parameter(torch.zeros(out_features))
        ```

        ## Fix
        Safe: the constructor becomes `torch.empty(...)` with the same sizes, with `dtype=` for typed
        constructors (`torch.LongTensor(n)` -> `torch.empty(n, dtype=torch.long)`) and `device="cuda"` for
        `torch.cuda.*Tensor`: the same allocation, now explicit about being uninitialized. It does not
        initialize anything: check whether `torch.tensor(...)` (a value) or an initializer (`torch.zeros`,
        `nn.init.*_`) was meant.
    """
    VALID = [
        """
        import torch
        from torch.nn import Parameter
        class AdditiveAttention(torch.nn.Module):
            def __init__(self, vector_dim: int, matrix_dim: int) -> None:
                super().__init__()
                self._w_matrix = Parameter(torch.Tensor(vector_dim, vector_dim))
                self._v_vector = Parameter(torch.Tensor(vector_dim, 1))
                self.reset_parameters()
            def reset_parameters(self):
                torch.nn.init.xavier_uniform_(self._w_matrix)
                torch.nn.init.xavier_uniform_(self._v_vector)
        """,
        """
        import torch
        def extend(num_embeddings, embedding_dim):
            weight = torch.FloatTensor(num_embeddings, embedding_dim)
            torch.nn.init.xavier_uniform_(weight)
            return weight
        """,
        """
        import torch
        embedding_matrix = torch.FloatTensor(vocab_size, embedding_dim).normal_(mean, std)
        """,
        """
        import torch
        pixel_mean = torch.Tensor(cfg.MODEL.PIXEL_MEAN).view(3, 1, 1)
        labels = torch.LongTensor(padded_tags)
        ids = torch.LongTensor([1, 2, 3])
        """,
        """
        import torch
        import torch.nn as nn
        class Embedding(nn.Module):
            def __init__(self, num_embeddings, embedding_dim, trainable=True):
                super().__init__()
                weight = torch.FloatTensor(num_embeddings, embedding_dim)
                self.weight = torch.nn.Parameter(weight, requires_grad=trainable)
                torch.nn.init.xavier_uniform_(self.weight)
        """,
        """
        import torch
        class Linear(torch.nn.Module):
            def __init__(self, in_features, out_features):
                super().__init__()
                self.weight = torch.nn.Parameter(torch.Tensor(out_features, in_features))
                self.bias = torch.nn.Parameter(torch.Tensor(out_features))
                self.reset_parameters()
            def reset_parameters(self):
                stdv = 1.0 / self.weight.size(1) ** 0.5
                self.weight.data.uniform_(-stdv, stdv)
                self.bias.data.uniform_(-stdv, stdv)
        """,
        """
        import torch
        def positions(size, device):
            return torch.cuda.LongTensor(size, device=device).fill_(1).cumsum(0) - 1
        """,
        """
        import torch
        buffer = torch.LongTensor(len(indices))
        torch.randperm(len(indices), out=buffer)
        """,
        """
        import torch
        table = torch.Tensor(len(vocab), dim)
        for i, word in enumerate(vocab):
            table[i] = vectors[word]
        """,
        """
        import numpy as np
        import torch
        x = np.ndarray(3)
        y = torch.Tensor(np.zeros(3))
        """,
        """
        import numpy as np
        import torch
        # a dummy input for tracing: only its shape matters
        torch.onnx.export(model, torch.Tensor(1, 3, 224, 224), "model.onnx")
        # garbage times NaN is a NaN placeholder of that shape
        targets = torch.Tensor(labels.shape[0]).view(-1, 1) * np.nan
        """,
        """
        import torch
        def furthest_point_sample(points, num_points, ext):
            B, N = points.size()[:2]
            output = torch.IntTensor(B, num_points).npu()
            temp = torch.FloatTensor(B, N).fill_(1e10).npu()
            ext.furthest_point_sampling_forward(points, temp, output, B, N, num_points)
            return output
        """,
        """
        import torch
        def asg_targets(emissions, targets):
            B, T = emissions.size(0), emissions.size(1)
            target = torch.IntTensor(B, T)
            for b in range(B):
                target[b][: len(targets[b])] = torch.IntTensor(targets[b])
            return target
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            scale = torch.Tensor(3)
            """,
            fixed="""
            import torch
            scale = torch.empty(3)
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def __init__(self, in_features: int, out_features: int):
                    super().__init__()
                    self.weight = nn.Parameter(torch.Tensor(out_features, in_features))
                    self.bias = nn.Parameter(torch.Tensor(out_features))
                    nn.init.kaiming_uniform_(self.weight)
            """,
            fixed="""
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def __init__(self, in_features: int, out_features: int):
                    super().__init__()
                    self.weight = nn.Parameter(torch.Tensor(out_features, in_features))
                    self.bias = nn.Parameter(torch.empty(out_features))
                    nn.init.kaiming_uniform_(self.weight)
            """,
        ),
        Invalid(
            """
            import torch
            def make_index(x):
                idx = torch.LongTensor(x.size(0))
                return x[idx]
            """,
            fixed="""
            import torch
            def make_index(x):
                idx = torch.empty(x.size(0), dtype=torch.long)
                return x[idx]
            """,
        ),
        Invalid(
            """
            import torch as th
            mask = th.cuda.ByteTensor(len(tokens), 4)
            """,
            fixed="""
            import torch as th
            mask = th.empty(len(tokens), 4, dtype=th.uint8, device="cuda")
            """,
        ),
        """
        from torch import FloatTensor
        noise = FloatTensor(batch_size, latent_dim)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._allocations: list[_Allocation] = []
        self._by_key: dict[Key, list[_Allocation]] = {}
        self._written: set[Key] = set()  # written, or handed to code that may write it
        self._classes_initialized: set[int] = set()

    # -------------------------------------------------------------------------------------------- allocations

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = last_name(func)
        if name.endswith("Tensor") and self.ctx.qualname(func) in CONSTRUCTORS:
            self._allocation(node)
        else:
            self._note_writes(node, name)

    def _allocation(self, node: cst.Call) -> None:
        sizes = positional(node)
        if not sizes or len(sizes) == 1 and not is_int(self.ctx, sizes[0].value):
            return  # no argument is an empty tensor; one argument that may be data is data
        if any(type(size.value) is cst.Integer and size.value.evaluated_value == 0 for size in sizes):
            return  # `nn.Parameter(torch.Tensor(0))`: an empty placeholder has no values to forget
        keys = self._destination()
        if keys is None:
            return
        class_def = self.ctx.class_def
        allocation = _Allocation(node, keys, id(class_def) if class_def is not None else None, self._fix(node))
        self._allocations.append(allocation)
        for key in keys:
            self._by_key.setdefault(key, []).append(allocation)

    def _destination(self) -> set[Key] | None:
        """Where the allocation's values go. None: nobody can be shown to read them unwritten (it is initialized
        on the spot, handed to other code, or only its shape and type are used). Else the names and attributes
        that hold it; empty when the garbage is read right here (`torch.LongTensor(b, n) % ntoken`)."""
        ancestors = self.ctx.ancestors
        current = ancestors[-1]
        i = len(ancestors) - 2
        while i >= 1:
            parent, grandparent = ancestors[i], ancestors[i - 1]
            kind = type(parent)
            if kind is cst.Attribute:
                if type(grandparent) is not cst.Call or grandparent.func is not parent:
                    return None  # `.shape`, `.dtype`
                if _writes_or_ignores_values(parent.attr.value):
                    return None
                # Any other method (`.cuda()`, `.npu()`, `.view(...)`, `.sum()`) hands on values derived from the
                # garbage: follow them to where they are written or read.
                current, i = grandparent, i - 2
                continue
            if kind is cst.Arg and type(grandparent) is cst.Call:
                if grandparent.args[0] is parent and self.ctx.qualname(grandparent.func) in _PARAMETER:
                    current, i = grandparent, i - 2
                    continue
                attribute = _registered(grandparent, parent)
                if attribute is not None and self.ctx.class_def is not None:
                    return {("attr", id(self.ctx.class_def), attribute)}
                return None  # filled by the callee, or a dummy input whose values don't matter (tracing)
            if kind is cst.Assign or kind is cst.AnnAssign:
                targets = [t.target for t in parent.targets] if kind is cst.Assign else [parent.target]
                keys = [self._key(target) for target in targets]
                return None if None in keys else set(keys)
            if kind is cst.BinaryOperation:
                other = parent.right if parent.left is current else parent.left
                return None if _is_nan(self.ctx, other) else set()  # garbage * nan is a NaN tensor on purpose
            if kind is cst.UnaryOperation or kind is cst.Comparison or kind is cst.ComparisonTarget:
                return set()
            return None
        return None

    def _fix(self, node: cst.Call) -> Fix | None:
        func = node.func
        qualname = self.ctx.qualname(func)
        on_cuda = qualname.startswith("torch.cuda.")
        root = func.value if type(func) is cst.Attribute else None
        if root is not None and on_cuda:
            root = root.value if type(root) is cst.Attribute else None
        if root is None or self.ctx.qualname(root) != "torch":
            spelling = self.ctx.spelling("torch")
            if spelling is None:
                return None
            root = cst.parse_expression(spelling)
        args = list(node.args)
        dtype = _DTYPE_OF[qualname.rsplit(".", 1)[1]]
        if dtype is not None:
            args.append(new_keyword_arg("dtype", cst.Attribute(value=root, attr=cst.Name(dtype))))
        if on_cuda and keyword_arg(node, "device") is None:
            args.append(new_keyword_arg("device", cst.SimpleString('"cuda"')))
        new = node.with_changes(func=cst.Attribute(value=root, attr=cst.Name("empty")), args=args)
        return Fix("Use `torch.empty(...)`", ((node, new),))

    # ------------------------------------------------------------------------------------------------- writes

    def _note_writes(self, node: cst.Call, name: str) -> None:
        """Remember what a call may write: its receiver for `w.uniform_()` / `w.data.fill_(0)`, its arguments
        for anything but torch's pure functions (`nn.init.normal_(w)`, `broadcast(w)`, `out=w`), the whole class
        for `self.reset_parameters()`."""
        ctx = self.ctx
        func = node.func
        if type(func) is cst.Attribute:
            receiver = func.value
            if _is_self(receiver) and ctx.class_def is not None:
                if name == "apply" or name.strip("_").startswith(("reset", "init")):
                    self._classes_initialized.add(id(ctx.class_def))
            elif _writes_or_ignores_values(name):
                self._written_to(receiver)
        if not node.args:
            return
        qualname = ctx.qualname(func)
        if qualname in _PARAMETER:
            return  # its holder is followed by `visit_Assign`
        registered = _registered(node, node.args[1]) if len(node.args) > 1 else None
        if registered is not None:
            self._alias(node.args[1].value, registered)
            return
        pure = qualname is not None and qualname.rsplit(".", 1)[0] in _PURE_MODULES
        for arg in node.args:
            if not pure or arg.keyword is not None and arg.keyword.value == "out":
                self._written_to(arg.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            written = target.target
            if type(written) is cst.Subscript:
                self._written_to(written)  # `target[b][:n] = ...`
                self._written_to(node.value)  # stored in a container: out of our sight
            elif type(written) is cst.Attribute and written.attr.value == "data":
                self._written_to(written)
        # `weight = torch.FloatTensor(n, d)` then `self.weight = Parameter(weight)`: both names hold it.
        for target in node.targets:
            if type(target.target) is not cst.Subscript:
                self._alias(node.value, target.target)

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:  # the caller may fill it
            values = node.value.elements if type(node.value) is cst.Tuple else [node.value]
            for value in values:
                self._written_to(value.value if isinstance(value, cst.BaseElement) else value)

    def _alias(self, value: cst.BaseExpression, target: cst.BaseExpression | str) -> None:
        source = self._key(_unwrap(self.ctx, value))
        if source not in self._by_key:
            return
        if isinstance(target, str):
            class_def = self.ctx.class_def
            key = ("attr", id(class_def), target) if class_def is not None else None
        else:
            key = self._key(target)
        if key is not None:
            for allocation in list(self._by_key[source]):
                allocation.keys.add(key)
                self._by_key.setdefault(key, []).append(allocation)

    def _written_to(self, expr: cst.BaseExpression) -> None:
        # A write through a view writes the tensor: `w.data.fill_(0)`, `w.narrow(1, 0, n).copy_(x)`, `w[i].zero_()`
        for _ in range(16):
            if type(expr) is cst.Call and type(expr.func) is cst.Attribute:
                expr = expr.func.value
            elif type(expr) is cst.Subscript:
                expr = expr.value
            elif type(expr) is cst.Attribute and expr.attr.value in ("data", "T", "mT"):
                expr = expr.value
            else:
                break
        key = self._key(expr)
        if key is None:
            return
        self._written.add(key)
        class_def = self.ctx.class_def
        if key[0] == "local" and class_def is not None:
            binding = self.ctx.binding(expr)
            if binding is not None and binding.kind == "for":  # `for p in self.parameters(): init(p)`
                self._classes_initialized.add(id(class_def))

    def _key(self, expr: cst.BaseExpression) -> Key | None:
        if type(expr) is cst.Name:
            return ("local", id(self.ctx.function), expr.value)
        if type(expr) is not cst.Attribute:
            return None
        if _is_self(expr.value):
            class_def = self.ctx.class_def
            return ("attr", id(class_def), expr.attr.value) if class_def is not None else None
        dotted = dotted_name(expr)  # `all_gather_list._buffer`: a module-wide name for it
        return ("dotted", 0, dotted) if dotted is not None else None

    def finish(self) -> None:
        for allocation in self._allocations:
            if allocation.keys & self._written:
                continue
            if allocation.class_id in self._classes_initialized and any(k[0] == "attr" for k in allocation.keys):
                continue
            call = self.ctx.code(allocation.node.func)
            self.report(allocation.node, _MESSAGE.format(call=call), allocation.fix)


def _writes_or_ignores_values(method: str) -> bool:
    """In-place writers (`uniform_`, `fill_`, `copy_`) and `new*` (a tensor kept only for its dtype and device)."""
    return method.endswith("_") and method not in _NOT_WRITING or method.startswith("new")


def _registered(call: cst.Call, arg: cst.Arg) -> str | None:
    """`self.register_buffer("name", <allocation>)` holds it in `self.name`."""
    func = call.func
    if (type(func) is cst.Attribute and _is_self(func.value)
            and func.attr.value in ("register_buffer", "register_parameter")
            and len(call.args) >= 2 and call.args[1] is arg):
        return string_value(call.args[0].value)
    return None


def _is_self(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "self"


def _is_nan(ctx: Context, expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.Call and is_builtin_call(ctx, expr, "float") and expr.args:
        return string_value(expr.args[0].value) in ("nan", "NaN")
    qualname = ctx.qualname(expr)
    return qualname is not None and qualname.rsplit(".", 1)[-1] in ("nan", "NaN", "NAN")


def _unwrap(ctx: Context, expr: cst.BaseExpression) -> cst.BaseExpression:
    """The tensor a value derives from: `Parameter(w)`, `w.to(device)`, `w.view(n, -1)` -> `w`."""
    for _ in range(8):
        if type(expr) is not cst.Call:
            break
        func = expr.func
        if ctx.qualname(func) in _PARAMETER and expr.args:
            expr = expr.args[0].value
        elif type(func) is cst.Attribute and ctx.qualname(func) is None:
            expr = func.value
        else:
            break
    return expr
