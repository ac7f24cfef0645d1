"""Matrix products: `@`, `matmul`, `mm`, `bmm` and `F.linear`, with the inner dims they contract (`einsum` has its
own module), and the diagonal matrices graph code multiplies by (`torch.diag(deg.pow(-0.5))`)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args, as_function
from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.positions import dropped, with_rank
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def matmul(left: Shape, right: Shape) -> tuple[Shape | None, tuple[Dim, Dim] | None]:
    """The shape of `left @ right`, and the inner dims when they certainly differ. The result is a fresh
    row-major tensor even when its sizes can't be told."""
    shape, inner = _matmul_shape(left, right)
    if shape is None and inner is None:
        return Shape.unknown_rank(dtype=left.dtype if left.dtype == right.dtype else None), None
    return shape, inner


def _matmul_shape(left: Shape, right: Shape) -> tuple[Shape | None, tuple[Dim, Dim] | None]:
    inner_left = left.size(-1)
    inner_right = right.size(-2) if right.rank != 1 else right.size(-1)
    if inner_left is not None and inner_right is not None and same(inner_left, inner_right) is False:
        return None, (inner_left, inner_right)
    dtype = left.dtype if left.dtype == right.dtype else None
    if left.rank == 1 and right.rank == 1:
        return Shape((), dtype=dtype, layout=()), None
    if left.rank == 1:
        out = right.size(-1)
        if out is None:
            return None, None
        batch = dropped(right, {len(right.dims) - 2, len(right.dims) - 1})
        return Shape(batch.dims + (out,), batch.variadic, batch.variadic_name, tuple(range(len(batch.dims) + 1)),
                     dtype), None
    if right.rank == 1:
        if len(left.dims) < 1 or (left.variadic is not None and left.variadic > len(left.dims) - 1):
            return None, None
        result = dropped(left, {len(left.dims) - 1})
        return result.row_major().with_dtype(dtype), None
    rows, cols = left.size(-2), right.size(-1)
    if rows is None or cols is None:
        return None, None
    left_batch = Shape(left.dims[:-2], left.variadic if left.variadic is None or left.variadic <= len(left.dims) - 2
                       else None, left.variadic_name)
    right_batch = Shape(right.dims[:-2], right.variadic if right.variadic is None
                        or right.variadic <= len(right.dims) - 2 else None, right.variadic_name)
    if left.variadic is not None and left.variadic > len(left.dims) - 2 or \
            right.variadic is not None and right.variadic > len(right.dims) - 2:
        return None, None
    batch = broadcast(left_batch, right_batch)
    if batch.shape is None:
        return None, None
    dims = batch.shape.dims + (rows, cols)
    return Shape(dims, batch.shape.variadic, "...", tuple(range(len(dims))), dtype), None


def batch_mismatch(left: Shape, right: Shape) -> tuple[Dim, Dim] | None:
    """The batch sizes of `left @ right` that certainly don't broadcast (attention weights (B, H, L, S) times
    values (B, S, D) not split into heads): their dims but the last two, aligned from the right."""
    if left.rank is None or right.rank is None or left.rank < 3 or right.rank < 3:
        return None
    mismatch = broadcast(Shape(left.dims[:-2]), Shape(right.dims[:-2])).mismatch
    return None if mismatch is None else mismatch[1:]


# The products that take only matrices (mm) or batches of them (bmm) and broadcast nothing.
_STRICT_RANKS = {"mm": 2, "bmm": 3}


def strict_product(kind: str, left: Shape, right: Shape, a: str, b: str) -> str | None:
    """Why `mm`/`bmm` (`kind`) certainly fails on operands spelled `a` and `b`: a rank it does not take ("self must
    be a matrix", "batch1 must be a 3D tensor"), or batch sizes that differ; None for `matmul` and `@`."""
    rank = _STRICT_RANKS.get(kind)
    if rank is None:
        return None
    for spelled, shape in ((a, left), (b, right)):
        if shape.rank is not None and shape.rank != rank:
            what = "matrices (2-D)" if rank == 2 else "batches of matrices (3-D)"
            return f"{kind} multiplies {what}, but {spelled} is {shape.render()}"
    if rank == 3 and left.rank == 3 and right.rank == 3 and same(left.dims[0], right.dims[0]) is False:
        return (f"bmm needs one batch size: {a} is {left.render()}, {b} is {right.render()} (it does not "
                f"broadcast: `@` does)")
    if rank == 3 and left.rank == 3 and right.rank == 3:
        for (one, shape), (other, batched) in (((a, left), (b, right)), ((b, right), (a, left))):
            if _batch_second(shape, batched):
                return (f"bmm needs one batch size: {a} is {left.render()}, {b} is {right.render()}: the batch of "
                        f"{other} is the second dim of {one}, not its first (sequence-first outputs against "
                        f"batch-first ones)")
    return None


def _batch_second(shape: Shape, batched: Shape) -> bool:
    """`shape`'s second dim is the batch `batched` leads with, and its first is not known to be that batch: a
    time-major (length, batch, hidden) encoder output against a (batch, hidden, 1) query. It fails unless the
    length happens to be the batch, and then mixes the batch's items."""
    batch = batched.dims[0]
    return same(shape.dims[1], batch) is True and same(shape.dims[0], batch) is not True


def _product(kind: str, left: Shape, right: Shape) -> Shape | None:
    if strict_product(kind, left, right, "", "") is not None:
        return None  # it raises
    return matmul(left, right)[0]


def _matmul_function(kind: str, ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    first, second = args.get(0, "input"), args.get(1, "other", "mat2")
    left, right = _operand(ev, kind, first, before), _operand(ev, kind, second, before)
    if left is None or right is None:
        return Shape.unknown_rank()
    return _product(kind, left, right)


def _matmul_method(kind: str, ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    other = _operand(ev, kind, args.get(0, "other", "mat2"), before)
    return _product(kind, shape, other) if other is not None else None


def _operand(ev: ShapeEvaluator, kind: str, expr: cst.BaseExpression | None, before: int) -> Shape | None:
    """An operand's shape; for `mm` and `bmm`, which take only matrices or batches of them, one the analysis
    does not know is one of that rank, of sizes of its own (`torch.mm(self.weight, feats.t())` of features a
    submodule looked up from a list of node ids is (embed, nodes), whatever the nodes are)."""
    shape = ev.tensor(expr, before) if expr is not None else None
    rank = _STRICT_RANKS.get(kind)
    if rank is None or expr is None or shape is not None and shape.variadic is None:
        return shape
    return with_rank(ev, shape if shape is not None else Shape.unknown_rank(), rank, ("operand", id(expr)))


def cdist(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.cdist(x1, x2)`: x1 (*, P, M) and x2 (*, R, M) give the (*, P, R) distances, batch dims broadcast."""
    args = Args(node, 0)
    x1, x2 = ev.tensor(args.get(0, "x1"), before), ev.tensor(args.get(1, "x2"), before)
    if x1 is None or x2 is None or x1.rank is None or x2.rank is None or min(x1.rank, x2.rank) < 2:
        return None
    batch = broadcast(Shape(x1.dims[:-2]), Shape(x2.dims[:-2])).shape
    if batch is None:
        return None
    return Shape.of(*batch.dims, x1.dims[-2], x2.dims[-2], dtype="float")


def outer(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`torch.outer(a, b)`: (n,) and (m,) give (n, m)."""
    args = Args(node, 0)
    a, b = ev.tensor(args.get(0, "input"), before), ev.tensor(args.get(1, "vec2"), before)
    if a is None or b is None or a.rank != 1 or b.rank != 1:
        return None
    return Shape.of(a.dims[0], b.dims[0], dtype=a.dtype if a.dtype == b.dtype else None)


def linear(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    x, weight = ev.tensor(args.get(0, "input"), before), ev.tensor(args.get(1, "weight"), before)
    if x is None or weight is None or weight.rank != 2 or x.size(-1) is None:
        return None
    if same(x.size(-1), weight.dims[1]) is False:
        return None
    return _last_replaced(x, weight.dims[0])


def _last_replaced(shape: Shape, dim: Dim) -> Shape:
    return Shape(shape.dims[:-1] + (dim,), shape.variadic, shape.variadic_name, tuple(range(len(shape.dims))),
                 shape.dtype)


def diagonal(ev: ShapeEvaluator, shape: Shape, offset: cst.BaseExpression | None, before: int) -> Shape | None:
    """`diag` on the main diagonal (no offset, or 0): a vector (n,) makes the (n, n) matrix with it on the diagonal
    (a graph's degree matrix, `D = torch.diag(deg.pow(-0.5))` for `D @ A @ D`), a matrix known to be square (n, n)
    gives its (n,) diagonal. Another offset, or a matrix not known to be square, is not told."""
    if offset is not None and ev.size(offset, before) != Dim.of(0):
        return None
    if shape.rank == 1:
        return Shape.of(shape.dims[0], shape.dims[0], layout=(0, 1), dtype=shape.dtype)
    if shape.rank == 2 and same(shape.dims[0], shape.dims[1]) is True:
        return Shape.of(shape.dims[0], layout=(0,), dtype=shape.dtype)
    return None


def _diag(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    return diagonal(ev, shape, args.get(0, "diagonal"), before)


def _diag_embed(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`torch.diag_embed(x)`: (*, n) makes (*, n, n), one diagonal matrix per vector (the default offset and dims)."""
    if args.count() or any(args.keyword(name) is not None for name in ("offset", "dim1", "dim2")) \
            or shape.rank is None or not shape.rank:
        return None
    return Shape.of(*shape.dims, shape.dims[-1], layout=tuple(range(shape.rank + 1)), dtype=shape.dtype)


METHODS = {**{kind: partial(_matmul_method, kind) for kind in ("matmul", "mm", "bmm")}, "diag": _diag,
           "diag_embed": _diag_embed}
FUNCTIONS = {**{f"torch.{kind}": partial(_matmul_function, kind) for kind in ("matmul", "mm", "bmm")},
             # a sparse matrix times a dense one (a graph's normalised adjacency, Kipf's `torch.spmm(adj, support)`)
             "torch.spmm": partial(_matmul_function, "mm"), "torch.sparse.mm": partial(_matmul_function, "mm"),
             "F.linear": linear, "torch.cdist": cdist, "torch.outer": outer, "torch.ger": outer,
             "torch.diag": as_function(_diag), "torch.diag_embed": as_function(_diag_embed)}
