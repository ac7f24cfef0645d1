"""`Shape`: what the analysis knows about one tensor value.

`dims` holds one `Dim` per dimension the code pins down. `variadic`, when not None, is the index in `dims` where an
unknown run of zero or more dims sits: `(*batch, T, D)` is dims (T, D) with variadic 0; a tensor of unknown rank whose
first two dims were named by a transpose is (d0, d1, ...) with variadic 2. `rank` is known only when `variadic` is
None.

`layout` is the memory order relative to the logical order: for each dim in `dims`, its rank in memory (0 = the
outermost); (0, 1, ..., n-1) is row-major, what a fresh tensor, `.contiguous()` and a copying `reshape` give, and a
`transpose(1, 2)` of a 3-d tensor is (0, 2, 1). An unknown run of dims (`variadic`) keeps its logical place in
memory. None: the layout is unknown (a slice of an einsum, an RNN output).

`dtype` is the family where the code makes it evident: "float", "int", "bool", "complex", or None.

`below`, for integer values the code draws from a stated range (`torch.randint(0, 1000, ...)`, `torch.arange(n)`),
is that range's end: the values may reach `below - 1`. Only operations known to keep values (views, moves, indexing,
`.long()`) keep it; any other makes it unknown, so it is never a guess (`idx % vocab` is below nothing known).
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import Literal

from shapecheck.engine.records import record
from shapecheck.objects.dims import Dim

DtypeFamily = Literal["float", "int", "bool", "complex"]

# More dims than any real tensor has (torch's kernels stop at 25 to 64): a dim index past it (`x.transpose(99999,
# 2)`) makes the analysis answer "unknown" rather than name a hundred thousand dims.
MAX_RANK = 64


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Shape:
    dims: tuple[Dim, ...]
    variadic: int | None = None
    variadic_name: str = "..."
    layout: tuple[int, ...] | None = None
    dtype: DtypeFamily | None = None
    below: Dim | None = None
    # how the code changed the layout last (`.transpose(1, 2)`), for messages; not part of the value
    permuted_by: str | None = field(default=None, compare=False)
    # what the dims of the unknown run measure (the binding of the name holding the tensor), to key them by
    origin: object = field(default=None, compare=False)

    @staticmethod
    def of(*sizes: Dim | int, layout: tuple[int, ...] | None = (), dtype: DtypeFamily | None = None) -> Shape:
        """A shape of known rank; `layout=()` means row-major (the default for fresh tensors)."""
        dims = tuple(size if isinstance(size, Dim) else Dim.of(size) for size in sizes)
        return Shape(dims, None, "...", tuple(range(len(dims))) if layout == () else layout, dtype)

    @staticmethod
    def unknown_rank(layout_known: bool = True, dtype: DtypeFamily | None = None) -> Shape:
        """A tensor of which nothing but (optionally) its row-major layout is known."""
        return Shape((), 0, "...", () if layout_known else None, dtype)

    @property
    def rank(self) -> int | None:
        return len(self.dims) if self.variadic is None else None

    @property
    def contiguous(self) -> bool | None:
        """True: row-major; False: a transpose or permute left some dims out of memory order; None: unknown."""
        if self.layout is None:
            return None
        return self.layout == tuple(range(len(self.layout)))

    def index(self, dim: int) -> int | None:
        """The position in `dims` of dim `dim` (negative counts from the end); None when it falls in the unknown
        run or out of range."""
        if dim >= 0:
            limit = len(self.dims) if self.variadic is None else self.variadic
            return dim if dim < limit else None
        position = len(self.dims) + dim
        limit = 0 if self.variadic is None else self.variadic
        return position if position >= limit else None

    def size(self, dim: int) -> Dim | None:
        position = self.index(dim)
        return None if position is None else self.dims[position]

    def with_below(self, below: Dim | None) -> Shape:
        return self if self.below == below else replace(self, below=below)

    def without_values(self) -> Shape:
        return self.with_below(None)

    def with_dims(self, dims: tuple[Dim, ...], layout: tuple[int, ...] | None) -> Shape:
        return replace(self, dims=dims, layout=layout)

    def with_dtype(self, dtype: DtypeFamily | None) -> Shape:
        return replace(self, dtype=dtype)

    def row_major(self) -> Shape:
        return replace(self, layout=tuple(range(len(self.dims))), permuted_by=None)

    def without_layout(self) -> Shape:
        return replace(self, layout=None)

    def render(self) -> str:
        """`(B, T, D)`, `(*batch, D)`, `(B, T, ...)`, `()`; a one-dim shape as `(N,)`."""
        parts = [str(dim) for dim in self.dims]
        if self.variadic is not None:
            name = self.variadic_name if self.variadic_name == "..." else "*" + self.variadic_name.lstrip("*")
            parts.insert(self.variadic, name)
        if len(parts) == 1 and self.variadic is None:
            return f"({parts[0]},)"
        return "(" + ", ".join(parts) + ")"

    def __str__(self) -> str:
        return self.render()
