"""Transfer functions of `torch.nn.functional` beyond the elementwise ones: convolutions and pooling (with the
kernel/stride/padding/dilation arithmetic), padding, interpolation, embeddings and attention (the losses are
`losses.py`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args, whole_factor
from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import Atom, Dim
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.views import UNSOLVED

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def _sizes(ev: ShapeEvaluator, expr: cst.BaseExpression | None, count: int, default: int | None, before: int,
           ) -> list[Dim] | None:
    """An `int or tuple` argument (kernel_size, stride, padding...) as `count` sizes."""
    if expr is None:
        return None if default is None else [Dim.of(default)] * count
    if type(expr) in (cst.Tuple, cst.List):
        values = [ev.size(element.value, before) for element in expr.elements]
        return None if None in values or len(values) != count else values  # type: ignore[return-value]
    single = ev.size(expr, before)
    return None if single is None else [single] * count


def window_output(length: Dim, kernel: Dim, stride: Dim, padding: Dim, dilation: Dim) -> Dim:
    """`floor((L + 2p - d(k - 1) - 1) / s) + 1`, as PyTorch documents for convolutions and pooling."""
    span = length + 2 * padding - dilation * (kernel - 1) - 1
    return (span if stride.literal == 1 else span // stride) + 1


def _spatial(x: Shape, count: int) -> tuple[tuple[Dim, ...], tuple[Dim, ...]] | None:
    """(leading dims, spatial dims) of a batched or unbatched input with `count` spatial dims."""
    if x.rank is None or x.rank not in (count + 1, count + 2):
        return None
    return x.dims[:-count], x.dims[-count:]


def _conv(count: int):
    def conv(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        x, weight = ev.tensor(args.get(0, "input"), before), ev.tensor(args.get(1, "weight"), before)
        if x is None or weight is None or weight.rank != count + 2:
            return None
        split = _spatial(x, count)
        if split is None:
            return None
        leading, spatial = split
        padding_expr = args.get(4, "padding")
        kernels = list(weight.dims[2:])
        if type(padding_expr) is cst.SimpleString:
            mode = padding_expr.evaluated_value
            if mode == "same":
                out = spatial
            elif mode == "valid":
                out = tuple(window_output(length, k, Dim.of(1), Dim.of(0), Dim.of(1))
                            for length, k in zip(spatial, kernels))
            else:
                return None
        else:
            strides = _sizes(ev, args.get(3, "stride"), count, 1, before)
            paddings = _sizes(ev, padding_expr, count, 0, before)
            dilations = _sizes(ev, args.get(5, "dilation"), count, 1, before)
            if strides is None or paddings is None or dilations is None:
                return None
            out = tuple(window_output(*values) for values in zip(spatial, kernels, strides, paddings, dilations))
        return Shape(leading[:-1] + (weight.dims[0],) + tuple(out), layout=(), dtype=x.dtype).row_major()
    return conv


def _pool(count: int, has_dilation: bool):
    def pool(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        x = ev.tensor(args.get(0, "input"), before)
        if x is None or _true(args.get(5 if has_dilation else 4, "ceil_mode")) or \
                _true(args.get(6, "return_indices") if has_dilation else None):
            return None  # rounding up, or a (values, indices) pair
        split = _spatial(x, count)
        if split is None:
            return None
        leading, spatial = split
        kernels = _sizes(ev, args.get(1, "kernel_size"), count, None, before)
        stride_expr = args.get(2, "stride")
        strides = kernels if stride_expr is None or _none(stride_expr) else _sizes(ev, stride_expr, count, 1, before)
        paddings = _sizes(ev, args.get(3, "padding"), count, 0, before)
        dilations = _sizes(ev, args.get(4, "dilation") if has_dilation else None, count, 1, before)
        if kernels is None or strides is None or paddings is None or dilations is None:
            return None
        out = tuple(window_output(*values) for values in zip(spatial, kernels, strides, paddings, dilations))
        return Shape(leading + out, layout=(), dtype=x.dtype).row_major()
    return pool


def _adaptive_pool(count: int):
    def pool(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        args = Args(node, 0)
        x = ev.tensor(args.get(0, "input"), before)
        output = args.get(1, "output_size")
        if x is None or output is None:
            return None
        split = _spatial(x, count)
        if split is None:
            return None
        leading, spatial = split
        if type(output) in (cst.Tuple, cst.List):
            values = [element.value for element in output.elements]
            if len(values) != count:
                return None
            sizes = [length if _none(value) else ev.size(value, before) for length, value in zip(spatial, values)]
        else:
            sizes = [ev.size(output, before)] * count
        if None in sizes:
            return None
        return Shape(leading + tuple(sizes), layout=(), dtype=x.dtype).row_major()  # type: ignore[arg-type]
    return pool


def _true(expr: cst.BaseExpression | None) -> bool:
    return type(expr) is cst.Name and expr.value == "True"


def _none(expr: cst.BaseExpression | None) -> bool:
    return type(expr) is cst.Name and expr.value == "None"


def pad(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`F.pad(x, (left, right, top, bottom))`: the last dims grow by their pair, from the last dim backwards."""
    args = Args(node, 0)
    x = ev.tensor(args.get(0, "input"), before)
    amounts = args.get(1, "pad")
    if x is None or type(amounts) not in (cst.Tuple, cst.List):
        return None
    values = [ev.size(element.value, before) for element in amounts.elements]
    if None in values or len(values) % 2 or len(values) // 2 > len(x.dims):
        return None
    dims = list(x.dims)
    for i in range(len(values) // 2):
        position = len(dims) - 1 - i
        if x.variadic is not None and position < x.variadic:
            return None
        dims[position] = dims[position] + values[2 * i] + values[2 * i + 1]  # type: ignore[operator]
    return Shape(tuple(dims), x.variadic, x.variadic_name, tuple(range(len(dims))), x.dtype)


def interpolate(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    x = ev.tensor(args.get(0, "input"), before)
    if x is None or x.rank is None or x.rank < 3:
        return None
    count = x.rank - 2
    size, scale = args.get(1, "size"), args.get(2, "scale_factor")
    if size is not None and not _none(size):
        # sizes held in a sequence (`size=skip.shape[-2:]`, a U-Net's or an FPN's lateral map): only one of exactly
        # the spatial dims' count says each size; anything else is one int for every spatial dim, or unknown
        held = ev.sizes(size, before) if type(size) not in (cst.Tuple, cst.List) else None
        sizes = list(held.dims) if held is not None and held.rank == count else _sizes(ev, size, count, None, before)
    elif scale is not None:
        whole = whole_factor(scale)  # `scale_factor=2.0`
        factors = [whole] * count if whole is not None else _sizes(ev, scale, count, None, before)
        sizes = None if factors is None else [length * factor for length, factor in zip(x.dims[2:], factors)]
    else:
        sizes = None
    if sizes is None:
        return None
    return Shape(x.dims[:2] + tuple(sizes), layout=(), dtype=x.dtype).row_major()


_INTERPOLATION_RANKS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def interpolation_mismatch(ev: ShapeEvaluator, node: cst.Call, before: int) -> tuple[Shape, str] | None:
    """The input of `F.interpolate` and why torch rejects it, where the code states both: a rank other than 3 to 5,
    sizes or scale factors for another count of spatial dims, or a mode made for another rank (`linear` is 1-d)."""
    args = Args(node, 0)
    x = ev.tensor(args.get(0, "input"), before)
    if x is None or x.rank is None:
        return None
    if not 3 <= x.rank <= 5:
        return x, f"{x.rank} dims, but interpolation takes 3 to 5 (batch, channels, 1 to 3 spatial dims)"
    spatial = x.rank - 2
    dims = "1 spatial dim" if spatial == 1 else f"{spatial} spatial dims"
    for name, expr in (("size", args.get(1, "size")), ("scale_factor", args.get(2, "scale_factor"))):
        if type(expr) in (cst.Tuple, cst.List) and len(expr.elements) != spatial:  # type: ignore[union-attr]
            return x, f"{dims}, but {name} gives {len(expr.elements)}"  # type: ignore[union-attr]
    # sizes held in a name, an attribute or a parameter (`size=self.out_size`, `size=skip.shape[2:]`): only a
    # sequence of known length counts; an int (one size for every spatial dim) is not a sequence of sizes
    held = args.get(1, "size")
    count = ev.sizes(held, before) if held is not None and type(held) not in (cst.Tuple, cst.List) else None
    if count is not None and count.rank is not None and count.rank != spatial:
        return x, f"{dims}, but size `{ev.ctx.code(held).strip()}` gives {count.rank}"  # type: ignore[arg-type]
    mode = args.get(3, "mode")
    wanted = _INTERPOLATION_RANKS.get(mode.evaluated_value) if type(mode) is cst.SimpleString else None  # type: ignore
    if wanted is not None and wanted != x.rank:
        return x, f"{x.rank} dims, but mode {mode.value} needs {wanted}"  # type: ignore[union-attr]
    return None


def embedding(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    indices, weight = ev.tensor(args.get(0, "input"), before), ev.tensor(args.get(1, "weight"), before)
    if indices is None or weight is None or weight.rank != 2:
        return None
    dims = indices.dims + (weight.dims[1],)
    return Shape(dims, indices.variadic, indices.variadic_name, tuple(range(len(dims))), weight.dtype)


def one_hot(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """The labels' dims and a class dim: `num_classes`, or where the call leaves it out (or passes -1) one more
    than the largest label, a size of the data's own (it may be 1), so that what the rows meet is still known (a
    Dice loss's `(probs * F.one_hot(t).permute(0, 3, 1, 2)).sum((0, 2, 3))` keeps the probabilities' classes)."""
    args = Args(node, 0)
    x = ev.tensor(args.get(0, "tensor", "input"), before)
    given = args.get(1, "num_classes")
    classes = ev.size(given, before) if given is not None else None
    if given is None or classes is not None and classes.literal == -1:
        classes = Dim((((Atom((UNSOLVED, ("one_hot", id(node))), "num_classes"),), 1),))
    if x is None or classes is None:
        return None
    dims = x.dims + (classes,)
    return Shape(dims, x.variadic, x.variadic_name, tuple(range(len(dims))), "int")


def attention(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`F.scaled_dot_product_attention(q, k, v)`: q's dims with v's last; layout unknown (kernels may hand back a
    transposed view)."""
    args = Args(node, 0)
    query, value = ev.tensor(args.get(0, "query"), before), ev.tensor(args.get(2, "value"), before)
    if query is None or value is None or not query.dims or value.size(-1) is None:
        return None
    return Shape(query.dims[:-1] + (value.size(-1),), query.variadic, query.variadic_name, None,  # type: ignore
                 query.dtype)


def cosine_similarity(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    args = Args(node, 0)
    a, b = ev.tensor(args.get(0, "x1"), before), ev.tensor(args.get(1, "x2"), before)
    dim_expr = args.get(2, "dim")
    dim = ev.integer(dim_expr, before) if dim_expr is not None else 1
    if a is None or b is None or dim is None:
        return None
    joined = broadcast(a, b).shape
    position = joined.index(dim) if joined is not None else None
    if joined is None or position is None:
        return None
    dims = joined.dims[:position] + joined.dims[position + 1:]
    variadic = joined.variadic if joined.variadic is None or joined.variadic <= position else joined.variadic - 1
    return Shape(dims, variadic, "...", None, "float").row_major()


def pairwise_distance(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`F.pairwise_distance(x1, x2)`: the norm of their difference over the last dim, one distance per row (a
    contrastive loss's (N,) distances); kept as 1 with `keepdim=True`."""
    args = Args(node, 0)
    a, b = ev.tensor(args.get(0, "x1"), before), ev.tensor(args.get(1, "x2"), before)
    keep = args.get(4, "keepdim")
    if a is None or b is None or keep is not None and not (type(keep) is cst.Name and keep.value in ("True", "False")):
        return None
    joined = broadcast(a, b).shape
    if joined is None or not joined.dims or joined.variadic == len(joined.dims):
        return None  # no last dim known
    kept = (Dim.of(1),) if type(keep) is cst.Name and keep.value == "True" else ()
    return Shape(joined.dims[:-1] + kept, joined.variadic, "...", None, "float").row_major()


FUNCTIONS = {
    "F.conv1d": _conv(1), "F.conv2d": _conv(2), "F.conv3d": _conv(3),
    "F.max_pool1d": _pool(1, True), "F.max_pool2d": _pool(2, True), "F.max_pool3d": _pool(3, True),
    "F.avg_pool1d": _pool(1, False), "F.avg_pool2d": _pool(2, False), "F.avg_pool3d": _pool(3, False),
    "F.adaptive_avg_pool1d": _adaptive_pool(1), "F.adaptive_avg_pool2d": _adaptive_pool(2),
    "F.adaptive_avg_pool3d": _adaptive_pool(3), "F.adaptive_max_pool1d": _adaptive_pool(1),
    "F.adaptive_max_pool2d": _adaptive_pool(2), "F.adaptive_max_pool3d": _adaptive_pool(3),
    "F.pad": pad, "F.interpolate": interpolate, "F.upsample": interpolate,  # upsample: interpolate's deprecated name
    "F.embedding": embedding, "F.one_hot": one_hot,
    "F.scaled_dot_product_attention": attention, "F.cosine_similarity": cosine_similarity,
    "F.pairwise_distance": pairwise_distance,
}
# torch's own namespace has some of them too, with the same parameters (`torch.max_pool2d(x, 2)`, as older
# tutorials write it); `torch.embedding` is not among them: it takes the weight first
FUNCTIONS.update({f"torch.{name}": FUNCTIONS[f"F.{name}"] for name in (
    "conv1d", "conv2d", "conv3d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "adaptive_avg_pool1d",
    "adaptive_max_pool1d", "cosine_similarity", "pairwise_distance")})
