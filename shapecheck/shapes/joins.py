"""Joining and splitting tensors: `cat`, `stack`, `split`, `chunk`, `unbind`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.shapes.args import Args
from shapecheck.objects.dims import Dim, same
from shapecheck.objects.values import FALSE, Seq, truth
from shapecheck.shapes.positions import dropped, insert_position, inserted, opaque, replaced, with_dims_named
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Conflict, Items

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

# the end of a list of tensors of one shape whose length is unknown
UNCOUNTED = Shape.unknown_rank()


def _split_dim(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> tuple[Shape, int] | None:
    """The tensor (with the dim named) and the position of the dim a chunk/split/unbind cuts (`dim`, default 0)."""
    dim = ev.integer(args.get(1, "dim"), before) if args.get(1, "dim") is not None else 0
    if dim is None:
        return None
    expanded = with_dims_named(ev, shape, [dim], args)
    position = expanded.index(dim) if expanded is not None else None
    return (expanded, position) if expanded is not None and position is not None else None


def _chunk(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Items | None:
    count = ev.integer(args.get(0, "chunks"), before)
    cut = _split_dim(ev, shape, args, before)
    if count is None or count <= 0 or cut is None:
        return None
    shape, position = cut
    size = shape.dims[position]
    if size.literal is not None:
        step = -(-size.literal // count)
        pieces = [min(step, size.literal - i * step) for i in range(count) if i * step < size.literal]
        return Items(tuple(replaced(shape, position, Dim.of(p)) for p in pieces))
    part = size._divided(Dim.of(count))
    if part is not None:
        return Items(tuple(replaced(shape, position, part) for _ in range(count)))
    return Items(None, replaced(shape, position, opaque(("chunk", id(args.call)), f"{size} / {count}")))


def _split(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Items | None:
    target = args.get(0, "split_size_or_sections", "split_size")
    cut = _split_dim(ev, shape, args, before)
    if target is None or cut is None:
        return None
    shape, position = cut
    size = shape.dims[position]
    if type(target) in (cst.List, cst.Tuple):
        parts = [ev.size(e.value, before) for e in target.elements]
        if None in parts:
            return None
        return Items(tuple(replaced(shape, position, p) for p in parts))  # type: ignore[arg-type]
    step = ev.size(target, before)
    if step is None:
        return None
    if size.literal is not None and step.literal:
        pieces = [min(step.literal, size.literal - start) for start in range(0, size.literal, step.literal)]
        return Items(tuple(replaced(shape, position, Dim.of(p)) for p in pieces))
    count = size._divided(step)
    if count is not None and count.literal is not None and 0 < count.literal <= 64:
        return Items(tuple(replaced(shape, position, step) for _ in range(count.literal)))
    return Items(None, replaced(shape, position, opaque(("split", id(args.call)), f"{step}?")))


def sections_conflict(ev: ShapeEvaluator, node: cst.Call, receiver: cst.BaseExpression | None,
                      before: int) -> Conflict | None:
    """`x.split([16, 32], dim=1)` (or `torch.split(x, ...)`) whose sections, a list the code states, certainly do not
    add up to the dim they cut: "split_with_sizes expects split_sizes to sum exactly to 32"."""
    args = Args(node, 0 if receiver is not None else 1)
    tensor = receiver if receiver is not None else Args(node).get(0, "tensor")
    target = args.get(0, "split_size_or_sections", "split_size")
    shape = ev.tensor(tensor, before) if tensor is not None else None
    if shape is None or target is None:
        return None
    parts, cut = _sections(ev, target, before), _split_dim(ev, shape, args, before)
    if parts is None or cut is None or None in parts:
        return None
    shape, position = cut
    size = shape.dims[position]
    total = sum(parts[1:], parts[0]) if parts else Dim.of(0)  # type: ignore[arg-type]
    if (total - size).literal in (None, 0):
        return None
    return Conflict("dim", node, (shape,), f"`{ev.ctx.code(node)}`: the sections add up to {total}, but "
                                           f"{ev.ctx.code(tensor)} is {shape.render()}: dim {position} is {size}")


def _sections(ev: ShapeEvaluator, target: cst.BaseExpression, before: int) -> list[Dim | None] | None:
    """The sizes of a split's sections: a list or tuple the code writes, or one it holds in full (`list(sizes)` of a
    parameter a call gave `(16, 32)`); None for one split size, or sections not all known."""
    if type(target) in (cst.List, cst.Tuple):
        if any(type(e) is cst.StarredElement for e in target.elements):  # type: ignore[attr-defined]
            return None
        return [ev.size(e.value, before) for e in target.elements]  # type: ignore[attr-defined]
    held = ev.object(target, before)
    if not isinstance(held, Seq) or not held.complete or not held.items:
        return None
    return [item if isinstance(item, Dim) else None for item in held.items]


def _unbind(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Items | None:
    dim = ev.integer(args.get(0, "dim"), before) if args.get(0, "dim") is not None else 0
    if dim is None:
        return None
    shape = with_dims_named(ev, shape, [dim], args)
    position = shape.index(dim) if shape is not None else None
    if position is None:
        return None
    piece = dropped(shape, {position})
    count = shape.dims[position].literal
    if count is not None and 0 <= count <= 64:
        return Items(tuple(piece for _ in range(count)))
    return Items(None, piece)


def joined(ev: ShapeEvaluator, node: cst.Call, before: int, stack: bool) -> tuple[list[Shape] | None, int | None]:
    """The shapes of the tensors a `cat`/`stack` joins, and the `dim`: a list written out, or one a name holds
    (built by a comprehension, appended to in a loop, returned by a function). A list of tensors of one shape
    whose length is unknown is `[that shape, None]`: the sizes are known, the count is not."""
    args = Args(node, 0)
    listed = args.get(0, "tensors")
    if listed is None:
        return None, None
    if type(listed) in (cst.List, cst.Tuple):
        if any(type(e) is cst.StarredElement for e in listed.elements):
            return None, None
        shapes = [ev.tensor(e.value, before) for e in listed.elements]
    else:
        items = ev.items_of(listed, before)
        if items is None:
            return None, None
        shapes = list(items.items) if items.items is not None else [items.each, UNCOUNTED]
        if any(shape is not None and not isinstance(shape, Shape) for shape in shapes):
            return None, None
    dim_expr = args.get(1, "dim", "axis")
    dim = ev.integer(dim_expr, before) if dim_expr is not None else 0
    if not stack:
        # torch.cat skips a 1-D empty tensor whatever the others' ranks: an empty cache `torch.tensor([])` grown by
        # `torch.cat((cache, keys), dim=2)`.
        kept = [shape for shape in shapes if not _empty_vector(shape)]
        shapes = kept if kept else shapes[:1]
    if None in shapes or not shapes:
        return None, dim
    return shapes, dim  # type: ignore[return-value]


def zero_dim_joined(ev: ShapeEvaluator, node: cst.Call, before: int) -> bool:
    """Whether the tensors a `cat` joins are each known to be 0-d (losses gathered one a step, in a list a loop
    appends to or a hook is handed): `torch.cat` raises on any of them."""
    shapes, _ = joined(ev, node, before, stack=False)
    return bool(shapes) and all(shape is UNCOUNTED or shape.rank == 0 for shape in shapes) \
        and any(shape is not UNCOUNTED for shape in shapes)


def _empty_vector(shape: Shape | None) -> bool:
    return shape is not None and shape is not UNCOUNTED and shape.rank == 1 and shape.dims[0].literal == 0


def _counted(ev: ShapeEvaluator, node: cst.Call, before: int, stack: bool) -> tuple[list[Shape], int, Dim | None] | None:
    """The tensors joined, the dim, and how many there are (None: unknown; a symbol: as many as another list grown
    on the same passes of a loop, see `Seq.grown`)."""
    shapes, dim = joined(ev, node, before, stack)
    if shapes is None or dim is None:
        return None
    if shapes[-1] is UNCOUNTED:
        items = ev.items_of(Args(node, 0).get(0, "tensors"), before)
        return shapes[:1], dim, items.count if items is not None else None
    return shapes, dim, Dim.of(len(shapes))


def _cat(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    found = _counted(ev, node, before, stack=False)
    if found is None:
        return None
    shapes, dim, count = found
    first = shapes[0]
    if any(s.rank is None for s in shapes) or len({s.rank for s in shapes}) != 1:
        return None
    position = first.index(dim)
    if position is None:
        return None
    for other in shapes[1:]:
        for i, (a, b) in enumerate(zip(first.dims, other.dims)):
            if i != position and same(a, b) is False:
                return None
    total = Dim.of(0)
    for shape in shapes:
        total = total + shape.dims[position]
    if count is not None and count.literal is None and first.dims[position].literal == 1 and len(shapes) == 1:
        # one-element pieces (a critic's (1,) value each step) of a list grown on the passes of a loop the code
        # counts: as many as the passes, the length a `stack` of a list grown on them has
        total = count
    elif count is not None and count.literal is None and len(shapes) == 1 and _stated_passes(count):
        # a list grown on the passes of `range(n)` (or of a list of its numbers, `list(range(args.classes))`): as
        # many alike tensors as the passes
        total = first.dims[position] * count
    elif count is None or count.literal is None:
        # a list of unknown length: as long as another one grown on the same passes, or only as long as itself
        total = opaque(("cat", count if count is not None else id(node), first.dims[position]),
                       f"n * {first.dims[position]}")
    elif len(shapes) < count.literal:  # a list grown on the passes of `range(100)`: as many alike tensors
        total = first.dims[position] * count.literal
    dtype = first.dtype if all(s.dtype == first.dtype for s in shapes) else None
    return Shape(first.dims[:position] + (total,) + first.dims[position + 1:], layout=(), dtype=dtype).row_major()


def _stated_passes(count: Dim) -> bool:
    """A count of a loop's passes the code states (`range(n)`'s `n`), not the symbol of passes of their own that
    lists grown on the same passes share (see `objects.builtins.grown_count`)."""
    atom = count.atom
    return not (atom is not None and type(atom.key) is tuple and atom.key and atom.key[0] == "passes")


def _stack(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    found = _counted(ev, node, before, stack=True)
    if found is None:
        return None
    shapes, dim, count = found
    first = shapes[0]
    for other in shapes[1:]:
        if other.rank != first.rank or any(same(a, b) is False for a, b in zip(first.dims, other.dims)):
            return None
    position = insert_position(first, dim)
    if position is None:
        return None
    dtype = first.dtype if all(s.dtype == first.dtype for s in shapes) else None
    count = count if count is not None else opaque(("stack", id(node)), "n")
    return inserted(first, position, count).row_major().with_dtype(dtype)


def _pad_sequence(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`pad_sequence(seqs, batch_first=True)`: the sequences stacked (along dim 1, or 0 when batch first), each
    padded to the longest; its length is theirs when they all have one, else a size of its own, at most the
    largest bound they state (lengths drawn below 21 pad to at most 20)."""
    args = Args(node, 0)
    listed = args.get(0, "sequences")
    first = args.get(1, "batch_first")
    batch_first = ev.object(first, before) if first is not None else FALSE
    items = ev.items_of(listed, before) if listed is not None else None
    if items is None or truth(batch_first) is None or args.keyword("padding_side") is not None:
        return None
    shapes = list(items.items) if items.items is not None else [items.each]
    if not shapes or any(not isinstance(shape, Shape) or not shape.rank or shape.variadic is not None
                         or shape.rank != shapes[0].rank for shape in shapes):
        return None
    rest = shapes[0].dims[1:]
    if any(same(a, b) is not True for shape in shapes for a, b in zip(shape.dims[1:], rest)):
        return None
    # one length spelled alike may still differ between the sequences (drawn, or read, once for each of them)
    lengths = {shape.dims[0] for shape in shapes}  # type: ignore[union-attr]
    bounds = [length.literal if length.literal is not None else length.atom.at_most if length.atom else None
              for length in lengths]
    most = max(bounds) if None not in bounds else None  # type: ignore[type-var]
    if all(length.literal is not None for length in lengths) and items.items is not None:
        longest = Dim.of(most)  # type: ignore[arg-type]
    else:
        # one size for the same lengths (`ids[:-1]` and `ids[1:]` of each sample), another for other sequences the
        # same call pads (a collate's `{key: pad_sequence(...) for key in batch[0]}` over sources and targets)
        longest = opaque(("longest", id(node), frozenset(lengths)), "longest", at_most=most)
    count = Dim.of(len(items.items)) if items.items is not None else \
        items.count if items.count is not None else opaque(("padded", id(node)), "n")
    dims = (count, longest) if truth(batch_first) else (longest, count)
    return Shape(dims + rest, layout=tuple(range(len(dims + rest))), dtype=shapes[0].dtype)  # type: ignore


FUNCTIONS = {"torch.cat": _cat, "torch.concat": _cat, "torch.concatenate": _cat, "torch.stack": _stack,
             "torch.nn.utils.rnn.pad_sequence": _pad_sequence}
TUPLE_METHODS = {"chunk": _chunk, "split": _split, "unbind": _unbind}
