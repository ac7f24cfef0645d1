"""`torch.fft`: which dims each transform resizes. A complex-to-complex transform keeps a dim's size (or makes it
`n`); a real-to-complex one (`rfft`) keeps the non-negative frequencies, `n // 2 + 1`; its inverse (`irfft`) gives
`n`, by default `2 * (m - 1)`. The 2-d forms act on the last two dims, the n-d forms on all (or on `dim`/`s`).
`torch.stft` frames a signal into (frequencies, frames); `torch.istft` overlap-adds them back to samples."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.dims import Dim
from shapecheck.shapes.args import Args, as_function
from shapecheck.shapes.positions import replaced, with_dims_named
from shapecheck.shapes.shape import DtypeFamily, Shape

if TYPE_CHECKING:
    from collections.abc import Callable

    from shapecheck.shapes.evaluator import ShapeEvaluator

HALF = "half"  # the last transformed dim keeps n // 2 + 1 frequencies
DOUBLED = "doubled"  # the last transformed dim becomes 2 * (m - 1) samples


def _resized(ev: ShapeEvaluator, shape: Shape, args: Args, before: int, dims: list[int] | None,
             sizes: list[Dim | None] | None, last: str | None, dtype: DtypeFamily) -> Shape | None:
    if dims is None:  # every dim
        if shape.rank is None:
            return None
        dims = list(range(shape.rank))
    named = with_dims_named(ev, shape, dims, args)
    if named is None:
        return None
    positions = [named.index(d) for d in dims]
    if None in positions or len(set(positions)) != len(positions):
        return None
    result = named
    for i, position in enumerate(positions):
        size = sizes[i] if sizes is not None else None
        final = i == len(positions) - 1
        if final and last == HALF:
            size = (size if size is not None else named.dims[position]) // 2 + 1
        elif final and last == DOUBLED and size is None:
            size = 2 * (named.dims[position] - 1)
        if size is not None:
            result = replaced(result, position, size)
    return Shape(result.dims, result.variadic, result.variadic_name, tuple(range(len(result.dims))), dtype)


def _one(last: str | None, dtype: DtypeFamily):
    """`fft(x, n=None, dim=-1)`, `rfft`, `irfft`, `hfft`, `ihfft`."""
    def transform(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        dim = ev.integer(args.get(1, "dim"), before) if args.get(1, "dim") is not None else -1
        n_expr = args.get(0, "n")
        n = ev.size(n_expr, before) if n_expr is not None and not _none(n_expr) else None
        if dim is None or n_expr is not None and not _none(n_expr) and n is None:
            return None
        return _resized(ev, shape, args, before, [dim], [n], last, dtype)
    return transform


def _many(default: list[int] | None, last: str | None, dtype: DtypeFamily):
    """`fft2(x, s=None, dim=(-2, -1))`, `fftn(x, s=None, dim=None)` and their real forms."""
    def transform(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
        dims_expr, s_expr = args.get(1, "dim"), args.get(0, "s")
        dims = default if dims_expr is None or _none(dims_expr) else _integers(ev, dims_expr, before)
        sizes = None
        if s_expr is not None and not _none(s_expr):
            sizes_shape = ev.sizes(s_expr, before)
            if sizes_shape is None or sizes_shape.variadic is not None:
                return None
            sizes = list(sizes_shape.dims)
            if dims is None:  # `s` alone names the last len(s) dims
                dims = list(range(-len(sizes), 0))
        if dims_expr is not None and not _none(dims_expr) and dims is None:
            return None
        if sizes is not None and dims is not None and len(sizes) != len(dims):
            return None
        return _resized(ev, shape, args, before, dims, sizes, last, dtype)
    return transform


def _none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"


def _integers(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> list[int] | None:
    if type(expr) in (cst.Tuple, cst.List):
        values = [ev.integer(element.value, before) for element in expr.elements]  # type: ignore[attr-defined]
        return None if None in values else values  # type: ignore[return-value]
    one = ev.integer(expr, before)
    return [one] if one is not None else None


def _shift(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape:
    return shape


def _frequencies(half: bool) -> Callable:
    """`fftfreq(n)`: the n sample frequencies; `rfftfreq(n)`: the n // 2 + 1 non-negative ones."""
    def frequencies(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
        n = ev.size(Args(node).get(0, "n"), before)
        if n is None:
            return None
        return Shape.of(n // 2 + 1 if half else n, dtype="float")
    return frequencies


def _flag(args: Args, index: int, keyword: str) -> bool | None:
    """A `True`/`False` argument as written; None when absent or not a literal."""
    expr = args.get(index, keyword)
    if type(expr) is cst.Name and expr.value in ("True", "False"):
        return expr.value == "True"
    return None


def _frame_sizes(ev: ShapeEvaluator, args: Args, before: int) -> tuple[Dim, Dim] | None:
    """`n_fft` and the hop (`n_fft // 4` by default) of `stft`/`istft`; None when either is not known."""
    n_fft = ev.size(args.get(0, "n_fft"), before)
    hop_expr = args.get(1, "hop_length")
    hop = n_fft // 4 if n_fft is not None and (hop_expr is None or _none(hop_expr)) else ev.size(hop_expr, before)
    return (n_fft, hop) if n_fft is not None and hop is not None else None


def _stft(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`x.stft(n_fft, hop_length, ..., center=True, onesided=None, return_complex=True)`: a (L,) or (B, L) signal
    becomes (F, T) or (B, F, T): F is `n_fft // 2 + 1` for a one-sided transform (the default for a real signal
    and window), T is `1 + L // hop` (centred) or `1 + (L - n_fft) // hop`. `return_complex=False` appends the
    (real, imaginary) pair; a real signal with neither raises, so nothing is said of it."""
    sizes = _frame_sizes(ev, args, before)
    returned_complex = _flag(args, 8, "return_complex")
    if sizes is None or returned_complex is None or shape.rank not in (1, 2):
        return None
    n_fft, hop = sizes
    onesided = _flag(args, 7, "onesided")
    window = args.get(3, "window")
    window_shape = ev.tensor(window, before) if window is not None and not _none(window) else None
    if onesided is None and shape.dtype == "float" and (
            window is None or _none(window) or window_shape is not None and window_shape.dtype == "float"):
        onesided = True
    center = _flag(args, 4, "center")
    if onesided is None or center is None and args.get(4, "center") is not None:
        return None
    length = shape.dims[-1]
    frames = 1 + (length if center is not False else length - n_fft) // hop
    pair = () if returned_complex else (Dim.of(2),)  # (real, imaginary)
    dims = (*shape.dims[:-1], n_fft // 2 + 1 if onesided else n_fft, frames, *pair)
    return Shape(dims, layout=tuple(range(len(dims))), dtype="complex" if returned_complex else "float")


def _istft(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`X.istft(n_fft, hop_length, ..., center=True, ..., length=None)`: (F, T) or (B, F, T) frames overlap-add
    back to `length` samples, by default `hop * (T - 1)` (centred) or `n_fft + hop * (T - 1)`, which is short of
    the signal `stft` read unless its length was a multiple of the hop."""
    sizes = _frame_sizes(ev, args, before)
    if sizes is None or shape.rank not in (2, 3):
        return None
    n_fft, hop = sizes
    length_expr = args.get(7, "length")
    center = _flag(args, 4, "center")
    if length_expr is not None and not _none(length_expr):
        length = ev.size(length_expr, before)
    elif center is None and args.get(4, "center") is not None:
        return None
    else:
        length = hop * (shape.dims[-1] - 1) + (0 if center is not False else n_fft)
    if length is None:
        return None
    dims = (*shape.dims[:-2], length)
    return Shape(dims, layout=tuple(range(len(dims))), dtype="float")


METHODS = {"stft": _stft, "istft": _istft}

_TRANSFORMS = {
    "fft": _one(None, "complex"), "ifft": _one(None, "complex"),
    "rfft": _one(HALF, "complex"), "irfft": _one(DOUBLED, "float"),
    "ihfft": _one(HALF, "complex"), "hfft": _one(DOUBLED, "float"),
    "fft2": _many([-2, -1], None, "complex"), "ifft2": _many([-2, -1], None, "complex"),
    "rfft2": _many([-2, -1], HALF, "complex"), "irfft2": _many([-2, -1], DOUBLED, "float"),
    "fftn": _many(None, None, "complex"), "ifftn": _many(None, None, "complex"),
    "rfftn": _many(None, HALF, "complex"), "irfftn": _many(None, DOUBLED, "float"),
    "fftshift": _shift, "ifftshift": _shift,
}
FUNCTIONS = {
    **{f"torch.fft.{name}": as_function(transform) for name, transform in _TRANSFORMS.items()},
    "torch.fft.fftfreq": _frequencies(False), "torch.fft.rfftfreq": _frequencies(True),
    "torch.stft": as_function(_stft), "torch.istft": as_function(_istft),
}
