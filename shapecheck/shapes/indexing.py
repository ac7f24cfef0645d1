"""Indexing: int, slice, `None` and `...` subscripts, and `narrow`, `unfold`, `index_select`, `gather`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import libcst as cst

from shapecheck.shapes.args import Args, as_function
from shapecheck.shapes.broadcast import prefix_key
from shapecheck.objects.dims import Atom, Dim, at_least, opaque_operands, same
from shapecheck.objects.values import Mapping, Seq
from shapecheck.shapes.positions import dim_position, dropped, inserted, opaque, replaced
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Array

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

# the shape of an index a subscript holds: a tensor's index is a tensor, a numpy array's an array
IndexShape = Callable[[cst.BaseExpression, int], "Shape | None"]


def _narrow(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    position = dim_position(ev, shape, args.get(0, "dim"), before)
    length = ev.size(args.get(2, "length"), before)
    if position is None or length is None:
        return None
    return replaced(shape, position, length)


def _unfold(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`x.unfold(dim, size, step)`: the dim becomes its count of windows, `(L - size) // step + 1`, and each
    window's `size` elements go last. The result is a strided view, so its layout is unknown."""
    position = dim_position(ev, shape, args.get(0, "dimension", "dim"), before)
    size, step = ev.size(args.get(1, "size"), before), ev.size(args.get(2, "step"), before)
    if position is None or size is None or step is None or step.literal == 0:
        return None
    windows = (shape.dims[position] - size) // step + 1
    dims = shape.dims[:position] + (windows,) + shape.dims[position + 1:] + (size,)
    return Shape(dims, shape.variadic, shape.variadic_name, None, shape.dtype)


def _index_select(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    position = dim_position(ev, shape, args.get(0, "dim"), before)
    index = ev.tensor(args.get(1, "index"), before)
    if position is None or index is None or index.rank != 1:
        return None
    return replaced(shape, position, index.dims[0]).row_major()


def _gather(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    index = ev.tensor(args.get(1, "index"), before)
    return index.with_dtype(shape.dtype).row_major() if index is not None else None


def subscript(ev: ShapeEvaluator, node: cst.Subscript, before: int) -> Shape | None:
    """Basic indexing: ints drop a dim, slices keep it (a literal slice of a literal size is exact), `None` adds a
    1, `...` stands for the dims not named. A tensor or list index (advanced indexing) is left unknown."""
    shape = ev.tensor(node.value, before)
    if shape is None:
        found = ev.items(node.value, before)
        if found is None:
            return _entry(ev, node, before)
        if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
            return None
        index = ev.integer(node.slice[0].slice.value, before)
        if index is None:  # an index the code does not state (a dataset's): what every element is
            return _entry(ev, node, before)
        value = found.at(index)
        return value if isinstance(value, Shape) else None
    return indexed(ev, shape, node, before)


def indexed(ev: ShapeEvaluator, shape: Shape, node: cst.Subscript, before: int,
            index_shape: IndexShape | None = None) -> Shape | None:
    """`node`'s basic indexing of a tensor (or a numpy array, whose basic indexing is the same) of `shape`, and its
    indexing by one 1-d integer index, whose shape `index_shape` reads (a tensor's by default)."""
    of_array = index_shape is not None
    index_shape = index_shape or (lambda expr, at: _tensor_index(ev, expr, at))
    elements = [element.slice for element in node.slice]
    tensors = [i for i, e in enumerate(elements) if _is_tensor_index(ev, e, before, index_shape)]
    if len(tensors) > 1:
        return None  # index tensors broadcast together to one dim (`a[rows, cols]`), not one dim each
    if of_array and tensors and _int_apart(ev, elements, tensors[0], before):
        # numpy's `x[0, :, idx]`: the int is an index array too, and apart from idx their dims go first (torch
        # takes an int as basic indexing: its (N, L) is what the dims say)
        return None
    ellipses = [i for i, e in enumerate(elements) if type(e) is cst.Index and type(e.value) is cst.Ellipsis]
    if len(ellipses) > 1:
        return None
    if not ellipses and shape.variadic is not None:
        shape = ev.materialized(shape, sum(1 for e in elements if not _is_none(e)), id(node))
        if shape is None:
            return None
        if shape.variadic is not None and shape.variadic < sum(1 for e in elements if not _is_none(e)):
            return None
    split = ellipses[0] if ellipses else len(elements)
    front, back = elements[:split], elements[split + 1:]
    consumed_front = sum(1 for e in front if not _is_none(e))
    consumed_back = sum(1 for e in back if not _is_none(e))
    if shape.variadic is not None and (consumed_front > shape.variadic or
                                       consumed_back > len(shape.dims) - shape.variadic):
        return None
    if shape.variadic is None and consumed_front + consumed_back > len(shape.dims):
        return None
    result = shape
    # back first, so front positions stay valid
    position = len(shape.dims)
    for element in reversed(back):
        if _is_none(element):
            result = inserted(result, position, Dim.of(1))
            continue
        position -= 1
        result = _indexed(ev, result, position, element, before, index_shape)
        if result is None:
            return None
    position = 0
    for element in front:
        if _is_none(element):
            result = inserted(result, position, Dim.of(1))
            position += 1
            continue
        before_rank = len(result.dims)
        result = _indexed(ev, result, position, element, before, index_shape)
        if result is None:
            return None
        position += 1 + len(result.dims) - before_rank  # an int takes its dim away, an index array puts its own
    return result


def _tensor_index(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> Shape | None:
    """What indexes a tensor: a tensor, or a numpy array of ints, which torch takes as one (a minibatch iterator's
    `inputs[indices[start:start + batchsize]]` of `indices = np.arange(len(inputs))`)."""
    shape = ev.tensor(expr, before)
    if shape is not None:
        return shape
    value = ev.object(expr, before)
    return value.shape if isinstance(value, Array) and value.shape.dtype == "int" else None


def _int_apart(ev: ShapeEvaluator, elements: list[cst.BaseSlice], tensor: int, before: int) -> bool:
    """An int index with something other than ints between it and the index tensor at `tensor`."""
    for position, element in enumerate(elements):
        if position != tensor and type(element) is cst.Index and _is_int(ev, element.value, before):
            between = elements[min(position, tensor) + 1:max(position, tensor)]
            if not all(type(e) is cst.Index and _is_int(ev, e.value, before) for e in between):
                return True
    return False


def rows(shape: Shape) -> Shape | None:
    """What iterating a tensor gives: `x[i]` for each `i` along dim 0; None for a 0-d tensor (it raises)."""
    if shape.rank == 0:
        return None
    if shape.variadic == 0:  # nothing known of dim 0: the rows' rank is not either
        return Shape.unknown_rank(shape.contiguous is not False, shape.dtype) if not shape.dims else None
    return dropped(shape, {0}).with_below(shape.below)  # the rows hold the tensor's values


def _entry(ev: ShapeEvaluator, node: cst.Subscript, before: int) -> Shape | None:
    """A tensor a dict or a list holds: `batch["feats"]` of `batch = {"feats": torch.randn(16, 32), ...}`, the
    `self.boxes[idx]` of a dataset's list of tensors."""
    if not isinstance(ev.object(node.value, before), Mapping | Seq):
        return None
    value = ev.object(node, before)
    return value if isinstance(value, Shape) else None


def _is_tensor_index(ev: ShapeEvaluator, element: cst.BaseSlice, before: int, index_shape: IndexShape) -> bool:
    return type(element) is cst.Index and not _is_int(ev, element.value, before) \
        and index_shape(element.value, before) is not None


def _is_int(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    """An int the code states, or one it holds without stating it (the index a dataset's `__getitem__` gets)."""
    return ev.integer(expr, before) is not None or isinstance(ev.object(expr, before), Dim)


def _is_none(element: cst.BaseSlice) -> bool:
    return type(element) is cst.Index and type(element.value) is cst.Name and element.value.value == "None"


def _indexed(ev: ShapeEvaluator, shape: Shape, position: int, element: cst.BaseSlice, before: int,
             index_shape: IndexShape) -> Shape | None:
    if type(element) is cst.Slice:
        if element.lower is None and element.upper is None and element.step is None:
            return shape
        size = _slice_length(ev, shape.dims[position], element, before)
        dim = size if size is not None else opaque(_slice_key(ev, shape.dims[position], element, before),
                                                    _slice_name(ev, shape.dims[position], element, before),
                                                    _slice_bound(ev, element, before))
        return replaced(shape, position, dim)
    if type(element) is cst.Index and _is_int(ev, element.value, before):
        return dropped(shape, {position})
    if type(element) is cst.Index:
        # a 1-d tensor of indices picks that many entries along the dim (`features[idx]` with idx a batch of row
        # numbers), one of more dims puts its dims there (`wave[starts[:, None] + offsets]`, the frames of a
        # signal); a 1-d boolean mask picks a count of its own (`_masked`), and several index tensors broadcast:
        # left unknown
        index = index_shape(element.value, before)
        if index is not None and index.dtype == "bool" and index.rank == 1:
            return _masked(ev, shape, position, element.value, index)
        if index is None or index.dtype != "int" or index.variadic is not None:
            return None
        if index.rank == 1:
            return replaced(shape, position, index.dims[0])
        if index.rank > 1 and shape.variadic is None:
            return Shape(shape.dims[:position] + index.dims + shape.dims[position + 1:], dtype=shape.dtype)
    return None


def _masked(ev: ShapeEvaluator, shape: Shape, position: int, mask: cst.BaseExpression, index: Shape) -> Shape | None:
    """`output[train_mask]`: a 1-d boolean mask as long as the dim it indexes picks the entries where it holds,
    a count of its own that the same mask picks from every tensor it indexes, so a GCN's (nodes, 1) outputs and
    its (nodes,) targets under one `train_mask` are (k, 1) and (k,). The count is keyed by the mask as written and
    its size: a mask not known to fit the dim (torch raises on a different length) is left unknown."""
    if position >= len(shape.dims) or shape.variadic is not None and position >= shape.variadic \
            or same(shape.dims[position], index.dims[0]) is not True:
        return None
    written = ev.ctx.code(mask)
    named = written if type(mask) in (cst.Name, cst.Attribute, cst.Subscript) else f"({written})"
    # a count the code does not state, 0 or 1 included (`idx[scores == scores.max()].item()` picks one)
    count = Dim.symbol(("mask", written, index.dims[0]), f"{named}.sum()", placeholder=True)
    return replaced(shape, position, count).without_values()


def _slice_key(ev: ShapeEvaluator, size: Dim, element: cst.Slice, before: int) -> tuple:
    """What an unknown slice length is a function of, so that two slices of one size with the same length are one
    size: bounds the code states fix the length for every size, and `k:` and `:-j` keep `max(0, size - k - j)` of
    it, so `tokens[:, :-1]` and `tokens[:, 1:]` (teacher forcing over a length T not known) are as long; any other
    slice is a length of its own."""
    if element.step is None:
        lower = ev.integer(element.lower, before) if element.lower is not None else 0
        upper = ev.integer(element.upper, before) if element.upper is not None else None
        if lower is not None and (upper is not None or element.upper is None):
            if lower >= 0 and (upper is None or upper < 0):
                return ("slice", "drop", lower - (upper or 0), size)
            return ("slice", "bounds", lower, upper, size)
        bound = ev.size(element.upper, before) if lower == 0 and element.upper is not None else None
        if bound is not None and at_least(bound) is not None:  # `[:x.size(1)]`: a size, never negative
            return prefix_key(bound, size)
    return ("slice", id(element), size)


def _slice_name(ev: ShapeEvaluator, size: Dim, element: cst.Slice, before: int) -> str:
    """How a message names a slice's unknown length: `batch_size` for `x[i:i + batch_size]` and `x[i + 1:i +
    batch_size + 1]` (at most that many at the end of the data), else the slice as written."""
    if element.step is None and element.lower is not None and element.upper is not None:
        lower, upper = _offset(ev, element.lower, before, False), _offset(ev, element.upper, before, False)
        if lower is not None and upper is not None and (upper - lower).literal is None \
                and all(coef > 0 for _, coef in (upper - lower).terms):
            return str(upper - lower)
    plain = size.atom is not None and not size.atom.compound
    # `(seq_len + 1)[1:]`: without the parentheses the slice reads as one of the last operand's
    return f"{size if plain else f'({size})'}[{ev.ctx.code(element)}]"


def _slice_bound(ev: ShapeEvaluator, element: cst.Slice, before: int) -> int | None:
    """At most how many entries `a:b` keeps, when `b - a` is a literal the code states (`i:i + block_size`, `i + 1:i
    + block_size + 1`, `:8`) or a size known to be at most one (`min(bptt, ...)`): whatever `a` is and however long the dim, a slice never holds more (it may hold fewer
    at the end of the data, so this bounds the length without stating it)."""
    if element.step is not None or element.upper is None:
        return None
    lower = _offset(ev, element.lower, before, True) if element.lower is not None else Dim.of(0)
    upper = _offset(ev, element.upper, before, True)
    if lower is None or upper is None:
        return None
    span = upper - lower
    length = span.literal
    if length is None and span.atom is not None:
        # `i:i + seq_len` with `seq_len = min(bptt, len(source) - 1 - i)`: at most what bounds the length
        return span.atom.at_most
    return length if length is not None and length >= 0 else None


def _offset(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int, evaluated: bool) -> Dim | None:
    """A slice bound as a sum: the sizes the analysis knows (when `evaluated`; else literals only, to name the
    length as the code spells it), and each other name as a symbol of its spelling (the two bounds of one slice
    read a name at the same time, so `i` in both is one value)."""
    if type(expr) is cst.BinaryOperation and type(expr.operator) in (cst.Add, cst.Subtract):
        left, right = _offset(ev, expr.left, before, evaluated), _offset(ev, expr.right, before, evaluated)
        if left is None or right is None:
            return None
        return left + right if type(expr.operator) is cst.Add else left - right
    size = ev.size(expr, before) if evaluated else Dim.of(expr.evaluated_value) if type(expr) is cst.Integer else None
    if size is not None:
        return size
    if type(expr) in (cst.Name, cst.Attribute):
        return Dim.symbol(("bound", ev.ctx.code(expr)), ev.ctx.code(expr))
    return None


def _slice_length(ev: ShapeEvaluator, size: Dim, element: cst.Slice, before: int) -> Dim | None:
    """The length of `a:b` over a dim of `size`, when exact: literal bounds, within a literal size or one the
    analysis proves long enough (`[1:]`, `[:-1]` of `seq_len + 1` are `seq_len`; `[:8]` of `T` is unknown, `T` may
    be shorter than 8), or sizes proven in order inside it."""
    found = _stated_slice_length(ev, size, element, before)
    return found if found is not None or element.step is not None else _sized_slice_length(ev, size, element, before)


def _sized_slice_length(ev: ShapeEvaluator, size: Dim, element: cst.Slice, before: int) -> Dim | None:
    """`a:b` with sizes for bounds, proven `0 <= a <= b <= size`: `b - a` (the two directions of a bidirectional
    RNN's (B, T, 2 * H) output, `out[..., :H]` and `out[..., H:]`, are H each); any bound that may fall outside
    is unknown."""
    start = ev.size(element.lower, before) if element.lower is not None else Dim.of(0)
    stop = ev.size(element.upper, before) if element.upper is not None else size
    if start is None or stop is None:
        return None
    bounds = (at_least(start), at_least(stop - start), at_least(size - stop))
    return stop - start if all(bound is not None and bound >= 0 for bound in bounds) else None


def _stated_slice_length(ev: ShapeEvaluator, size: Dim, element: cst.Slice, before: int) -> Dim | None:
    if element.step is not None:
        return _stepped_slice_length(ev, size, element, before)
    lower = ev.integer(element.lower, before) if element.lower is not None else 0
    upper = ev.integer(element.upper, before) if element.upper is not None else None
    if lower is None and element.lower is not None and element.upper is not None:
        return _window_length(ev, size, element.lower, element.upper, before)
    if lower == 0 and element.upper is not None and upper is None:
        return _bounded_prefix(ev, size, element.upper, before)
    if lower is None or element.upper is not None and upper is None:
        return None
    total = size.literal
    if total is not None:
        start = max(0, lower + total if lower < 0 else lower)
        stop = total if upper is None else max(0, upper + total if upper < 0 else upper)
        return Dim.of(max(0, min(stop, total) - min(start, total)))
    return _symbolic_slice_length(size, lower, upper)


def _stepped_slice_length(ev: ShapeEvaluator, size: Dim, element: cst.Slice, before: int) -> Dim | None:
    """`a:b:k` with a literal step: a reversal (`img[:, ::-1]`, the flip of an augmentation) keeps every entry of
    any size; otherwise exact when the size and the bounds the code states are literals (Python's own rule)."""
    step = ev.integer(element.step, before)
    if step is None or step == 0:
        return None
    if step == 1:
        return _slice_length(ev, size, element.with_changes(step=None), before)
    if step == -1 and element.lower is None and element.upper is None:
        return size
    lower = ev.integer(element.lower, before) if element.lower is not None else None
    upper = ev.integer(element.upper, before) if element.upper is not None else None
    if size.literal is None or (lower is None) != (element.lower is None) or (upper is None) != (element.upper is None):
        return None
    return Dim.of(len(range(size.literal)[lower:upper:step]))


def _bounded_prefix(ev: ShapeEvaluator, size: Dim, upper_expr: cst.BaseExpression, before: int) -> Dim | None:
    """`pos[:, :T]` of a literal size with `T` a size known to be at most it (a length drawn below 21 into a table
    of 48): `T` entries."""
    stop = ev.size(upper_expr, before)
    if stop is not None and _whole_chunks(size, stop):
        return stop
    bound = stop.atom.at_most if stop is not None and stop.atom is not None else None
    return stop if bound is not None and size.literal is not None and bound <= size.literal else None


def _whole_chunks(size: Dim, stop: Dim) -> bool:
    """`data[:nbatch * bsz]` with `nbatch = data.size(0) // bsz` (the language-model tutorials' `batchify`): the
    chunks of `bsz` the size holds whole, never more than the size, so exactly `nbatch * bsz` entries."""
    for atom in stop.atoms:
        operands = opaque_operands(atom)
        if operands is not None and atom.key[0] == "//" and operands[0] == size \
                and stop == Dim((((atom,), 1),)) * operands[1] and at_least(operands[1]) is not None:
            return True
    return False


def _window_length(ev: ShapeEvaluator, size: Dim, lower_expr: cst.BaseExpression, upper_expr: cst.BaseExpression,
                   before: int) -> Dim | None:
    """`x[i:i + window + 1]` with `i` a dataset's index, drawn below its `__len__`, or a window that starts at an
    offset from it (`x[i + window:i + window + horizon]`, the target after the inputs): exact when that length keeps
    the window inside `size` for every index (`len(series) - window - 1` windows of `series`) and the start is never
    negative (counted from the end), else unknown."""
    lower, upper = _index_bound(ev, lower_expr, before), _index_bound(ev, upper_expr, before)
    if lower is None or upper is None:
        return None
    indexes = [atom for atom in lower.atoms if atom.below is not None]
    if len(indexes) != 1:
        return None
    index, length = indexes[0], upper - lower
    offset = lower.substitute({index: Dim.of(0)})  # where the window starts for index 0
    if index not in length.atoms and offset == Dim.of(0) and _chunk_fits(size, index, lower, length):
        return length
    if (lower - offset).atom is not index or index in length.atoms:
        return None  # not `i` plus an offset, to that plus a size
    last = upper.substitute({index: index.below - 1})  # where the window ends for the last index
    start, room, least = at_least(offset), at_least(size - last), at_least(length)
    return length if all(bound is not None and bound >= 0 for bound in (start, room, least)) else None


def _chunk_fits(size: Dim, index: Atom, lower: Dim, length: Dim) -> bool:
    """`x[i * w:(i + 1) * w]` of a dataset of `len(x) // w` items: the `i`-th of the chunks of `w` the size holds
    whole, each of length `w`, the last ending at `(len(x) // w) * w`, inside `x`."""
    step = lower._divided(Dim((((index,), 1),)))
    below = index.below
    if step is None or step != length or index in step.atoms or below is None or at_least(step) is None:
        return False
    room = at_least(size - below * step)
    if room is not None and room >= 0:
        return True
    operands = opaque_operands(below.atom) if below.atom is not None else None
    return operands is not None and below.atom.key[0] == "//" and operands == (size, step)  # type: ignore[union-attr]


def _index_bound(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> Dim | None:
    """A window's bound as a size: what the analysis knows, or where it reads an element of a tensor of indices
    drawn below a stated end (`for i in torch.randint(len(data) - block_size, (batch_size,))`), that index as a
    size below that end, plus or minus sizes."""
    size = ev.size(expr, before)
    if size is not None:
        return size
    if type(expr) is cst.BinaryOperation and type(expr.operator) in (cst.Add, cst.Subtract):
        left, right = _index_bound(ev, expr.left, before), ev.size(expr.right, before)
        if left is None or right is None:
            return None
        return left + right if type(expr.operator) is cst.Add else left - right
    if type(expr) is not cst.Name:
        return None
    drawn = ev.tensor(expr, before)
    if drawn is None or drawn.rank != 0 or drawn.below is None or drawn.dtype != "int":
        return None
    binding = ev.binding(expr, before)
    return Dim.symbol(("drawn index", id(binding) if binding is not None else expr.value), expr.value,
                      below=drawn.below)


def _symbolic_slice_length(size: Dim, lower: int, upper: int | None) -> Dim | None:
    """`lower:upper` of a symbolic `size`: exact when `size` is proven to reach both bounds (neither is clipped)
    and the length is proven not negative; a bound counted from the start against one counted from the end
    (`-3:2`) depends on the size, and stays unknown."""
    start = Dim.of(lower) if lower >= 0 else size + lower
    stop = size if upper is None else Dim.of(upper) if upper >= 0 else size + upper
    length = stop - start
    needed = max(abs(lower), abs(upper) if upper is not None else 0)
    if not needed:  # `0:` or `:0`
        return length
    least = at_least(size)
    if least is None or least < needed:
        return None
    if length.literal is not None:
        return Dim.of(max(0, length.literal))
    shortest = at_least(length)
    return length if shortest is not None and shortest >= 0 else None


METHODS = {"narrow": _narrow, "unfold": _unfold, "index_select": _index_select, "gather": _gather, "take_along_dim": _gather}
FUNCTIONS = {f"torch.{name}": as_function(handler) for name, handler in METHODS.items()}
