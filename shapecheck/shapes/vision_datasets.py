"""What a sample of a torchvision dataset is: `datasets.MNIST(root, transform=transforms.ToTensor())` gives a
(1, 28, 28) float tensor and an int label.

Only the datasets whose images have one size (MNIST and its kin, CIFAR, SVHN, STL10), and `ImageFolder` and
`ImageNet` (RGB images of any size) where the transform fixes the size; the image is a tensor only where the
transform makes it one (none at all leaves a PIL image). A `target_transform` leaves the label unknown; a custom
`loader` leaves it all unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from shapecheck.objects.dims import Dim
from shapecheck.objects.values import UNKNOWN, Seq, TorchObject
from shapecheck.shapes.vision_transforms import Image, transformed

if TYPE_CHECKING:
    import libcst as cst


class _Kind(NamedTuple):
    channels: int
    side: int | None  # None: images of any size
    transform_at: int | None  # the position of `transform` (None: keyword only)
    positional: int  # how many arguments may come by position


_GRAY_28 = _Kind(1, 28, 2, 5)
_KINDS = {
    "MNIST": _GRAY_28, "FashionMNIST": _GRAY_28, "KMNIST": _GRAY_28, "QMNIST": _Kind(1, 28, None, 4),
    "EMNIST": _Kind(1, 28, None, 2),
    "CIFAR10": _Kind(3, 32, 2, 5), "CIFAR100": _Kind(3, 32, 2, 5), "SVHN": _Kind(3, 32, 2, 5),
    "STL10": _Kind(3, 96, 3, 6),
    "ImageFolder": _Kind(3, None, 1, 3), "ImageNet": _Kind(3, None, None, 2),
}
_PACKAGE = "torchvision.datasets."


def sample(dataset: TorchObject) -> Seq | None:
    """One sample of `dataset`: (image, label), the image a `Shape` and the label an int size; UNKNOWN for
    either the code does not state; None when `dataset` is not a torchvision dataset the analysis knows or its
    image is not a tensor of known size."""
    kind = _KINDS.get(dataset.name) if dataset.qualname.startswith(_PACKAGE) else None
    site, call = dataset.site, dataset.call
    if kind is None or site is None or call is None or any(arg.star for arg in call.args):
        return None
    if sum(arg.keyword is None for arg in call.args) > kind.positional \
            or _argument(dataset, kind, 3 if dataset.name == "ImageFolder" else None, "loader") is not None:
        return None
    expr = _argument(dataset, kind, kind.transform_at, "transform")
    if expr is None:
        return None
    side = Dim.of(kind.side) if kind.side is not None else None
    image = transformed(Image(Dim.of(kind.channels), side, side), site.read("value", expr))
    shape = image.shape() if image is not None else None
    if shape is None:
        return None
    target_at = kind.transform_at + 1 if kind.transform_at is not None else None
    label: object = Dim.symbol(("label", id(call)), "label")
    if _argument(dataset, kind, target_at, "target_transform") is not None:
        label = UNKNOWN
    return Seq((shape, label), "tuple")


def _argument(dataset: TorchObject, kind: _Kind, at: int | None, name: str) -> cst.BaseExpression | None:
    """An argument by keyword, else at position `at` (None: by keyword only; no call passes more than
    `kind.positional` arguments by position, so that position is never one)."""
    return dataset.argument(at if at is not None else kind.positional, name)
