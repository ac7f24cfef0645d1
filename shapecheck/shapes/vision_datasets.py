"""What a sample of a torchvision dataset is: `datasets.MNIST(root, transform=transforms.ToTensor())` gives a
(1, 28, 28) float tensor and an int label.

Only the datasets whose images have one size (MNIST and its kin, CIFAR, SVHN, STL10), and `ImageFolder` and
`ImageNet` (RGB images of any size) where the transform fixes the size; the image is a tensor only where the
transform makes it one (none at all leaves a PIL image). A `target_transform` leaves the label unknown; a custom
`loader` leaves it all unknown.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.records import NamedTuple
from shapecheck.engine.walker import walk
from shapecheck.objects.dims import Dim
from shapecheck.objects.values import UNKNOWN, Seq, TorchObject
from shapecheck.shapes.vision_transforms import Image, transformed



class _Kind(NamedTuple):
    channels: int
    side: int | None  # None: images of any size
    transform_at: int | None  # the position of `transform` (None: keyword only)
    positional: int  # how many arguments may come by position
    least: int  # samples in its smallest split (an image folder with none fails to build)


_GRAY_28 = _Kind(1, 28, 2, 5, 10_000)
_KINDS = {
    "MNIST": _GRAY_28, "FashionMNIST": _GRAY_28, "KMNIST": _GRAY_28, "QMNIST": _Kind(1, 28, None, 4, 10_000),
    "EMNIST": _Kind(1, 28, None, 2, 10_000),
    "CIFAR10": _Kind(3, 32, 2, 5, 10_000), "CIFAR100": _Kind(3, 32, 2, 5, 10_000), "SVHN": _Kind(3, 32, 2, 5, 26_032),
    "STL10": _Kind(3, 96, 3, 6, 5_000),
    "ImageFolder": _Kind(3, None, 1, 3, 1), "ImageNet": _Kind(3, None, None, 2, 50_000),
}
_PACKAGE = "torchvision.datasets."
_TRANSFORMS = frozenset({"transform", "transforms", "target_transform"})
_LIST_CHANGES = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse", "__setitem__",
                           "__delitem__"})


class Samples(NamedTuple):
    """What a torchvision dataset holds: `least` samples or more, each `sample`."""

    sample: Seq
    least: int


def samples(dataset: TorchObject) -> Samples | None:
    """The samples of `dataset`: each (image, label), the image a `Shape` and the label an int size (UNKNOWN where
    a target transform decides); None when `dataset` is not a torchvision dataset the analysis knows or its image
    is not a tensor of known size."""
    if dataset.qualname == _PACKAGE + "FakeData":
        return _fake_samples(dataset)
    kind = _KINDS.get(dataset.name) if dataset.qualname.startswith(_PACKAGE) else None
    site, call = dataset.site, dataset.call
    if kind is None or site is None or call is None or any(arg.star for arg in call.args) \
            or site.evaluator.ctx.module_fact("transforms changed", _transforms_changed):
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
    return Samples(Seq((shape, label), "tuple"), kind.least)


# `FakeData(size=1000, image_size=(3, 224, 224), num_classes=10, transform=None, target_transform=None, ...)`
_FAKE = _Kind(3, 224, 3, 6, 1000)
_FAKE_MODES = frozenset({1, 3})  # the channels `ToPILImage` makes an "L" or an "RGB" image of


def _fake_samples(dataset: TorchObject) -> Samples | None:
    """`datasets.FakeData(size=64, image_size=(1, 100, 120), transform=transforms.ToTensor())`: random images of
    the size it is given, made PIL images (gray or RGB) then transformed, and an int label; `size` of them."""
    site, call = dataset.site, dataset.call
    if site is None or call is None or any(arg.star for arg in call.args) \
            or sum(arg.keyword is None for arg in call.args) > _FAKE.positional \
            or site.evaluator.ctx.module_fact("transforms changed", _transforms_changed):
        return None
    size_expr = _argument(dataset, _FAKE, 1, "image_size")
    sizes = site.read("value", size_expr) if size_expr is not None else Seq(tuple(map(Dim.of, (3, 224, 224))))
    if not isinstance(sizes, Seq) or not sizes.complete or len(sizes.items) != 3 \
            or not all(isinstance(size, Dim) and size.literal is not None for size in sizes.items) \
            or sizes.items[0].literal not in _FAKE_MODES:  # type: ignore[union-attr]
        return None
    count_expr = _argument(dataset, _FAKE, 0, "size")
    count = site.read("size", count_expr) if count_expr is not None else Dim.of(_FAKE.least)
    expr = _argument(dataset, _FAKE, _FAKE.transform_at, "transform")
    if expr is None or not isinstance(count, Dim) or count.literal is None or count.literal < 1:
        return None
    channels, height, width = sizes.items
    image = transformed(Image(channels, height, width), site.read("value", expr))  # type: ignore[arg-type]
    shape = image.shape() if image is not None else None
    if shape is None:
        return None
    label: object = Dim.symbol(("label", id(call)), "label")
    if _argument(dataset, _FAKE, 4, "target_transform") is not None:
        label = UNKNOWN
    return Samples(Seq((shape, label), "tuple"), count.literal)


def _transforms_changed(statement: cst.CSTNode) -> frozenset[str]:
    """What a statement changes of a dataset's or a `Compose`'s transforms after they are built: `ds.transform =
    ...`, `val_set.dataset.transform = ...`, `tf.transforms.insert(0, ...)`, `tf.transforms[0] = ...`. Any of them
    anywhere in the file leaves every dataset's images unknown: which object it changes is not followed."""
    found = set()
    for node in walk(statement):
        kind = type(node)
        if kind is cst.AssignTarget or kind is cst.AugAssign or kind is cst.AnnAssign or kind is cst.Del:
            target = node.target  # type: ignore[attr-defined]
            if type(target) is cst.Subscript:  # `tf.transforms[0] = ...`
                target = target.value
            if type(target) is cst.Attribute and target.attr.value in _TRANSFORMS:
                found.add(target.attr.value)
        elif kind is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _LIST_CHANGES \
                and type(node.func.value) is cst.Attribute and node.func.value.attr.value in _TRANSFORMS:
            found.add(node.func.value.attr.value)
    return frozenset(found)


def _argument(dataset: TorchObject, kind: _Kind, at: int | None, name: str) -> cst.BaseExpression | None:
    """An argument by keyword, else at position `at` (None: by keyword only; no call passes more than
    `kind.positional` arguments by position, so that position is never one)."""
    return dataset.argument(at if at is not None else kind.positional, name)
