"""Static shape inference: symbolic sizes (`Dim`), abstract tensor values (`Shape`), jaxtyping annotations read
without importing jaxtyping, and a lazy evaluator that rules reach through `ctx.shape_of(expr)` and
`ctx.shape_conflict(node)`. See SHAPES in the README for what it understands."""

from shapecheck.shapes.broadcast import Broadcast, Stretch, broadcast
from shapecheck.shapes.values import Conflict
from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.shape import Shape

__all__ = ["Broadcast", "Conflict", "Dim", "Shape", "Stretch", "broadcast", "same"]
