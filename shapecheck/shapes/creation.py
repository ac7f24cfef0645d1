"""Constructors: `torch.zeros/ones/empty/rand/randn/full/randint/arange/linspace/eye/tensor`, the `*_like` and
`new_*` forms and `nn.Parameter`: fresh, row-major tensors of the sizes the call states."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args, dtype_of, shape_arguments
from shapecheck.objects.dims import Dim
from shapecheck.objects.tensor_facts import is_int
from shapecheck.objects.values import Seq, number_kind
from shapecheck.shapes import numpy_arrays
from shapecheck.shapes.elementwise import memory_format
from shapecheck.shapes.literals import literal_dtype, nested_shape, range_length, uncounted_numbers
from shapecheck.shapes.shape import DtypeFamily, Shape
from shapecheck.shapes.values import Array, Items

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def _creation(dtype: DtypeFamily | None = "float"):
    """`torch.zeros(2, 3)`, `torch.randn((B, T), dtype=...)`, `torch.ones(x.shape)`, `torch.empty(size=(...))`."""
    def create(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        sizes = shape_arguments(ev, args, 0, "size", before)
        if sizes is None:
            return None
        return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                     dtype_of(ev, args.keyword("dtype")) or dtype)
    return create


def _full(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    sizes = ev.sizes(args.get(0, "size"), before)
    if sizes is None:
        return None
    fill = args.get(1, "fill_value")
    dtype = dtype_of(ev, args.keyword("dtype")) or literal_dtype(fill)
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))), dtype)


def _randint(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    sizes_expr = args.keyword("size")
    if sizes_expr is None:
        sequences = [e for e in args.positional if type(e) in (cst.Tuple, cst.List)]
        sizes_expr = sequences[0] if len(sequences) == 1 else None
    sizes = ev.sizes(sizes_expr, before)
    if sizes is None:
        return None
    dtype = dtype_of(ev, args.keyword("dtype")) or "int"
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))), dtype,
                 _randint_high(ev, args, sizes_expr, before) if dtype == "int" else None)


def _randint_high(ev: ShapeEvaluator, args: Args, sizes_expr: cst.BaseExpression | None, before: int) -> Dim | None:
    """The end of `randint`'s range: `high`, its last bound before `size` (`randint(high, size)`,
    `randint(low, high, size)`)."""
    high = args.keyword("high")
    if high is None:
        bounds = [e for e in args.positional if e is not sizes_expr]
        high = bounds[-1] if 1 <= len(bounds) <= 2 else None
    return ev.size(high, before) if high is not None else None


def _randperm(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.randperm(n)`: the n indices, shuffled."""
    size = ev.size(Args(node, 0).get(0, "n"), before)
    return Shape((size,), layout=(0,), dtype="int", below=size) if size is not None else None


def _may_be_float(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    """An `arange` bound torch may read as a float, which makes the range float: a float literal, a name or
    attribute the code binds to one (PINNs' `self.h = 0.1`), a true division, or arithmetic with any of these
    (`1 + self.h`). A bound the code says nothing of (a parameter) counts as the int nearly every caller passes."""
    if type(expr) is cst.Float:
        return True
    if type(expr) is cst.BinaryOperation:
        return type(expr.operator) is cst.Divide or _may_be_float(ev, expr.left, before) \
            or _may_be_float(ev, expr.right, before)
    if type(expr) is cst.UnaryOperation:
        return _may_be_float(ev, expr.expression, before)
    return type(expr) in (cst.Name, cst.Attribute) and number_kind(ev.value(expr, before)) == "float"


def _arange(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    bounds = args.rest(0)
    length = range_length(ev, node, bounds, before)
    if length is None:
        return None
    dtype = dtype_of(ev, args.keyword("dtype")) or (
        "int" if all(literal_dtype(e) in ("int", None) and not _may_be_float(ev, e, before) for e in bounds) else None)
    # the values reach `end - 1` only in steps of one from a start that is not past it
    below = ev.size(bounds[-1], before) if dtype == "int" and len(bounds) < 3 else None
    return Shape((length,), layout=(0,), dtype=dtype, below=below)


def _linspace(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    steps = ev.size(Args(node, 0).get(2, "steps"), before)
    return Shape((steps,), layout=(0,), dtype="float") if steps is not None else None


def _window(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.hann_window(window_length)` and the other windows: (window_length,) weights."""
    length = ev.size(Args(node, 0).get(0, "window_length"), before)
    if length is None:
        return None
    return Shape((length,), layout=(0,), dtype=dtype_of(ev, Args(node, 0).keyword("dtype")) or "float")


def _meshgrid(ev: ShapeEvaluator, node: cst.Call, before: int) -> Items | None:
    """`torch.meshgrid(a, b, indexing="ij")` (or of one list of them): for 1-D inputs of sizes n1..nk, k grids of
    (n1, ..., nk); `indexing="xy"` swaps the first two sizes. Without `indexing` torch warns and uses "ij"."""
    args = [arg for arg in node.args if arg.keyword is None]
    if any(arg.star for arg in args):
        return None
    inputs = [arg.value for arg in args]
    if len(inputs) == 1 and type(inputs[0]) in (cst.List, cst.Tuple):
        elements = inputs[0].elements  # type: ignore[attr-defined]
        if any(type(e) is cst.StarredElement for e in elements):
            return None
        inputs = [e.value for e in elements]
    indexing = Args(node, 0).keyword("indexing")
    swapped = type(indexing) is cst.SimpleString and indexing.evaluated_value == "xy"
    if not inputs or indexing is not None and not swapped and not (
            type(indexing) is cst.SimpleString and indexing.evaluated_value == "ij"):
        return None
    shapes = [ev.tensor(value, before) for value in inputs]
    if any(shape is None or shape.rank != 1 for shape in shapes):
        return None
    sizes = [shape.dims[0] for shape in shapes]  # type: ignore[union-attr]
    if swapped and len(sizes) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    layout = tuple(range(len(sizes)))
    dtypes = [shape.dtype for shape in shapes]  # type: ignore[union-attr]
    return Items(tuple(Shape(tuple(sizes), layout=layout, dtype=dtype) for dtype in dtypes))


def _eye(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    n = ev.size(args.get(0, "n"), before)
    m = ev.size(args.get(1, "m"), before) if args.get(1, "m") is not None else n
    if n is None or m is None:
        return None
    return Shape((n, m), layout=(0, 1), dtype=dtype_of(ev, args.keyword("dtype")) or "float")


def _like(dtype: DtypeFamily | None = None):
    def like(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        shape = ev.tensor(args.get(0, "input"), before)
        if shape is None:
            return None
        result = memory_format(ev, shape, args.keyword("memory_format"))
        return result.with_dtype(dtype_of(ev, args.keyword("dtype")) or dtype or shape.dtype)
    return like


def _tensor_literal(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.tensor([[1, 2], [3, 4]])`: the nesting of a literal list, written there, or of the list an expression
    holds (see `literals.nested_shape`); or a numpy array's shape."""
    data = Args(node, 0).get(0, "data")
    if data is None:
        return None
    dtype = dtype_of(ev, Args(node, 0).keyword("dtype"))
    found = nested_shape(ev, data, before)
    if found is None:
        found = numpy_arrays.array_shape(ev, data, before)  # `torch.tensor(np.random.rand(8, 3))`
        if found is None:
            return _counted(ev, node, ev.object(data, before), numpy_arrays.comprehension_length(ev, data, before))
    return found.with_dtype(dtype) if dtype is not None else found


def _counted(ev: ShapeEvaluator, node: cst.Call, value: object, length: Dim | None) -> Shape | None:
    """`torch.tensor([counts.get(c, 1) for c in range(num_classes)])`: a list of a known count whose elements the
    code does not state (numbers, rows or one-element tensors) is that many along dim 0, the rest unknown. A list
    of numbers whose count the code does not state (`[stoi[c] for c in text]`, a corpus encoded) is one dim of a
    size only equal to itself."""
    if not isinstance(value, Seq):
        return None
    dtype = dtype_of(ev, Args(node, 0).keyword("dtype"))
    if not value.complete:
        return uncounted_numbers(ev, node, value, dtype, length)
    if not value.items:
        return None
    # 0-d tensors and array elements are numbers (`torch.tensor([readings[end, 0]])`, a window's next reading as a
    # (1,) target); other tensors: one element each
    scalars = [_is_scalar(item) for item in value.items]
    if any(isinstance(item, Shape) for item, scalar in zip(value.items, scalars) if not scalar):
        return None
    return Shape((Dim.of(len(value.items)),), None if all(scalars) else 1, layout=(0,), dtype=dtype)


def _is_scalar(item: object) -> bool:
    """A 0-d tensor, or an element of a numpy array: one number, as `torch.tensor` reads it in a list."""
    shape = item.shape if isinstance(item, Array) else item
    return isinstance(shape, Shape) and shape.rank == 0


def _legacy(dtype: DtypeFamily):
    """The legacy constructors `torch.FloatTensor(2, 3)` (sizes, uninitialized) and `torch.Tensor([[1, 2]])`
    (data: a list or tuple written there, or a list a name holds); one value alone is a size only where the code
    states an int; a `torch.Size` or a tensor passed alone is neither known here."""
    def legacy(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = node.args
        if not args or any(arg.keyword is not None or arg.star for arg in args):
            return None
        data = args[0].value
        if len(args) == 1 and (type(data) in (cst.List, cst.Tuple) or type(data) in (cst.Name, cst.Call) and
                               isinstance(value := ev.object(data, before), Seq) and value.kind == "list"):
            found = _tensor_literal(ev, node, before)
            return found.with_dtype(dtype) if found is not None else None
        if len(args) == 1:
            copied = _data(ev, data, before)
            if copied is not None:
                return copied.with_dtype(dtype)
            size = ev.object(data, before)
            if not isinstance(size, Dim) or size.literal is None and not is_int(ev.ctx, data, before):
                # a parameter, or what a file or a config holds (`scipy.io.loadmat(path)["feats"]`), may be a list
                # or an array to copy as well as an int
                return None
        sizes = [ev.size(arg.value, before) for arg in args]
        if any(size is None for size in sizes):
            return None
        return Shape(tuple(sizes), layout=tuple(range(len(sizes))), dtype=dtype)  # type: ignore[arg-type]
    return legacy


def _new(dtype: DtypeFamily | None = None):
    """`x.new_zeros(sizes)`: a fresh tensor of the receiver's dtype."""
    def new(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        sizes = shape_arguments(ev, args, 0, "size", before)
        if sizes is None:
            return None
        return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                     dtype_of(ev, args.keyword("dtype")) or dtype or shape.dtype)
    return new


def _new_full(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    sizes = ev.sizes(args.get(0, "size"), before)
    if sizes is None:
        return None
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))),
                 dtype_of(ev, args.keyword("dtype")) or shape.dtype)


def _causal_mask(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`nn.Transformer.generate_square_subsequent_mask(sz)`: an (sz, sz) float mask of -inf above the diagonal."""
    size = ev.size(Args(node, 0).get(0, "sz"), before)
    return Shape.of(size, size, dtype="float") if size is not None else None


def _from_numpy(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.from_numpy(a)`, `torch.as_tensor(a)`: a tensor of the array's shape (or a tensor's, passed through)."""
    data = Args(node, 0).get(0, "ndarray", "data")
    if data is not None and ev.ctx.qualname(node.func) == "torch.as_tensor" \
            and isinstance(ev.object(data, before), Seq):  # `torch.as_tensor(returns)`: a list, as `torch.tensor`
        return _tensor_literal(ev, node, before)
    found = _data(ev, data, before)
    dtype = dtype_of(ev, Args(node, 0).keyword("dtype"))
    return found.with_dtype(dtype) if found is not None and dtype is not None else found


def _data(ev: ShapeEvaluator, data: cst.BaseExpression | None, before: int) -> Shape | None:
    """The shape of what a conversion copies: a tensor's, or a numpy array's the code makes."""
    if data is None:
        return None
    tensor = ev.tensor(data, before)
    if tensor is not None and tensor.rank is not None:
        return tensor
    # `d @ a @ d` of arrays reads as a product of tensors the analysis does not know (of any rank): the arrays' says
    return numpy_arrays.array_shape(ev, data, before) or tensor


def _sparse(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.sparse_coo_tensor(indices, values, (n, n))`: a sparse tensor of the size given (a graph's adjacency);
    without a size, one the indices' largest values decide, not told."""
    args = Args(node, 0)
    sizes = ev.sizes(args.get(2, "size"), before) if args.get(2, "size") is not None else None
    if sizes is None:
        return None
    values = ev.tensor(args.get(1, "values"), before)
    dtype = dtype_of(ev, args.keyword("dtype")) or (values.dtype if values is not None else None)
    return Shape(sizes.dims, sizes.variadic, sizes.variadic_name, tuple(range(len(sizes.dims))), dtype)


def _parameter(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    return ev.tensor(Args(node, 0).get(0, "data"), before)


TUPLE_FUNCTIONS = {"torch.meshgrid": _meshgrid}
METHODS = {"new_zeros": _new(), "new_ones": _new(), "new_empty": _new(), "new_full": _new_full}
FUNCTIONS = {
    **{f"torch.{name}": _creation() for name in ("zeros", "ones", "empty", "rand", "randn")},
    "torch.full": _full, "torch.randint": _randint, "torch.arange": _arange, "torch.randperm": _randperm, "torch.linspace": _linspace,
    "torch.logspace": _linspace, "torch.eye": _eye, "torch.tensor": _tensor_literal,
    **{f"torch.{name}_window": _window for name in ("hann", "hamming", "blackman", "bartlett", "kaiser")},
    "torch.from_numpy": _from_numpy, "torch.as_tensor": _from_numpy,
    **{f"torch.{name}": _legacy(dtype) for name, dtype in (  # type: ignore[misc]
        ("Tensor", "float"), ("FloatTensor", "float"), ("DoubleTensor", "float"), ("HalfTensor", "float"),
        ("LongTensor", "int"), ("IntTensor", "int"), ("ShortTensor", "int"), ("ByteTensor", "int"),
        ("BoolTensor", "bool"))},
    **{f"torch.{name}_like": _like() for name in ("zeros", "ones", "empty", "rand", "randn", "full")},
    "torch.randint_like": _like("int"),
    "torch.sparse_coo_tensor": _sparse, "torch.sparse.FloatTensor": _sparse,
    "torch.nn.Parameter": _parameter, "torch.nn.parameter.Parameter": _parameter,
    # the pre-0.4 autograd wrapper, still in code copied from old posts: the tensor it wraps
    "torch.autograd.Variable": _parameter, "torch.autograd.variable.Variable": _parameter,
    "torch.nn.Transformer.generate_square_subsequent_mask": _causal_mask,
}
