"""SC204 integer-requires-grad: `requires_grad=True` on a tensor that is certainly of an integer or bool dtype."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.syntax import keyword_arg, last_name
from shapecheck.engine.expected_errors import expects_error
from shapecheck.objects.tensor_facts import (DTYPE_KEEPING, argument_of, dtype_kind, dtype_source, explicit_dtype,
                                          is_int, is_literal_true, number_kind, positional)
from shapecheck.objects.callers import every_call_passes
from shapecheck.objects.command_line import integral_option
from shapecheck.objects.dims import Dim
from shapecheck.objects.stored import Key, attribute_path, every_construction_passes, read_path
from shapecheck.objects.values import Seq
from shapecheck.shapes.evaluator import evaluator, shape_of

_INTEGRAL = ("int", "bool")
_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# Creation functions whose default dtype is int64 whatever their arguments.
_ALWAYS_INT64 = frozenset({"torch.randint", "torch.randperm", "torch.tril_indices", "torch.triu_indices"})
# Methods whose result has an integer (or bool) dtype whatever the receiver's.
_INTEGRAL_METHODS = frozenset({"long", "int", "short", "byte", "char", "bool", "argmax", "argmin", "argsort",
                               "nonzero", "bincount"})


# A mixture of experts whose gate takes its prior from a nested config's int default; the VALID and INVALID examples
# differ only in the config the one construction passes.
_GATED_MOE = """
        from dataclasses import dataclass, field
        import torch
        from torch import nn
        @dataclass
        class GateConfig:
            n_experts: int = 4
            init_logits: list = field(default_factory=lambda: [0, 0, 0, 0])
        @dataclass
        class MoEConfig:
            d_model: int = 64
            gate: GateConfig = field(default_factory=GateConfig)
        class Gate(nn.Module):
            def __init__(self, gate_cfg, d_model):
                super().__init__()
                self.proj = nn.Linear(d_model, gate_cfg.n_experts)
                self.prior = nn.Parameter(torch.tensor(gate_cfg.init_logits))
            def forward(self, x):
                return torch.softmax(self.proj(x) + self.prior, -1)
        class MoE(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.gate = Gate(cfg.gate, cfg.d_model)
        moe = MoE(%s)
        """


class IntegerRequiresGrad(Rule):
    code = "SC204"
    name = "integer-requires-grad"
    severity = "error"  # `requires_grad` on an integer tensor raises
    message = ("integer and bool tensors can't require gradients: PyTorch raises \"Only Tensors of floating point "
               "and complex dtype can require gradients\"; use float data (`1.0`) or `dtype=torch.float32`")
    triggers = ("requires_grad", "Parameter(")
    scope = "statement"  # see Rule.scope
    gathered = ("_read_in_constructor",)
    docs = """
        ## What it does
        Finds `requires_grad=True` on a tensor whose dtype is certainly integer or bool:
        `torch.tensor([1, 2, 3], requires_grad=True)`, `torch.arange(5, requires_grad=True)`,
        `torch.randint(...)` / `torch.full((n,), 3)` with `requires_grad=True`, an integer or bool `dtype=`,
        `.requires_grad_()` or `.requires_grad = True` on such a tensor, and `nn.Parameter` of one. The dtype is
        also followed through the shape analysis: the indices of `torch.max(x, dim)` or `argmax`, integer
        arithmetic on them (`idx % w`, `idx // w`, `idx * 2 - 1`), a `stack` of such tensors, a helper's return.
        In a constructor, `torch.tensor(cfg.task_weights)` of its `cfg` parameter is integral when every
        construction of the class, in the file or in another module of the project, passes a config whose
        `task_weights` is a list of int literals there (a dataclass default `field(default_factory=lambda: [1,
        1])`), also through one more constructor handing down a part of its own config (`Gate(cfg.gate)` in
        `MoE.__init__(self, cfg)`, read at the constructions of `MoE`). A dict config is read the same way
        (`torch.tensor(opts["bin_init"])`, `BinHead(cfg["head"])`) when the code states it whole, also through a
        helper returning `copy.deepcopy(DEFAULTS)`: a dict it changes in place (overrides from the command line
        written into it) may hold anything. A command-line option converted by `type=int` whose default is an int
        or a list of ints (`--coeffs`, `type=int, nargs="+", default=[0, 1, 0]`) holds ints whatever the command
        line says (`PolyAct(args.coeffs)`, `Net(args)` handing `args.coeffs` on). A parameter defaulting to `None`
        that the constructor replaces (`numerator = DEFAULT_NUMERATOR if numerator is None else numerator`) holds
        that constant of its module where a construction leaves it None (`Rational()`). A plain function's parameter
        is read the same way at its calls, in any module of the project, one that passes nothing leaving the default
        (`def make_coefficients(values=(1, 2, 1))` called as `make_coefficients()`), and a reshape of the tensor
        keeps its dtype (`nn.Parameter(torch.tensor(kernel).view(1, 1, -1))`).

        ## Why is this bad?
        Autograd differentiates only floating-point and complex tensors; PyTorch raises
        "Only Tensors of floating point and complex dtype can require gradients". The primer:
        "torch.tensor([1, 2, 3]) is int64 (because the input is Python ints)", "autograd doesn't run on integer
        tensors — requires_grad=True raises if dtype is integral. Use torch.tensor([1.0, 2.0, 3.0]) or .float()."

        Any float literal in the data (`torch.tensor([1, 2.0])`, `torch.arange(0, 1, 0.1)`,
        `torch.full((2,), 3.0)`), a floating `dtype=`, or a Python float in the arithmetic (`idx * 4.0`, `idx + 0.5`,
        `idx / w`) makes the tensor float and is not reported; a number not known to be an int makes the dtype
        unknown, and unknown is not reported, nor is code
        that expects the error (under `pytest.raises` / `assertRaises`, or in a `try` that catches it).

        ## Example
        ```python
        w = torch.tensor([1, 2, 3], requires_grad=True)
        steps = torch.arange(10, requires_grad=True)
        ```

        ## Use instead
        ```python
        w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        steps = torch.arange(10, dtype=torch.float32, requires_grad=True)
        ```

        This rule has no fix: whether `1` meant `1.0` or the tensor should not require gradients is yours to
        decide.
    """
    VALID = [
        # a PINN's collocation grid: the step is a float attribute, so the range is float32
        """
        import torch
        class Net:
            def __init__(self):
                self.h = 0.1
                self.k = 0.1
                x = torch.arange(-1, 1 + self.h, self.h)
                t = torch.arange(0, 1 + self.k, self.k)
                self.X = torch.stack(torch.meshgrid(x, t)).reshape(2, -1).T
                self.X.requires_grad = True
        """,
        """
        import torch
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = torch.tensor([1, 2.0], requires_grad=True)
        """,
        """
        import torch
        t = torch.arange(0, 1, 0.1, requires_grad=True)
        s = torch.arange(5.0, requires_grad=True)
        u = torch.arange(5, dtype=torch.float32, requires_grad=True)
        """,
        """
        import torch
        import torch.nn as nn
        steps = nn.Parameter(torch.tensor(0), requires_grad=False)
        ids = torch.tensor([1, 2, 3]).requires_grad_(False)
        """,
        """
        import torch
        fill = torch.full((2,), 3.0, requires_grad=True)
        noise = torch.randint(0, 5, (3,), dtype=torch.float, requires_grad=True)
        """,
        """
        import torch
        x = torch.tensor(data, requires_grad=True)
        z = torch.zeros_like(ids, dtype=torch.float, requires_grad=True)
        """,
        """
        import torch
        labels = torch.randint(0, 10, (8,))
        onehot = torch.nn.functional.one_hot(labels, 10).float().requires_grad_()
        """,
        """
        import numpy as np
        import torch
        a = np.arange(5)
        b = torch.tensor([], requires_grad=True)
        """,
        # soft-argmax keypoints: expectations over a softmax, float
        """
        import torch
        def soft_argmax_2d(heatmaps, beta=100.0):
            n, j, h, w = heatmaps.shape
            probs = torch.softmax(beta * heatmaps.reshape(n, j, -1), dim=-1).reshape(n, j, h, w)
            xs = (probs.sum(dim=2) * torch.linspace(0, 1, w)).sum(dim=-1)
            ys = (probs.sum(dim=3) * torch.linspace(0, 1, h)).sum(dim=-1)
            points = torch.stack((xs, ys), dim=-1)
            points.requires_grad_()
            return points
        """,
        # argmax positions made float: by a cast, by a Python float (a stride), by a true division
        """
        import torch
        STRIDE = 4.0
        def peaks(score_map):
            n, c, h, w = score_map.shape
            flat = score_map.flatten(2).argmax(dim=2)
            grid = torch.stack((flat % w, flat // w), dim=2).float()
            grid.requires_grad = True
            scaled = flat * STRIDE
            scaled.requires_grad_()
            centers = (flat + 0.5) / w
            centers.requires_grad = True
            return grid, scaled, centers
        """,
        """
        import pytest
        import torch
        def test_integer_tensors_cannot_require_grad():
            with pytest.raises(RuntimeError, match="floating point"):
                torch.tensor([1, 2, 3], requires_grad=True)
        """,
        # Coefficients from a config: float defaults, int defaults every construction replaces with floats, or a
        # config read from a file.
        """
        import json
        from dataclasses import dataclass, field
        import torch
        from torch import nn
        @dataclass
        class LossConfig:
            weights: list = field(default_factory=lambda: [1.0, 0.5])
            margins: list = field(default_factory=lambda: [1, 2])
        class WeightedLoss(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.log_weights = nn.Parameter(torch.tensor(cfg.weights).log())
                self.margins = nn.Parameter(torch.tensor(cfg.margins))
        tuned = WeightedLoss(LossConfig(margins=[0.5, 1.5]))
        from_file = WeightedLoss(json.load(open("loss.json")))
        """,
        # A nested config's int default, replaced with floats by the one construction of the outer model.
        _GATED_MOE % "MoEConfig(gate=GateConfig(init_logits=[0.0, 0.0, 0.0, 0.0]))",
        # A dict config's int defaults: replaced with floats through another name before the construction, or
        # float defaults.
        """
        import torch
        from torch import nn
        OPTIONS = {"bins": {"count": 4, "centers": [0, 1, 2, 3]}, "smooth": {"taps": [1.0, 2.0, 1.0]}}
        class BinHead(nn.Module):
            def __init__(self, opts):
                super().__init__()
                self.centers = nn.Parameter(torch.tensor(opts["centers"]))
        class Smoother(nn.Module):
            def __init__(self, opts):
                super().__init__()
                self.taps = nn.Parameter(torch.tensor(opts["smooth"]["taps"]))
        def build():
            options = OPTIONS
            options["bins"]["centers"] = [0.5, 1.5, 2.5, 3.5]
            return BinHead(options["bins"]), Smoother(options)
        """,
    ]
    INVALID = [
        # A dict config's int defaults, a part of it handed down by the constructor of the model that builds the head.
        """
        import torch
        from torch import nn
        DEFAULTS = {"model": {"width": 32, "head": {"n_bins": 4, "bin_centers": [0, 2, 4, 6]}}, "lr": 1e-3}
        class BinHead(nn.Module):
            def __init__(self, spec):
                super().__init__()
                self.centers = nn.Parameter(torch.tensor(spec["bin_centers"]))
        class DepthNet(nn.Module):
            def __init__(self, spec):
                super().__init__()
                self.head = BinHead(spec["head"])
        def make_model():
            return DepthNet(DEFAULTS["model"])
        """,
        # A nested config's int default, handed down by the constructor of the model that builds the gate.
        _GATED_MOE % "MoEConfig()",
        # Learnable mixing coefficients from a config whose defaults are ints, made into a parameter in a constructor.
        """
        from dataclasses import dataclass, field
        import torch
        from torch import nn
        @dataclass
        class MixConfig:
            n_layers: int = 4
            layer_weights: list = field(default_factory=lambda: [1, 1, 1, 1])
        class ScalarMix(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.scalars = nn.Parameter(torch.tensor(config.layer_weights))
                self.gamma = nn.Parameter(torch.ones(1))
            def forward(self, layers):
                w = torch.softmax(self.scalars, 0)
                return self.gamma * sum(wi * layer for wi, layer in zip(w, layers))
        mix = ScalarMix(MixConfig())
        """,
        """
        import torch
        w = torch.tensor([1, 2, 3], requires_grad=True)
        """,
        """
        import torch
        t = torch.arange(5, requires_grad=True)
        """,
        """
        import torch
        fill = torch.full((2,), 3, requires_grad=True)
        """,
        """
        import torch
        mask = torch.ones(4, 4, dtype=torch.bool, requires_grad=True)
        """,
        """
        import torch
        idx = torch.randint(0, 10, (4,))
        idx.requires_grad_()
        """,
        """
        import torch
        x = torch.tensor([[1, 2], [3, 4]])
        x.requires_grad = True
        """,
        # a pose decoder's argmax positions, kept integer by `%` and `//`
        """
        import torch
        def get_max_preds(batch_heatmaps):
            n, j, h, w = batch_heatmaps.shape
            idx = batch_heatmaps.reshape(n, j, -1).argmax(dim=2)
            preds = torch.stack((idx % w, idx // w), dim=2)
            preds.requires_grad_(True)
            return preds
        """,
        """
        import torch
        codebook = torch.randn(512, 64)
        z = torch.randn(16, 64, requires_grad=True)
        _, index = torch.min(torch.cdist(z, codebook), dim=-1)
        index.requires_grad = True
        """,
        """
        import torch
        def sample_actions(logits):
            actions = logits.argmax(dim=-1) * 2 - 1
            return actions.requires_grad_()
        """,
        """
        import torch
        from torch import nn
        class Counter(nn.Module):
            def __init__(self):
                super().__init__()
                self.steps = nn.Parameter(torch.tensor(0))
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # tensors made of a constructor parameter's data, for `finish` to read at the class's constructions
        self._read_in_constructor: list[tuple[cst.CSTNode, cst.ClassDef, cst.FunctionDef, str,
                                              tuple[str | Key, ...]]] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute and func.attr.value == "requires_grad_":
            args = node.args
            if (not args or is_literal_true(args[0].value)) and self.ctx.qualname(func) is None:
                self._check(node, func.value)
            return
        requires_grad = keyword_arg(node, "requires_grad")
        if last_name(func) == "Parameter" and self.ctx.qualname(func) in _PARAMETER and node.args:
            if requires_grad is None or is_literal_true(requires_grad.value):
                self._check(node, node.args[0].value)
        elif requires_grad is not None and is_literal_true(requires_grad.value):
            self._check(node, node)

    def visit_Assign(self, node: cst.Assign) -> None:
        if not is_literal_true(node.value):
            return
        for target in node.targets:
            written = target.target
            if type(written) is cst.Attribute and written.attr.value == "requires_grad":
                self._check(node, written.value)

    def _check(self, node: cst.CSTNode, tensor: cst.BaseExpression) -> None:
        if expects_error(self.ctx):
            return
        if self._integral(tensor):
            self.report(node)
            return
        read = _constructor_data(self.ctx, tensor)
        if read is not None:
            self._read_in_constructor.append((node, *read))

    def finish(self) -> None:
        # `torch.tensor(cfg.task_weights)` in a constructor: every construction of the class, in this file or in
        # another module, passes a config (or list) whose value there is a list of int literals, as the objects
        # floor builds it (`field(default_factory=lambda: [1, 1])` of a dataclass)
        for node, *read in self._read_in_constructor:
            if _passed_integral(self.ctx, *read):
                self.report(node)

    def _integral(self, tensor: cst.BaseExpression) -> bool:
        """Stated here (`torch.arange(5)`), or followed by the shape analysis through the ops that keep an integer
        dtype (the indices of `torch.max(x, dim)`, `idx % w`, a `stack` of them, a helper's return)."""
        if integral_tensor(self.ctx, tensor):
            return True
        shape = shape_of(self.ctx, tensor)
        return shape is not None and shape.dtype in _INTEGRAL


def integral_tensor(ctx: Context, expr: cst.BaseExpression, before: int | None = None, depth: int = 0) -> bool:
    """`expr` is certainly a torch tensor of an integer or bool dtype."""
    if depth > 8:
        return False
    if type(expr) is cst.Name or type(expr) is cst.Attribute:
        value, seq = ctx.value_of(expr, before)
        return value is not expr and integral_tensor(ctx, value, seq, depth + 1)
    if type(expr) is not cst.Call:
        return False
    func = expr.func
    qualname = ctx.qualname(func)
    if qualname is None:
        if type(func) is not cst.Attribute or ctx.is_foreign(func.value):
            return False
        method = func.attr.value
        if method in _INTEGRAL_METHODS:
            return True
        if method in DTYPE_KEEPING:  # `torch.tensor([1, 2, 1]).view(1, 1, -1)`
            return integral_tensor(ctx, func.value, before, depth + 1)
        if method == "to":
            dtype = argument_of(expr, "dtype", 0)
            return dtype is not None and dtype_kind(ctx, dtype.value, before) in _INTEGRAL
        return False
    if not qualname.startswith("torch."):
        return False
    dtype = explicit_dtype(expr)
    if dtype is not None:
        return dtype_kind(ctx, dtype, before) in _INTEGRAL
    args = positional(expr)
    if args is None:
        return False
    if qualname in _ALWAYS_INT64:
        return True
    if qualname == "torch.tensor":
        return bool(args) and _integral_data(args[0].value)
    if qualname == "torch.arange":
        bounds = [a.value for a in args] + [a.value for a in expr.args if a.keyword is not None
                                            and a.keyword.value in ("start", "end", "step")]
        return bool(bounds) and all(is_int(ctx, bound, before) for bound in bounds)
    if qualname == "torch.full":
        fill = argument_of(expr, "fill_value", 1)
        return fill is not None and number_kind(fill.value) in _INTEGRAL
    return False


def _constructor_data(ctx: Context, tensor: cst.BaseExpression) -> tuple[
        cst.ClassDef, cst.FunctionDef, str, tuple[str | Key, ...], cst.BaseExpression | None] | None:
    """For `torch.tensor(cfg.task_weights)` (no `dtype=`) in `__init__(self, cfg)`: what `_parameter_read` says of
    its data, and what replaces the parameter where it is None (`numerator = DEFAULT_NUMERATOR if numerator is None
    else numerator`, then `torch.tensor(numerator)`); None for anything else."""
    call, seq = ctx.value_of(tensor)
    call = dtype_source(call)  # `torch.tensor(kernel).view(1, 1, -1)`
    if type(call) is not cst.Call or ctx.qualname(call.func) != "torch.tensor" or explicit_dtype(call) is not None:
        return None
    args = positional(call)
    if not args:
        return None
    replaced = _none_replaced(ctx, args[0].value, seq)
    if replaced is not None:
        function = ctx.function
        if function is None or not _read_at_calls(ctx, function) or replaced[0] is not function:
            return None
        return ctx.class_def, function, replaced[1], (), replaced[2]
    read = _parameter_read(ctx, args[0].value)
    return None if read is None else (*read, None)


def _none_replaced(ctx: Context, data: cst.BaseExpression, before: int | None
                   ) -> tuple[cst.CSTNode | None, str, cst.BaseExpression] | None:
    """For `numerator` bound by the idiom that replaces a parameter's `None` (`numerator = DEFAULT_NUMERATOR if
    numerator is None else numerator`, or `numerator if numerator is not None else DEFAULT_NUMERATOR`): the function
    whose parameter it is, its name and what replaces `None`."""
    value, seq = ctx.value_of(data, before) if type(data) is cst.Name else (data, before)
    if type(value) is not cst.IfExp:
        return None
    test, kept, replacement = value.test, value.orelse, value.body
    if type(test) is cst.Comparison and len(test.comparisons) == 1 \
            and type(test.comparisons[0].operator) is cst.IsNot:  # `coeffs if coeffs is not None else DEFAULT`
        kept, replacement = value.body, value.orelse
    elif type(test) is cst.Comparison and len(test.comparisons) == 1 \
            and type(test.comparisons[0].operator) is not cst.Is:
        return None
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 or type(kept) is not cst.Name \
            or type(test.left) is not cst.Name or test.left.value != kept.value \
            or type(test.comparisons[0].comparator) is not cst.Name or test.comparisons[0].comparator.value != "None":
        return None
    binding = ctx.binding(kept, seq)
    return (binding.statement, kept.value, replacement) if binding is not None and binding.kind == "param" else None


def _read_at_calls(ctx: Context, function: cst.FunctionDef) -> bool:
    """What `function`'s parameters hold is read at its calls: a constructor (at the constructions of its class) or
    a plain function of the module (at its calls, a call passing nothing leaving the default)."""
    if ctx.class_def is not None:
        return function.name.value == "__init__"
    return ctx.class_of_method(function) is None


def _parameter_read(ctx: Context, expr: cst.BaseExpression) -> tuple[cst.ClassDef | None, cst.FunctionDef, str,
                                                                       tuple[str | Key, ...]] | None:
    """For `cfg.neck.fusion_init` (or `cfg["neck"]["fusion_init"]`) read in `__init__(self, cfg)` where the context
    is: the class, its `__init__`, the parameter and the steps read from it (`("neck", "fusion_init")`); for a
    parameter of a plain function (`def make_coefficients(values=(1, 2, 1))`), no class. None for anything else."""
    function, class_def = ctx.function, ctx.class_def
    if function is None or not _read_at_calls(ctx, function):
        return None
    root, path = read_path(expr)
    binding = ctx.binding(root) if type(root) is cst.Name else None
    if binding is None or binding.kind != "param" or binding.statement is not function:
        return None
    return class_def, function, root.value, path  # type: ignore[attr-defined]  # a Name here


def _passed_integral(ctx: Context, class_def: cst.ClassDef | None, init: cst.FunctionDef, parameter: str,
                     path: tuple[str | Key, ...], replacement: cst.BaseExpression | None = None,
                     depth: int = 0) -> bool:
    """Every construction of the class passes for `parameter` an object whose attributes `path` hold a list of int
    literals there; an argument that is itself read from the constructor parameter of the class making the
    construction (`WeightedFusion(cfg.neck)` in `Neck.__init__(self, cfg)`) is read at that class's constructions,
    one level up. Where a construction leaves it None, `replacement` (read in the class's module) is what it holds."""
    default = False
    if replacement is not None:  # `Rational()` leaves `numerator=None`, replaced by a constant of its module
        with ctx.at(ctx.module_point()):
            default = _integral_value(evaluator(ctx).value(replacement))

    def holds(reader: Context, argument: cst.BaseExpression) -> bool:
        if replacement is not None and type(argument) is cst.Name and argument.value == "None":
            return default
        # `Head(cfg["head"])`: walked from `cfg`, so that a dict the code changes in place (a command line's
        # overrides written into it) is not read as its literal
        root, steps = read_path(argument)
        ev = evaluator(reader)
        if _integral_value(attribute_path(ev.value(root), steps + path)):
            return True
        # `PolyAct(args.coeffs)` of an option `type=int, nargs="+", default=[0, 1, 0]`: ints whatever the command line
        read = steps + path
        if type(root) is cst.Name and len(read) == 1 and isinstance(read[0], str) \
                and integral_option(ev, root, read[0], ev.now()):
            return True
        read = _parameter_read(reader, argument) if depth < 1 else None
        return read is not None and _passed_integral(reader, *read[:3], read[3] + path, depth=depth + 1)

    if class_def is None:  # a plain function's parameter, read at its calls
        return every_call_passes(ctx, init, parameter, holds, defaults=True)
    return every_construction_passes(ctx, class_def, init, parameter, holds)


def _integral_value(value: object) -> bool:
    """A list or tuple the objects floor knows whole, of int literals (or nested lists of them), one at least."""
    if isinstance(value, Seq):
        return value.complete and bool(value.items) and all(_integral_value(item) for item in value.items)
    return isinstance(value, Dim) and value.literal is not None


def _integral_data(data: cst.BaseExpression) -> bool:
    """Nested lists/tuples of int and bool literals, at least one of them (an empty list is float32)."""
    if type(data) is cst.List or type(data) is cst.Tuple:
        elements = data.elements
        return bool(elements) and all(type(e) is cst.Element and _integral_data(e.value) for e in elements)
    return number_kind(data) in _INTEGRAL
