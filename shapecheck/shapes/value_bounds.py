"""Where integer values stay below a stated end (`Shape.below`): which operations keep a tensor's values, and how
a value past a table's size is phrased.

A bound is stated only by the producers in `creation` (`torch.randint`, `torch.arange`, `torch.randperm`, and the
conversions of a numpy array `np.random.randint` made); this module keeps it through what moves, views or selects values and drops it everywhere else, so a bound the analysis
holds is always the code's own (`(idx + 1)`, `idx % vocab` and `idx.clamp(max=...)` are below nothing known).
"""

from __future__ import annotations

from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items

# Tensor methods whose result holds only values of the receiver.
KEEPING_METHODS = frozenset({
    "view", "reshape", "flatten", "unflatten", "squeeze", "unsqueeze", "transpose", "permute", "t", "contiguous",
    "to", "cuda", "cpu", "long", "int", "clone", "detach", "expand", "expand_as", "repeat", "view_as", "reshape_as",
    "movedim", "flip", "roll", "narrow", "select", "index_select", "gather", "masked_select", "chunk", "split",
})

# torch functions whose result holds only values of their first argument.
KEEPING_FUNCTIONS = frozenset({
    "torch.flatten", "torch.squeeze", "torch.unsqueeze", "torch.transpose", "torch.permute", "torch.reshape",
    "torch.flip", "torch.roll", "torch.index_select", "torch.gather", "torch.narrow", "torch.select",
})

# torch functions whose result holds only values of the tensors in their first argument, a list or tuple.
JOINING_FUNCTIONS = frozenset({"torch.cat", "torch.concat", "torch.concatenate", "torch.stack"})

# The producers: their transfer functions state the bound (a numpy array's, for the conversions).
PRODUCERS = frozenset({"torch.randint", "torch.arange", "torch.randperm", "torch.from_numpy", "torch.as_tensor",
                       "torch.tensor", "torch.LongTensor", "torch.IntTensor", "torch.ShortTensor", "torch.ByteTensor"})


def bounded_like(result: object, source: Shape | None) -> object:
    """`result` (a tensor, or a tuple of them) holding values of `source` only: `source`'s bound, none without it.
    An operation that computes new values passes no `source` (`x.max(dim=1)`'s indices count positions)."""
    below = source.below if source is not None else None
    if isinstance(result, Shape):
        return result.with_below(below)
    if isinstance(result, Items):
        return Items(tuple(bounded_like(item, source) for item in result.items) if result.items is not None else None,
                     bounded_like(result.each, source))
    return result


def common(items: Items | None) -> Shape | None:
    """One of `items` standing for all, when they share one bound (`torch.stack([data[i:i + k] for i in ix])`)."""
    if items is None:
        return None
    values = list(items.items) if items.items is not None else [items.each]
    if not values or not all(isinstance(value, Shape) for value in values):
        return None
    first = values[0]
    return first if all(value.below == first.below for value in values) else None  # type: ignore[union-attr]


def indexed(found: Shape | None, receiver: Shape | None) -> Shape | None:
    """`x[...]` holds values of `x`, whatever the index: its bound is `x`'s, not the index tensor's (an item of a
    tuple, no tensor indexed, is what it is)."""
    return found if receiver is None else bounded_like(found, receiver)  # type: ignore[return-value]


def past_end(x: Shape, rows: Dim | None) -> str | None:
    """The phrase for indices of `x` that may reach past a table of `rows` rows ("indices up to 999"), when the
    code's range does: both literal, or the range's end a literal past the rows (`torch.arange(max_len + 1)` into
    `nn.Embedding(max_len, d)`)."""
    if x.dtype != "int" or x.below is None or rows is None:
        return None
    end, count = x.below.literal, rows.literal
    if end is None or count is None:
        past = (x.below - rows).literal
        return f"indices up to {x.below - 1}" if past is not None and past > 0 else None
    if end <= count:
        return None
    return f"indices up to {end - 1}"
