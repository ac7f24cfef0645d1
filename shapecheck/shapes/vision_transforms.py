"""What torchvision's transforms make of an image of known size: `transforms.Compose([transforms.Resize(32),
transforms.ToTensor()])` makes a 28x28 grayscale MNIST image a (1, 32, 32) float tensor.

Only the transforms whose output size the code states: `ToTensor`, `PILToTensor` and `ToImage` (a tensor of the
image's channels, height and width), `Resize`, `CenterCrop`, `RandomCrop`, `RandomResizedCrop` (the size they are
given), `Grayscale` (its channel count) and transforms that keep the size (flips, colour jitter, `Normalize`).
Anything else (`Lambda`, `Pad`, `FiveCrop`, a transform of the project, a list the code builds in a loop) leaves
the image unknown.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import NamedTuple
from shapecheck.objects.dims import Dim
from shapecheck.objects.evaluator import PIL_IMAGE, pil_mode_channels
from shapecheck.objects.values import Seq, TorchObject
from shapecheck.shapes.shape import DtypeFamily, Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

_PACKAGES = ("torchvision.transforms.", "torchvision.transforms.v2.", "torchvision.transforms.transforms.")
# An image becomes a tensor of its channels, height and width (the float ones scaled to [0, 1]).
_TO_TENSOR: dict[str, DtypeFamily | None] = {"ToTensor": "float", "PILToTensor": None, "ToImage": None}
# The output is `size` (an int: a square; a pair: height and width), whatever the input's size.
_TO_SIZE = frozenset({"CenterCrop", "RandomCrop", "RandomResizedCrop"})
# Size and channels kept, on an image or a tensor alike (a rotation only without `expand`).
_KEEP = frozenset({"RandomHorizontalFlip", "RandomVerticalFlip", "ColorJitter", "RandomGrayscale", "RandomRotation",
                   "RandomAffine", "GaussianBlur", "RandomAutocontrast", "RandomEqualize", "RandomInvert",
                   "RandomPosterize", "RandomSolarize", "RandomAdjustSharpness", "AutoAugment", "RandAugment",
                   "TrivialAugmentWide", "RandomPerspective"})
# Size and channels kept, on a tensor only (a PIL image fails).
_KEEP_TENSOR = frozenset({"Normalize", "ConvertImageDtype", "ToDtype", "RandomErasing"})


class Image(NamedTuple):
    """An image in a pipeline: its channels, height and width where known, and whether it is a tensor yet."""

    channels: Dim | None
    height: Dim | None
    width: Dim | None
    tensor: bool = False
    dtype: DtypeFamily | None = None

    def shape(self) -> Shape | None:
        """The tensor the pipeline gives, None unless it is one of known size."""
        if not self.tensor or self.channels is None or self.height is None or self.width is None:
            return None
        return Shape.of(self.channels, self.height, self.width, dtype=self.dtype)


def applied(ev: ShapeEvaluator, call: cst.Call, before: int) -> Shape | None:
    """What a transform the code calls (`self.transform(img)` in a Dataset's `__getitem__`) makes of a PIL image
    of known mode (`Image.open(path).convert("RGB")`) or a (C, H, W) tensor; None when either is not stated."""
    transform = ev.object(call.func, before)
    if _name(transform) is None or len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    image = _input(ev, call.args[0].value, before)
    found = transformed(image, transform) if image is not None else None
    return found.shape() if found is not None else None


def _input(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> Image | None:
    value = ev.object(expr, before)
    if isinstance(value, TorchObject) and value.qualname == PIL_IMAGE and value.call is not None \
            and value.site is not None:
        channels = pil_mode_channels(value.site.evaluator, value.call, value.site.before)
        return Image(Dim.of(channels), None, None) if channels is not None else None
    shape = ev.tensor(expr, before)
    if shape is None or shape.rank != 3:
        return None
    return Image(shape.dims[0], shape.dims[1], shape.dims[2], tensor=True, dtype=shape.dtype)


def transformed(image: Image, transform: object) -> Image | None:
    """What `transform` (one transform or a `Compose`) makes of `image`; None when the code does not state it."""
    steps = _steps(transform)
    if steps is None:
        return None
    for step in steps:
        found = _step(image, step)
        if found is None:
            return None
        image = found
    return image


def _steps(transform: object) -> Iterable[object] | None:
    name = _name(transform)
    if name is None:
        return None
    if name != "Compose":
        return (transform,)
    assert isinstance(transform, TorchObject)
    listed = transform.argument(0, "transforms")
    if listed is None or transform.site is None or len(transform.call.args) != 1:  # type: ignore[union-attr]
        return None
    steps = transform.site.read("value", listed)
    return steps.items if isinstance(steps, Seq) and steps.complete else None


def _name(transform: object) -> str | None:
    """The class name of a torchvision transform built by a call the analysis can read; None for anything else."""
    if not isinstance(transform, TorchObject) or transform.site is None or transform.call is None \
            or any(arg.star for arg in transform.call.args):
        return None
    if not any(transform.qualname.startswith(package) and "." not in transform.qualname[len(package):]
               for package in _PACKAGES):
        return None
    return transform.name


def _step(image: Image, transform: object) -> Image | None:
    name = _name(transform)
    if name is None:
        return None
    assert isinstance(transform, TorchObject)
    if name in _TO_TENSOR:
        return image._replace(tensor=True, dtype=_TO_TENSOR[name]) if not image.tensor else None
    if name in _KEEP_TENSOR:
        return image if image.tensor else None
    if name in _KEEP:
        return image if name != "RandomRotation" or transform.argument(2, "expand") is None else None
    if name == "Grayscale":
        count = transform.argument(0, "num_output_channels")
        channels = _int(transform, count) if count is not None else Dim.of(1)
        return image._replace(channels=channels) if channels is not None else None
    if name in _TO_SIZE:
        size = _size(_sides(transform, transform.argument(0, "size")))
        return image._replace(height=size[0], width=size[1]) if size is not None else None
    if name == "Resize":
        return _resized(image, transform)
    return None


def _resized(image: Image, transform: TorchObject) -> Image | None:
    """`Resize((h, w))` makes it h by w; `Resize(n)` makes its shorter side n, which says both sides of a square."""
    if transform.argument(2, "max_size") is not None:
        return None
    sides = _sides(transform, transform.argument(0, "size"))
    size = _size(sides)
    if size is None:
        return None
    if len(sides) == 2 or image.height is not None and image.height == image.width:  # type: ignore[arg-type]
        return image._replace(height=size[0], width=size[1])
    return image._replace(height=None, width=None)


def _size(sides: list[Dim | None] | None) -> tuple[Dim, Dim] | None:
    """A size argument's sides as (height, width): an int n or a one-element sequence (n,) is (n, n)."""
    if sides is None or len(sides) not in (1, 2) or None in sides:
        return None
    return sides[0], sides[-1]  # type: ignore[return-value]


def _sides(transform: TorchObject, expr: cst.BaseExpression | None) -> list[Dim | None] | None:
    """The sizes a size argument lists: one for an int, each element's for a sequence; None when not told."""
    if expr is None:
        return None
    if type(expr) in (cst.Tuple, cst.List):  # `(args.size, args.size)`: each a size, whatever its value
        elements = expr.elements  # type: ignore[attr-defined]
        if any(type(element) is not cst.Element for element in elements):
            return None
        return [_int(transform, element.value) for element in elements]
    value = transform.site.read("value", expr)  # type: ignore[union-attr]
    if isinstance(value, Seq):
        return [side if isinstance(side, Dim) else None for side in value.items] if value.complete else None
    return [_int(transform, expr)]


def _int(transform: TorchObject, expr: cst.BaseExpression) -> Dim | None:
    value = transform.site.read("size", expr)  # type: ignore[union-attr]
    return value if isinstance(value, Dim) else None
