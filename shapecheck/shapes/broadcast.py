"""Broadcasting two shapes, as a pure function: the result shape, the dims that cannot broadcast, and the dims
that came from stretching a size-1 (or missing) dim of one operand against a size the other operand holds.

Dims are aligned from the right, as PyTorch does: equal sizes stay, a 1 (or a missing leading dim) stretches to the
other size, two sizes proven different fail. Sizes that can't be compared give a size that is only known to be one
of the two.
"""

from __future__ import annotations


from shapecheck.engine.records import record
from shapecheck.objects.dims import Atom, Dim, at_defaults, same
from shapecheck.shapes.shape import Shape


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Stretch:
    """Result dim `position` took size `size` from one operand while `operand` (0: left, 1: right) had 1 there or
    had no dim there at all (`missing`)."""

    position: int
    operand: int
    size: Dim
    missing: bool


@record(slots=True, unsafe_hash=True)
class Broadcast:
    shape: Shape | None  # None when the operands certainly don't broadcast, or too little is known
    mismatch: tuple[int, Dim, Dim] | None = None  # (result position, left size, right size) that can't broadcast
    stretched: tuple[Stretch, ...] = ()


def _one(dim: Dim) -> bool:
    return dim.literal == 1


def _stated(dim: Dim) -> bool:
    """A size the code states, so not a 1 that would stretch: a literal, an annotation's, or one a run with no flags
    gives a value other than 1 (`(args.size - 1) // 16 + 1` on `--size 368`; see `dims.at_defaults`)."""
    return dim.literal is not None or dim.rigid or at_defaults(dim) not in (None, 1)


def _either(a: Dim, b: Dim) -> Dim:
    """The size of a result dim that is `a` or `b` (whichever is not 1): known only to be one of them. Two sizes
    spelled alike (`bs` of the caller and `bs` of a nested function) print once: `bs|bs|bs` told the reader nothing."""
    name = str(a) if str(a) == str(b) else f"{a}|{b}"
    return Dim((((Atom(("broadcast", a, b), name, compound=True),), 1),))


def prefix_key(upper: Dim, size: Dim) -> tuple:
    """The key of the length of `t[:upper]` along a dim of `size` (`self.pe[:, :x.size(1)]`, a positional table cut
    to the tokens), `upper` not known to be within `size`: at most `upper` (see `_within`)."""
    return ("slice", "prefix", upper, size)


def _within(small: Dim, big: Dim) -> bool:
    """`small` is a prefix `t[:big]` of a dim, so never more than `big`: added to a tensor whose dim is `big`, it
    broadcasts only where it is `big` or 1, and the result is `big` either way (a positional table sliced to the
    tokens and added to them keeps the tokens' length)."""
    key = small.atom.key if small.atom is not None else None
    return type(key) is tuple and len(key) == 4 and key[:2] == ("slice", "prefix") and same(key[2], big) is True


def either_sides(dim: Dim) -> tuple[Dim, Dim] | None:
    """The two sizes a result dim of a broadcast is known only to be one of (see `_either`); None for any other."""
    if len(dim.terms) != 1 or dim.terms[0][1] != 1 or len(dim.terms[0][0]) != 1:
        return None
    key = dim.terms[0][0][0].key
    return (key[1], key[2]) if type(key) is tuple and len(key) == 3 and key[0] == "broadcast" else None


def broadcast(a: Shape, b: Shape) -> Broadcast:
    """The shape of `a op b` for an elementwise op."""
    for scalar, other in ((a, b), (b, a)):
        if scalar.rank == 0 and other.variadic is not None:  # a 0-d tensor keeps even the other's leading dims
            return Broadcast(Shape(other.dims, other.variadic, other.variadic_name, other.layout, _dtype(a, b)))
    left, right = a.dims, b.dims
    left_known = len(left) if a.variadic is None else len(left) - a.variadic
    right_known = len(right) if b.variadic is None else len(right) - b.variadic
    aligned = min(left_known, right_known)
    stretched: list[Stretch] = []
    variadic = a.variadic is not None or b.variadic is not None
    rank = None if variadic else max(len(left), len(right))
    # from the right: positions counted from the end, converted to result positions at the end
    from_end: list[tuple[Dim, Stretch | None]] = []
    for k in range(1, max(left_known, right_known) + 1):
        x = left[-k] if k <= left_known else None
        y = right[-k] if k <= right_known else None
        if k > aligned and variadic:
            # the operand with the unknown run may have a dim here, which must be 1 or equal to a size other than 1
            present = x if x is not None else y
            if present is None or present.literal is None or present.literal == 1:
                break
            from_end.append((present, None))
            continue
        if x is None or y is None:
            present = x if x is not None else y
            operand = 0 if x is None else 1
            from_end.append((present, Stretch(-k, operand, present, True) if not _one(present) else None))
            continue
        verdict = same(x, y)
        if verdict:
            from_end.append((x, None))
        elif _one(x):
            from_end.append((y, Stretch(-k, 0, y, False) if not _one(y) else None))
        elif _one(y):
            from_end.append((x, Stretch(-k, 1, x, False)))
        elif verdict is False and x.literal != 1 and y.literal != 1 and _stated(x) and _stated(y):
            position = -k if rank is None else rank - k
            return Broadcast(None, (position, x, y))
        elif x.literal is not None or _within(y, x):
            from_end.append((x, None))
        elif y.literal is not None or _within(x, y):
            from_end.append((y, None))
        else:
            from_end.append((_either(x, y), None))
    dims = tuple(dim for dim, _ in reversed(from_end))
    for _, stretch in from_end:
        if stretch is None:
            continue
        position = stretch.position if rank is None else rank + stretch.position
        stretched.append(Stretch(position, stretch.operand, stretch.size, stretch.missing))
    layout = _layout(a, b, len(dims), any(stretch.operand == 0 for stretch in stretched))
    stretched.sort(key=lambda stretch: stretch.position)
    return Broadcast(Shape(dims, 0 if variadic else None, "...", layout, _dtype(a, b)), None, tuple(stretched))


def _layout(a: Shape, b: Shape, rank: int, a_stretched: bool) -> tuple[int, ...] | None:
    """Row-major when both operands are; the shared layout when both have the same shape and layout; the left
    operand's when it has every dim of the result (PyTorch orders the result's dims by the first operand's strides
    where they decide: `x.t().eq(y)` is as transposed as `x.t()`); else unknown."""
    if a.contiguous and b.contiguous:
        return tuple(range(rank))
    if a.layout is not None and a.layout == b.layout and len(a.dims) == len(b.dims) == rank:
        return a.layout
    if a.layout is not None and a.variadic is None and len(a.dims) == rank and not a_stretched:
        return a.layout
    return None


def _dtype(a: Shape, b: Shape):
    if a.dtype == b.dtype:
        return a.dtype
    order = ("bool", "int", "float", "complex")
    if a.dtype is None or b.dtype is None:
        return None
    return max(a.dtype, b.dtype, key=order.index)
