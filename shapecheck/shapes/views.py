"""Views: which dims of a tensor each size of a `view`/`reshape` takes, whether the merge is possible without a
copy given the tensor's layout, and the shape the call gives.

A view can merge dims only where they are adjacent and in order in memory; dims of size 1 never matter. The
verdicts here assume the code's symbolic sizes are not 1 (a symbol of size 1 at run time hides the error, which is
why such bugs pass small tests and crash on the first real batch), except where the view itself puts a 1 in a
symbolic dim's place at one of its ends (`.view(-1, 1)`): the code may know that dim is 1.
"""

from __future__ import annotations

from dataclasses import replace

from shapecheck.engine.records import record
from shapecheck.objects.dims import Atom, Dim, same
from shapecheck.shapes.shape import Shape

WILDCARD = Dim.of(-1)
UNSOLVED = "unsolved"  # the first element of the key of a size the analysis could not work out


def unsolved(dim: Dim) -> bool:
    """A size the analysis could not work out: what a `-1` leaves of a tensor of unknown size, a convolved or
    pooled size of an input or a kernel it does not know (`H_out`). Whatever it is, 1 included."""
    return any(type(atom.key) is tuple and atom.key[:1] == (UNSOLVED,) for atom in dim.atoms)


MAX_TERMS = 16


def product(dims) -> Dim:
    result = Dim.of(1)
    for dim in dims:
        result = result * dim
    return result


def _unit(dim: Dim) -> bool:
    return dim.literal == 1


def cancelled(dim: Dim) -> Dim:
    """`dim` with every `(a // b) * b` replaced by `a`: a view that splits `H` into `H // w` and `w` means them to
    multiply back to `H` (if they don't, the view fails anyway). Used only to match sizes to dims."""
    result = Dim.of(0)
    for monomial, coef in dim.terms:
        atoms = list(monomial)
        factor = Dim.of(1)
        progress = True
        while progress:
            progress = False
            for atom in atoms:
                key = atom.key
                if not (atom.compound and type(key) is tuple and len(key) == 3 and key[0] == "//"):
                    continue
                dividend, divisor = key[1], key[2]
                if len(divisor.terms) != 1:
                    continue
                divisor_atoms, divisor_coef = divisor.terms[0]
                rest = list(atoms)
                rest.remove(atom)
                if coef % divisor_coef or any(rest.count(a) < divisor_atoms.count(a) for a in divisor_atoms):
                    continue
                for a in divisor_atoms:
                    rest.remove(a)
                atoms, coef, factor = rest, coef // divisor_coef, factor * dividend
                progress = True
                break
        result = result + Dim(((tuple(atoms), coef),)) * factor
    return result


def _take(dims: tuple[Dim, ...], cursor: int, stop: int, size: Dim, step: int) -> int | None:
    """Consume dims from `cursor` (step 1: forward, -1: backward, not past `stop`) until their product is `size`;
    the index after the last one taken, or None when the sizes don't match dims (or the product grows past
    MAX_TERMS terms: sums multiplied together grow exponentially, and no real view needs that)."""
    taken = Dim.of(1)
    size = cancelled(size)
    while same(cancelled(taken), size) is not True:
        if cursor == stop or len(taken.terms) > MAX_TERMS:
            return None
        dim = dims[cursor]
        taken = taken * dim
        if size.literal is not None and taken.literal is not None and (not taken.literal or
                                                                        size.literal % taken.literal):
            return None
        cursor += step
    return cursor


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Grouping:
    """For each size of the view, the (start, end) range of input dims it takes."""

    groups: tuple[tuple[int, int], ...]


def grouping(shape: Shape, sizes: tuple[Dim, ...]) -> Grouping | None:
    """Which dims each size takes, the `-1` taking what the others leave; None when it can't be told. An unknown
    run of dims (`shape.variadic`) can only be taken by the `-1`."""
    dims = shape.dims
    wildcards = [i for i, size in enumerate(sizes) if size == WILDCARD]
    if len(wildcards) > 1:
        return None
    left_stop = len(dims) if shape.variadic is None else shape.variadic
    wildcard = wildcards[0] if wildcards else len(sizes)
    groups: list[tuple[int, int]] = []
    cursor = 0
    for size in sizes[:wildcard]:
        end = _take(dims, cursor, left_stop, size, 1)
        if end is None:
            return None
        groups.append((cursor, end))
        cursor = end
    if not wildcards:
        if shape.variadic is not None or not all(_unit(d) for d in dims[cursor:]):
            return None
        return Grouping(tuple(groups))
    right = len(dims)
    right_stop = cursor - 1 if shape.variadic is None else shape.variadic - 1
    tail: list[tuple[int, int]] = []
    for size in reversed(sizes[wildcard + 1:]):
        start = _take(dims, right - 1, right_stop, size, -1)
        if start is None:
            return None
        tail.append((start + 1, right))
        right = start + 1
    return Grouping(tuple(groups) + ((cursor, right),) + tuple(reversed(tail)))


def _follows(first: int, second: int, units: set[int]) -> bool:
    """Memory rank `second` comes right after `first`: nothing but size-1 dims between them."""
    return second > first and all(between in units for between in range(first + 1, second))


def layout_verdict(shape: Shape, sizes: tuple[Dim, ...]) -> str | None:
    """Why `view(*sizes)` of a tensor with this shape and layout certainly fails, or None."""
    if shape.layout is None or shape.contiguous:
        return None
    stated = _stated_units(shape, sizes)
    if stated is not None and _verdict(stated, sizes) is None:
        return None  # the view's own 1s may be those dims: it then merges nothing out of order
    return _verdict(shape, sizes)


def _stated_units(shape: Shape, sizes: tuple[Dim, ...]) -> Shape | None:
    """`shape` with the symbolic dims at its ends set to 1 where the view puts a literal 1 at the same end, before
    or after its `-1`: `.view(-1, 1)` of a channels-last image says its channel dim is 1 (a grayscale image
    permuted to `(H, W, C)`), which the code states nowhere else. None when the view states no such 1."""
    if shape.variadic is not None or sizes.count(WILDCARD) != 1:
        return None
    dims = list(shape.dims)
    wildcard = sizes.index(WILDCARD)
    changed = False
    # only the runs of 1s at the two ends: there each 1 stands where one dim of the tensor stands
    for run, position in ((range(wildcard), lambda index: index),
                          (range(len(sizes) - 1, wildcard, -1), lambda index: len(dims) - len(sizes) + index)):
        for index in run:
            at = position(index)
            if not _unit(sizes[index]) or not 0 <= at < len(dims):
                break
            if dims[at].literal is None:
                dims[at] = Dim.of(1)
                changed = True
    return replace(shape, dims=tuple(dims)) if changed else None


def _verdict(shape: Shape, sizes: tuple[Dim, ...]) -> str | None:
    tensor = f"a {shape.render()} tensor" + (f" made by `{shape.permuted_by}`" if shape.permuted_by else "")
    layout = shape.layout
    assert layout is not None
    dims = shape.dims
    units = {layout[i] for i, d in enumerate(dims) if _unit(d)}
    grouped = grouping(shape, sizes)
    if grouped is not None:
        for start, end in grouped.groups:
            real = [i for i in range(start, end) if not _unit(dims[i])]
            for a, b in zip(real, real[1:]):
                if not _follows(layout[a], layout[b], units):
                    return f"merges dims {_listed(real)} of {tensor}, which are not adjacent and in order in memory"
        return None
    split = _split_then_merged(shape, sizes, units)
    if split is not None:
        dim, part, other = split
        return (f"splits dim {dim} ({dims[dim]}) and merges its inner part ({part}) with dim {other} "
                f"({dims[other]}) of {tensor}, which are not adjacent in memory")
    runs = _runs(shape, units)
    wanted = sum(1 for size in sizes if not _unit(size))
    if len(runs) > wanted:
        shown = " | ".join(", ".join(str(dims[i]) for i in run) for run in runs)
        plural = "s" if wanted != 1 else ""
        return (f"must merge dims that are not adjacent in memory: {wanted} size{plural} for the {len(runs)} "
                f"separate runs of memory ({shown}) of {tensor}")
    start = _unkept_break(shape, sizes, units)
    if start is not None:
        previous = max(i for i in range(start) if not _unit(dims[i]))
        return (f"has no size that ends between dims {previous} ({dims[previous]}) and {start} ({dims[start]}) of "
                f"{tensor}, which are not adjacent in memory: one of its sizes must merge across them")
    return None


def _split_then_merged(shape: Shape, sizes: tuple[Dim, ...], units: set[int]) -> tuple[int, Dim, int] | None:
    """(dim, its inner part, the dim it merges with) when the sizes before the last take whole dims and then a
    proper factor of one dim (`B` of `B * H`), so the last size (or a last `-1`), which takes whatever is left,
    merges that dim's inner part with later dims not next to it in memory: merging heads back after a
    transpose with `view(T, B, E)` of a `(T, B * H, D)` tensor. None when the sizes don't show that."""
    dims = shape.dims
    if shape.variadic is not None or len(sizes) < 2 or WILDCARD in sizes[:-1]:
        return None
    cursor = 0
    for index, size in enumerate(sizes[:-1]):
        end = _take(dims, cursor, len(dims), size, 1)
        if end is not None:
            cursor = end
            continue
        if cursor == len(dims) or size.literal is not None and size.literal < 2:
            return None
        dim = dims[cursor]
        if index != len(sizes) - 2 or dim % size != Dim.of(0):
            return None
        part = dim // size
        if part.literal is not None and part.literal < 2:
            return None
        later = [i for i in range(cursor + 1, len(dims)) if not _unit(dims[i])]
        if later and not _follows(shape.layout[cursor], shape.layout[later[0]], units):
            return cursor, part, later[0]
        return None
    return None


def _unkept_break(shape: Shape, sizes: tuple[Dim, ...], units: set[int]) -> int | None:
    """The first dim (by index) that starts a run of memory where no size of the view starts: a view can only
    merge or split dims within one run, so each break between runs must fall between two of its sizes. Sizes
    before the `-1` are counted from the front, those after it from the back. None when every break may be kept
    (or the sizes can't be told): a detection head's `permute(0, 2, 3, 1).view(N, -1, 4)` of `(N, A * 4, H, W)`
    boxes, or heads merged back with `transpose(-2, -1).view(B, C, H, W)` of `(B, heads, d, H * W)`."""
    dims = shape.dims
    if shape.variadic is not None or sizes.count(WILDCARD) > 1 or any(unsolved(d) for d in dims + sizes):
        return None
    wildcard = sizes.index(WILDCARD) if WILDCARD in sizes else len(sizes)
    # what the sizes before the `-1` hold from the front, and those after it from the back (none without a `-1`)
    fronts = [product(sizes[:end]) for end in range(wildcard + 1)]
    backs = [product(sizes[len(sizes) - end:]) for end in range(len(sizes) - wildcard)] if wildcard < len(sizes) else []
    for run in _runs(shape, units)[1:]:
        start = run[0]
        before, after = cancelled(product(dims[:start])), cancelled(product(dims[start:]))
        if all(same(cancelled(front), before) is False for front in fronts) and \
                all(same(cancelled(back), after) is False for back in backs):
            return start
    return None


def _runs(shape: Shape, units: set[int]) -> list[list[int]]:
    """The dims split where the next one does not follow in memory; size-1 dims and the unknown run don't split."""
    runs: list[list[int]] = []
    previous: int | None = None
    assert shape.layout is not None
    for i, dim in enumerate(shape.dims):
        if _unit(dim):
            continue
        rank = shape.layout[i]
        if previous is None or not _follows(previous, rank, units):
            runs.append([])
        runs[-1].append(i)
        previous = rank
    return runs


def _listed(positions: list[int]) -> str:
    names = [str(p) for p in positions]
    return " and ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + " and " + names[-1]


def reshaped(shape: Shape, sizes: Shape, copies: bool, owner: object) -> Shape:
    """The shape `view`/`reshape` gives: the sizes, with the `-1` solved when the element count is known. Layout:
    row-major from a row-major tensor; from a permuted one, row-major only if the call certainly copies (a
    `reshape` that cannot be a view), else unknown. `owner` (the call) keys a `-1` whose size can't be told."""
    dims = list(sizes.dims)
    if dims.count(WILDCARD) > 1:
        return Shape.unknown_rank()  # it raises (SC105 says so at the view), so what follows reads nothing
    if WILDCARD in dims:
        index = dims.index(WILDCARD)
        others = [d for i, d in enumerate(dims) if i != index]
        if shape.variadic is None and sizes.variadic is None and WILDCARD not in others:
            dims[index] = cancelled(product(shape.dims)) // cancelled(product(others))
        else:
            dims[index] = Dim((((Atom((UNSOLVED, owner), "inferred", compound=True),), 1),))
    if shape.contiguous or copies:
        layout: tuple[int, ...] | None = tuple(range(len(dims)))
    elif shape.layout is not None and tuple(dims) == shape.dims and sizes.variadic is None:
        layout = shape.layout
    else:
        layout = None
    return Shape(tuple(dims), sizes.variadic, sizes.variadic_name, layout, shape.dtype)


def count_mismatch(shape: Shape, sizes: Shape) -> tuple[Dim, Dim] | None:
    """(elements of the tensor, elements the sizes ask for) when they certainly differ; None otherwise."""
    if shape.variadic is not None or sizes.variadic is not None:
        return None
    wanted = [d for d in sizes.dims if d != WILDCARD]
    have, asked = product(shape.dims), product(wanted)
    if len(wanted) == len(sizes.dims):
        return (have, asked) if same(have, asked) is False else None
    # with a -1, the others must divide the element count
    if have.literal is not None and asked.literal and have.literal % asked.literal:
        return have, asked
    return None
