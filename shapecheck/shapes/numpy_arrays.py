"""The shapes of numpy arrays the code makes and hands to torch (`torch.from_numpy(np.random.rand(100, 3))`).

Arrays are not tensors to the rest of the analysis: numpy's methods differ from torch's under the same names
(`a.sum(axis=1)`, `a.repeat(3)`, `a.view(np.float32)`), so only what is read here is known, at the point the array
becomes a tensor: numpy's constructors (`zeros`, `ones`, `empty`, `full`, `random.rand`/`randn`/`random`/
`uniform`/`normal`/`randint`, `arange`, `eye`), `.astype(...)` and `.copy()`, through names with one binding."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.dims import Dim
from shapecheck.shapes.args import Args
from shapecheck.shapes.shape import DtypeFamily, Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

MAX_DEPTH = 4  # names followed back to an array's construction

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


def array_shape(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int, depth: int = 0) -> Shape | None:
    """The shape of the numpy array `expr` holds, when the code makes it with sizes it states."""
    if expr is None or depth > MAX_DEPTH:
        return None
    if type(expr) is cst.Name:
        bindings = ev.candidates(expr, before)
        if not bindings or len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].value is None \
                or bindings[0].index is not None:
            return None
        return array_shape(ev, bindings[0].value, bindings[0].seq, depth + 1)
    if type(expr) is not cst.Call:
        return None
    func = expr.func
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


def _constructed(ev: ShapeEvaluator, call: cst.Call, qualname: str, before: int) -> Shape | None:
    form, dtype = _CONSTRUCTORS[qualname]
    args = Args(call, 0)
    if form == "varargs":
        sizes = [ev.size(e, before) for e in args.rest(0)]
        dims = tuple(sizes) if None not in sizes else None
    else:
        sized = args.get(_SIZE_POSITION[qualname], "size") if form == "size" else args.get(0, "shape")
        if sized is None:
            return None  # `np.random.uniform(0, 1)`: one number
        dims = _sizes(ev, sized, before)
    if dims is None:
        return None
    if form == "shape" and qualname != "numpy.random.random" and qualname != "numpy.random.random_sample":
        dtype = _dtype_family(ev, args.keyword("dtype")) or dtype
    below = None
    if qualname == "numpy.random.randint":  # randint(low, high, size), or randint(high, size=...): below `high`
        high = args.get(1, "high") or args.get(0, "low")
        below = ev.size(high, before) if high is not None else None
    return Shape(dims, layout=tuple(range(len(dims))), dtype=dtype, below=below)


def _sizes(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> tuple[Dim, ...] | None:
    if type(expr) in (cst.Tuple, cst.List):
        sizes = [ev.size(e.value, before) if type(e) is cst.Element else None for e in expr.elements]
        return tuple(sizes) if None not in sizes else None  # type: ignore[arg-type]
    single = ev.size(expr, before)
    return (single,) if single is not None else None


def _dtype_family(ev: ShapeEvaluator, expr: cst.BaseExpression | None) -> DtypeFamily | None:
    """numpy's or Python's dtypes by name (`np.float32`, `"int64"`, `int`); None for others and when absent."""
    if expr is None:
        return None
    spelled = ev.ctx.qualname(expr) if type(expr) in (cst.Name, cst.Attribute) else None
    name = (spelled or "").rsplit(".", 1)[-1] if spelled else (expr.evaluated_value if type(expr) is cst.SimpleString
                                                              else getattr(expr, "value", ""))
    name = str(name)
    if name.startswith("float") or name == "double":
        return "float"
    if name.startswith(("int", "uint")) or name == "long":
        return "int"
    if name.startswith("bool"):
        return "bool"
    return None
