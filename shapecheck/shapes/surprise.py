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
    """The size broadcasting `a` against `b` multiplies out, if it does; None when it doesn't or when the shapes'
    ranks are not known."""
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
