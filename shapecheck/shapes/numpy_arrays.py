"""The shapes of numpy arrays the code makes and hands to torch (`torch.from_numpy(np.random.rand(100, 3))`).

Arrays are not tensors to the rest of the analysis: numpy's methods differ from torch's under the same names
(`a.sum(axis=1)`, `a.repeat(3)`, `a.view(np.float32)`), so only what is read here is known, at the point the array
becomes a tensor: numpy's constructors (`zeros`, `ones`, `empty`, `full`, `random.rand`/`randn`/`random`/
`uniform`/`normal`/`randint`, `arange`, `eye`), the same draws from a generator (`rng = np.random.default_rng(0)`,
`rng.normal(size=(n, d))`, `rng.integers(0, k, size=n)`, or a `RandomState`), `.astype(...)` and `.copy()`,
reductions over an axis (`X.sum(axis=1)`, `.mean`, `.std`, `.max`, ...),
arithmetic between arrays and numbers (broadcast) and `@`, through names with one binding."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.dims import Dim
from shapecheck.objects.values import TorchObject
from shapecheck.shapes.args import TORCH_DTYPES, Args, Hidden, shape_arguments, unexplained
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.elementwise import is_number
from shapecheck.shapes.matmul import matmul
from shapecheck.shapes.positions import dropped
from shapecheck.shapes.reductions import reduction
from shapecheck.shapes.shape import DtypeFamily, Shape
from shapecheck.shapes.values import Array

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

MAX_DEPTH = 8  # names, conversions and operations followed back to an array's construction

# constructor -> (how its sizes are passed: "shape" a tuple or an int first, "varargs" each size an argument,
# "size" a `size=` argument after the distribution's own), its dtype family
_CONSTRUCTORS: dict[str, tuple[str, DtypeFamily]] = {
    "numpy.zeros": ("shape", "float"), "numpy.ones": ("shape", "float"), "numpy.empty": ("shape", "float"),
    "numpy.full": ("shape", "float"), "numpy.random.rand": ("varargs", "float"),
    "numpy.random.randn": ("varargs", "float"), "numpy.random.random": ("shape", "float"),
    "numpy.random.random_sample": ("shape", "float"), "numpy.random.uniform": ("size", "float"),
    "numpy.random.normal": ("size", "float"), "numpy.random.randint": ("size", "int"),
}
# where `size` sits among the positional arguments of the "size" constructors
_SIZE_POSITION = {"numpy.random.uniform": 2, "numpy.random.normal": 2, "numpy.random.randint": 2}
# a `numpy.random.Generator`'s draws, as the module functions of the same sizes and dtypes
_GENERATOR_METHODS = {"normal": "numpy.random.normal", "uniform": "numpy.random.uniform",
                      "integers": "numpy.random.randint", "random": "numpy.random.random",
                      "standard_normal": "numpy.random.random"}
_GENERATORS = {"numpy.random.default_rng": _GENERATOR_METHODS,
               "numpy.random.RandomState": {name: "numpy.random." + name for name in (
                   "rand", "randn", "random", "random_sample", "uniform", "normal", "randint")}}
# reductions over axes, as torch's over dims (`y = X.sum(axis=1)`, `a.mean(0, keepdims=True)`); a mean is a float
_REDUCTIONS = {**dict.fromkeys(("sum", "prod", "max", "min"), reduction()),
               **dict.fromkeys(("mean", "std", "var"), reduction("float"))}
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)
_ORDERINGS = (cst.GreaterThan, cst.GreaterThanEqual, cst.LessThan, cst.LessThanEqual)


def array_shape(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int, depth: int = 0) -> Shape | None:
    """The shape of the numpy array `expr` holds, when the code makes it with sizes it states."""
    if expr is None or depth > MAX_DEPTH:
        return None
    kind = type(expr)
    if kind is cst.Name:
        bindings = ev.candidates(expr, before) if before >= 0 else None
        if bindings and len(bindings) == 1 and bindings[0].kind == "assign" and bindings[0].value is not None \
                and bindings[0].index is None:
            return array_shape(ev, bindings[0].value, bindings[0].seq, depth + 1)
    if kind in (cst.Name, cst.Attribute):
        # an array a call passed, an instance holds (`self.masks`) or a call being run bound
        held = ev.object(expr, before)
        return held.shape if isinstance(held, Array) else None
    if kind is cst.BinaryOperation:
        return _arithmetic(ev, expr, before, depth)
    if kind is cst.Comparison:
        return _compared(ev, expr, before, depth)
    if kind is cst.Subscript:
        return _row(ev, expr, before, depth)
    if kind is not cst.Call:
        return None
    func = expr.func
    if type(func) is cst.Attribute and ev.ctx.qualname(func) is None:
        drawn = _generator_draw(ev, func, before)
        if drawn is not None:
            return _constructed(ev, expr, drawn, before)
    if type(func) is cst.Attribute and func.attr.value in _REDUCTIONS and ev.ctx.qualname(func) is None:
        found = array_shape(ev, func.value, before, depth + 1)
        try:
            return _REDUCTIONS[func.attr.value](ev, found, Args(expr), before) if found is not None else None
        except Hidden:  # `a.sum(**options)`
            return None
    if type(func) is cst.Attribute and func.attr.value in ("astype", "copy") \
            and ev.ctx.qualname(func) is None:
        found = array_shape(ev, func.value, before, depth + 1)
        if found is None or func.attr.value == "copy":
            return found
        return Shape(found.dims, layout=found.layout, dtype=_dtype_family(ev, Args(expr, 0).get(0, "dtype")))
    qualname = ev.ctx.qualname(func)
    if qualname in _CONSTRUCTORS:
        return _constructed(ev, expr, qualname, before)
    return None


def _arithmetic(ev: ShapeEvaluator, expr: cst.BinaryOperation, before: int, depth: int) -> Shape | None:
    """`X @ w + 0.1 * noise`: arrays broadcast as tensors do; `@` multiplies as `torch.matmul` does."""
    operator = type(expr.operator)
    if operator is not cst.MatrixMultiply and operator not in _ARITHMETIC:
        return None
    left, right = (array_shape(ev, side, before, depth + 1) for side in (expr.left, expr.right))
    if operator is cst.MatrixMultiply:
        if left is None or right is None:
            return None
        product = matmul(left, right)[0]
        return product if product is not None and product.rank is not None else None
    if left is not None and right is not None:
        result = broadcast(left, right).shape
    elif left is not None and is_number(ev, expr.right, before):
        result = left if left.dtype == "float" or type(expr.right) is cst.Integer else left.with_dtype(None)
    elif right is not None and is_number(ev, expr.left, before):
        result = right if right.dtype == "float" or type(expr.left) is cst.Integer else right.with_dtype(None)
    else:
        return None
    return result.with_dtype("float") if result is not None and operator is cst.Divide else result


def _compared(ev: ShapeEvaluator, expr: cst.Comparison, before: int, depth: int) -> Shape | None:
    """`probs > 0.5`: a bool array of the array's shape, against a number."""
    if len(expr.comparisons) != 1 or type(expr.comparisons[0].operator) not in _ORDERINGS:
        return None
    right = expr.comparisons[0].comparator
    if not is_number(ev, right, before):
        return None
    found = array_shape(ev, expr.left, before, depth + 1)
    return found.with_dtype("bool") if found is not None else None


def _row(ev: ShapeEvaluator, expr: cst.Subscript, before: int, depth: int) -> Shape | None:
    """`images[i]` with `i` an int: the array without its first dim."""
    if len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
        return None
    index = expr.slice[0].slice.value
    if ev.integer(index, before) is None and not isinstance(ev.object(index, before), Dim):
        return None
    found = array_shape(ev, expr.value, before, depth + 1)
    return dropped(found, {0}) if found is not None and found.variadic is None and found.rank else None


def _generator_draw(ev: ShapeEvaluator, func: cst.Attribute, before: int) -> str | None:
    """`rng.normal` where `rng` holds `np.random.default_rng(...)` (or a `RandomState`): the module function that
    draws the same sizes."""
    receiver = func.value
    if type(receiver) is not cst.Name:
        return None
    held = ev.object(receiver, before)  # the generator a call being run holds, or the one the name is bound to
    methods = _GENERATORS.get(held.qualname) if isinstance(held, TorchObject) else None
    return methods.get(func.attr.value) if methods is not None else None


def _constructed(ev: ShapeEvaluator, call: cst.Call, qualname: str, before: int) -> Shape | None:
    try:
        return _constructed_from(ev, call, qualname, Args(call, 0), before)
    except Hidden:  # `np.zeros(*dims)`, `np.random.normal(**spec)`: which argument is the size can't be told
        return None


def _constructed_from(ev: ShapeEvaluator, call: cst.Call, qualname: str, args: Args, before: int) -> Shape | None:
    form, dtype = _CONSTRUCTORS[qualname]
    if form == "varargs":
        sizes = shape_arguments(ev, args, 0, "shape", before)
    else:  # one argument holds them: `np.zeros((n, d))`, `np.random.uniform(0, 1, size=(n, d))`
        sizes = _sizes(ev, args.get(_SIZE_POSITION[qualname], "size") if form == "size" else args.get(0, "shape"),
                       before)
    if sizes is None or sizes.variadic is not None:
        return None
    below = None
    if qualname == "numpy.random.randint":  # randint(low, high, size), or randint(high, size=...): below `high`
        high = args.get(1, "high") or args.get(0, "low")
        below = ev.size(high, before) if high is not None else None
    return Shape(sizes.dims, layout=tuple(range(len(sizes.dims))),
                 dtype=_dtype_family(ev, args.keyword("dtype")) or dtype, below=below)


def _sizes(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int) -> Shape | None:
    """The sizes one argument holds, a sequence or a single int (a bare name that may hold either is unknown)."""
    if expr is None:
        return None  # `np.random.uniform(0, 1)`: one number
    whole = ev.sizes(expr, before)
    if whole is not None:
        return whole
    single = ev.size(expr, before)
    return Shape((single,)) if single is not None and not unexplained(ev, expr, before) else None


def _dtype_family(ev: ShapeEvaluator, expr: cst.BaseExpression | None) -> DtypeFamily | None:
    """numpy's or Python's dtypes by name (`np.float32`, `np.bool_`, `"int64"`, `int`), read with torch's names;
    None for others and when absent."""
    if expr is None:
        return None
    if type(expr) is cst.SimpleString:
        name = str(expr.evaluated_value)
    else:
        spelled = ev.ctx.qualname(expr) if type(expr) in (cst.Name, cst.Attribute) else None
        name = spelled.rsplit(".", 1)[-1] if spelled else getattr(expr, "value", "")
    return TORCH_DTYPES.get(str(name).rstrip("_"))
