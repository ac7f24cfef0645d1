"""The abstract values the evaluator computes besides tensor shapes (a torch.Size, a tuple of values), and the
conflicts it proves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.engine.context import Context


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Sizes:
    """A sequence of sizes: `x.shape`, `x.size()[:-2]`, `(B, T, C)`, `x.size()[:-1] + (n_head, d)`. Its sizes are
    the dims of `shape` (layout and dtype mean nothing here)."""

    shape: Shape


@record(slots=True, unsafe_hash=True)
class Items:
    """A tuple of values: `x.chunk(3, dim=-1)`, `x.max(dim=1)` (values, indices), `torch.split(...)`. `items` is
    None for the elements when their count is unknown and `each` is what every element is."""

    items: tuple[Value | None, ...] | None
    each: Value | None = None
    count: Dim | None = None  # how many when `items` is None, where the code ties it to another list's (Seq.grown)

    def at(self, index: int) -> Value | None:
        if self.items is None:
            return self.each
        if -len(self.items) <= index < len(self.items):
            return self.items[index]
        return None


@record(slots=True, unsafe_hash=True)
class Array:
    """A numpy array of a shape the code states (`np.zeros((n, 3))`), held as a value so that it reaches the code a
    call runs (a dataset's `self.images`, a helper's parameter). No tensor: numpy's methods differ from torch's
    under the same names, so only a conversion (`torch.from_numpy`) reads its shape."""

    shape: Shape


@record(slots=True, unsafe_hash=True)
class Packed:
    """A `PackedSequence` (`pack_padded_sequence(x, lengths, batch_first=True)`): no tensor, so no tensor operation
    reads it; `padded` is the batch it packs, batch first (B, T, *), what a recurrent layer runs on and
    `pad_packed_sequence` gives back."""

    padded: Shape


Value = Shape | Dim | Sizes | Items | Packed


# Where a run of the project's code fails: each call followed, then the failing operation, with the file's context
# each is in (the rules report at the last one in the file they lint: the line a traceback ends on there).
Path = tuple[tuple["Context", cst.CSTNode], ...]

ConflictKind = Literal["matmul", "broadcast", "cat", "stack", "view-count", "layer", "layout", "call", "dim",
                       "einsum", "einops", "unpack", "interpolate", "index", "expand", "collate"]


@record(slots=True, unsafe_hash=True)
class Conflict:
    """`kind` says which check failed; `shapes` are the operands' shapes in the order the message names them;
    `message` names them in the code's own symbols ("inner dims differ: h is (B, T, D), w is (V, D)"); `path`, for
    a call of the project's code that fails inside, leads to where it fails."""

    kind: ConflictKind
    node: cst.CSTNode
    shapes: tuple[Shape, ...]
    message: str
    path: Path = ()
