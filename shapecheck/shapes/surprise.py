"""Broadcasting that multiplies a size out: (N, 1) op (N,) -> (N, N).

Built on `broadcast.broadcast`'s stretched dims: a size-1 dim of one operand stretched to a size that the same operand
already holds in another dim, so the result holds that size in more dims than either operand did. A (B, 1, T) mask
added to (T, T) scores stretches to T too, but the scores already had T twice: that is what the code asked for, not
a surprise.
"""

from __future__ import annotations


from shapecheck.engine.records import record
from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.shape import Shape


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Surprise:
    result: Shape  # the broadcast result, e.g. (N, N)
    size: Dim  # the size that lands in two dims, e.g. N
    operand: int  # which operand had the size-1 dim (0: left, 1: right)


def surprise(a: Shape, b: Shape) -> Surprise | None:
    """The size broadcasting `a` against `b` multiplies out, if it does; None when it doesn't or when it can't be
    told. One operand may be of unknown rank where its known trailing dims cover the other's (see `_partly`)."""
    if a.rank is None and b.rank is not None:
        return _partly(a, b, 0)
    if b.rank is None and a.rank is not None:
        return _partly(b, a, 1)
    if a.rank is None or b.rank is None:
        return None
    found = broadcast(a, b)
    if found.shape is None:
        return None
    operands = (a, b)
    if {stretch.operand for stretch in found.stretched if not stretch.missing} == {0, 1}:
        return None  # each operand puts a 1 where the other has a size, (N, 1) * (1, N): an outer product written out
    for stretch in found.stretched:
        if stretch.missing:
            continue
        size = stretch.size
        if _count(operands[stretch.operand], size) == 0:
            continue  # the size-1 operand doesn't hold the size elsewhere: a plain stretch (bias, keepdim)
        if _count(found.shape, size) > max(_count(a, size), _count(b, size)):
            return Surprise(found.shape, size, stretch.operand)
    return None


def _count(shape: Shape, size: Dim) -> int:
    return sum(1 for dim in shape.dims if same(dim, size))


def _partly(open_: Shape, known: Shape, position: int) -> Surprise | None:
    """`surprise` of `open_` (operand `position`), of unknown rank, against `known`: a (n, ..., 1) value head's
    output against (n,) returns gives (n, ..., n) whatever the dims in between. Broadcasting lines dims up from the
    right, so where `open_`'s known trailing dims are at least `known`'s rank, those meet `known` and the dims in
    front of them (its known leading dims, the unknown run) pass into the result as they are."""
    v, rank = open_.variadic, known.rank
    assert v is not None and rank is not None
    if len(open_.dims) - v < rank:
        return None
    split = len(open_.dims) - rank
    tail = surprise(known, Shape(open_.dims[split:])) if position else surprise(Shape(open_.dims[split:]), known)
    if tail is not None:  # already within the dims that meet: the rest only adds dims
        result = Shape(open_.dims[:split] + tail.result.dims, v, open_.variadic_name)
        return Surprise(result, tail.size, tail.operand)
    found = broadcast(Shape(open_.dims[split:]), known) if not position else broadcast(known, Shape(open_.dims[split:]))
    if found.shape is None or {stretch.operand for stretch in found.stretched if not stretch.missing} == {0, 1}:
        return None
    result = Shape(open_.dims[:split] + found.shape.dims, v, open_.variadic_name)
    for stretch in found.stretched:
        if stretch.missing or stretch.operand != position:
            continue  # only a size-1 dim of the open operand stretched to a size it holds in front of the tail
        size = stretch.size
        if _count(Shape(open_.dims[:split]), size) and \
                _count(Shape(result.dims), size) > max(_count(open_, size), _count(known, size)):
            return Surprise(result, size, stretch.operand)
    return None

