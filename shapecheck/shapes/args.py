"""A call's arguments as the transfer functions read them: by keyword, else by position (after the tensor a
`torch.f(x, ...)` form takes first); dtype and size arguments; one spelling per torch function; a method's transfer
function as the `torch.f(x, ...)` form's."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import param_annotation
from shapecheck.objects.dims import Dim
from shapecheck.objects.executor import function_facts_names
from shapecheck.objects.values import Imported
from shapecheck.shapes.shape import DtypeFamily, Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


class Hidden(Exception):
    """The call passes `*args` or `**kwargs` where it matters: which argument is which can't be told."""


class Args:
    """A call's arguments. A `*sizes` argument hides the positions from it on (only `spread` reads past it);
    `**kwargs` hides them all."""

    def __init__(self, call: cst.Call, offset: int = 0) -> None:
        if any(arg.star == "**" for arg in call.args):
            raise Hidden
        self.call = call
        self.offset = offset
        positional = [arg for arg in call.args if arg.keyword is None]
        self.positional = [arg.value for arg in positional]
        self._stars = [arg.star == "*" for arg in positional]
        self.starred = self._stars.index(True) if any(self._stars) else None
        self.keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}

    def _visible(self, position: int) -> None:
        if self.starred is not None and position >= self.starred:
            raise Hidden

    def get(self, index: int, *names: str) -> cst.BaseExpression | None:
        """Argument `index` (counted after the offset), or the first of `names` passed by keyword."""
        for name in names:
            found = self.keywords.get(name)
            if found is not None:
                return found
        position = self.offset + index
        self._visible(min(position, len(self.positional)))
        return self.positional[position] if 0 <= position < len(self.positional) else None

    def rest(self, index: int) -> list[cst.BaseExpression]:
        self._visible(len(self.positional))
        return self.positional[self.offset + index:]

    def spread(self, index: int) -> list[tuple[cst.BaseExpression, bool]]:
        """The positional arguments from `index` on, each with whether it is starred (`*shape`)."""
        start = self.offset + index
        return list(zip(self.positional[start:], self._stars[start:]))

    def count(self) -> int:
        """How many positional arguments follow the offset."""
        self._visible(len(self.positional))
        return max(0, len(self.positional) - self.offset)

    def keyword(self, name: str) -> cst.BaseExpression | None:
        return self.keywords.get(name)


TORCH_DTYPES: dict[str, DtypeFamily] = {
    **dict.fromkeys(("float", "float32", "float64", "double", "float16", "half", "bfloat16"), "float"),
    **dict.fromkeys(("long", "int64", "int", "int32", "int16", "short", "int8", "uint8"), "int"),
    "bool": "bool",
    **dict.fromkeys(("complex64", "complex128", "cfloat", "cdouble"), "complex"),
}


def torch_name(qualname: str) -> str:
    """One spelling per function: `torch.nn.functional.x` -> "F.x", `torch.functional.x`/`torch.special.x` kept."""
    if qualname.startswith("torch.nn.functional."):
        return "F." + qualname[len("torch.nn.functional."):]
    return qualname


def dtype_of(ev: ShapeEvaluator, expr: cst.BaseExpression | None) -> DtypeFamily | None:
    if expr is None:
        return None
    qualname = ev.ctx.qualname(expr)
    if qualname is None or not qualname.startswith("torch."):
        return None
    return TORCH_DTYPES.get(qualname[len("torch."):])


def shape_arguments(ev: ShapeEvaluator, args: Args, index: int, keyword: str, before: int) -> Shape | None:
    """The sizes a call takes as varargs or as one sequence: `view(B, -1)`, `view((B, -1))`, `zeros(x.shape)`,
    `view(x.size()[:-1] + (n, d))`, `zeros(size=(3, 4))`."""
    named = args.keyword(keyword)
    if named is not None:
        return ev.sizes(named, before)
    rest = args.spread(index)
    if not rest:
        return None
    if len(rest) == 1 and not rest[0][1]:
        whole = ev.sizes(rest[0][0], before)
        if whole is not None:
            return whole
        if unexplained(ev, rest[0][0], before):
            return None  # `torch.ones(input_shape)`: a name the code never explains may hold a whole shape
    dims: list[Dim] = []
    for expr, starred in rest:
        if starred:  # `torch.randn(n, *shape)`: the sizes of a sequence of known length, spread
            sizes = ev.sizes(expr, before)
            if sizes is None or sizes.variadic is not None:
                return None
            dims.extend(sizes.dims)
            continue
        dim = ev.size(expr, before)
        if dim is None:
            return None
        dims.append(dim)
    return Shape(tuple(dims), layout=())


_INT_BUILTINS = (Imported("builtins.len"), Imported("builtins.int"))


def counted(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    """What `len()` or `int()` returns: one size, never a tuple of them (`np.full(len(mol.atoms), i)`, a graph's
    membership vector)."""
    return type(expr) is cst.Call and ev.object(expr.func, before) in _INT_BUILTINS


def unexplained(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    """A bare name the analysis knows nothing about (a parameter, an attribute): maybe an int, maybe a tuple; not a
    parameter annotated `int` (`def simulate(n: int)`), which the code states is one size. A torch factory's
    `len(...)` stays a question for the run (a list a module-level loop grew, counted there); numpy's constructors
    ask `counted` first."""
    dim = ev.size(expr, before)
    if dim is None or len(dim.terms) != 1:
        return False
    monomial, coef = dim.terms[0]
    return coef == 1 and len(monomial) == 1 and monomial[0].placeholder and not _declared_int(ev, expr, before)


def _declared_int(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    if type(expr) is not cst.Name:
        return False
    if before < 0:
        return declared_in_run(ev, expr, before)
    bindings = ev.candidates(expr, before)
    return bool(bindings) and all(
        binding.kind == "param" and type(binding.statement) is cst.FunctionDef
        and _is_int(param_annotation(binding.statement, binding.name)) for binding in bindings)


def declared_in_run(ev: ShapeEvaluator, name: cst.Name, before: int, types: tuple[str, ...] = ("int",)) -> bool:
    """In a call being run, a parameter of the function run annotated with one of `types` that its body never
    rebinds: an int (or a float) whatever the caller hands it (`Dataset(args.items)`, an option the command line
    sets, `n_intents: int` given the caller's `args.intents`), as where it is written."""
    frame = ev.frame_at(before)[0]
    while name.value not in frame.names:
        if frame.parent is None:
            return False
        frame = frame.parent
    function = frame.function
    if type(function) is not cst.FunctionDef:
        return False
    annotation = param_annotation(function, name.value)
    return type(annotation) is cst.Name and annotation.value in types \
        and name.value not in set(function_facts_names(function.body))


def whole_factor(expr: cst.BaseExpression) -> Dim | None:
    """A float literal that is a whole number above 0 (`scale_factor=2.0`): the int it scales by; None otherwise
    (`1.5` rounds each size down, which the analysis does not follow)."""
    if type(expr) is not cst.Float:
        return None
    value = float(expr.value)
    return Dim.of(int(value)) if value.is_integer() and value > 0 else None


def _is_int(annotation: cst.BaseExpression | None) -> bool:
    return type(annotation) is cst.Name and annotation.value == "int"


def as_function(method, offset: int = 1, keyword: str = "input"):
    """`torch.f(x, ...)` as `x.f(...)`: the same transfer function with the arguments shifted by one."""
    def function(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, offset)
        tensor = args.keyword(keyword)
        if tensor is None:
            args.offset = 0
            tensor = args.get(0)
            args.offset = offset
        shape = ev.tensor(tensor, before)
        return method(ev, shape, args, before) if shape is not None else None
    return function
