"""What a loop over a `DataLoader` of tensors gets: `for x, y in DataLoader(TensorDataset(features, prices),
batch_size=16)` gives `x` the rows of `features` and `y` those of `prices`, stacked 16 at a time.

Only what the code states: a `TensorDataset` of tensors of known shapes, the default collation (no `collate_fn`,
no `batch_sampler`), and the batch size (1 by default). The batch dim is `batch_size` when every batch is full (the
dataset's length is a multiple of it, or `drop_last=True`); otherwise a size of its own, the same for every tensor
of the batch, since the last batch is smaller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shapecheck.objects.dims import Dim
from shapecheck.objects.values import NONE, Seq, TorchObject, truth
from shapecheck.shapes.positions import opaque, replaced
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items

if TYPE_CHECKING:
    import libcst as cst

LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
# Arguments (with their positions) that change what a batch is: left to the code that passes them.
_OTHER_BATCHING = ((4, "batch_sampler"), (6, "collate_fn"))


def batches(loader: TorchObject) -> Seq | None:
    """The batches of `loader`, any number of them, each one stacked tensor per tensor of its `TensorDataset`, and
    at least one where the dataset's length is a literal that fills one; None when the code does not state it."""
    if loader.qualname not in LOADERS or loader.site is None or not _plain_arguments(loader.call):
        return None
    if any(loader.argument(index, name) is not None for index, name in _OTHER_BATCHING):
        return None
    site = loader.site
    dataset_expr = loader.argument(0, "dataset")
    dataset = site.read("value", dataset_expr) if dataset_expr is not None else None
    if not isinstance(dataset, TorchObject) or dataset.qualname not in TENSOR_DATASETS or dataset.site is None \
            or not _plain_arguments(dataset.call) or not dataset.call.args \
            or any(arg.keyword is not None for arg in dataset.call.args):
        return None
    tensors = [dataset.site.read("tensor", arg.value) for arg in dataset.call.args]
    if not all(isinstance(tensor, Shape) and tensor.rank for tensor in tensors):
        return None
    length = tensors[0].dims[0]  # type: ignore[union-attr]
    batch = _batch_dim(loader, length)
    if batch is None:
        return None
    each = Items(tuple(replaced(tensor, 0, batch) for tensor in tensors))  # type: ignore[arg-type]
    return Seq((), complete=False, each=each, least=1 if _fills_one(loader, length) else 0)


def _batch_dim(loader: TorchObject, length: Dim) -> Dim | None:
    site = loader.site
    assert site is not None
    size_expr = loader.argument(1, "batch_size")
    if size_expr is None:
        size: Dim | None = Dim.of(1)
    else:
        if site.read("value", size_expr) == NONE:  # `batch_size=None`: samples, not batches
            return None
        size = site.read("size", size_expr)
    drop_expr = loader.argument(8, "drop_last")
    drop_last = False if drop_expr is None else truth(site.read("value", drop_expr))
    if isinstance(size, Dim) and (drop_last or _divides(size, length)):
        return size
    return opaque(("batch", id(loader.call)), "batch")


def _fills_one(loader: TorchObject, length: Dim) -> bool:
    """Whether the loader gives a batch at all: a dataset of a literal, non-zero length, at least a whole batch of
    them when `drop_last` may drop a short one."""
    site = loader.site
    assert site is not None
    rows = length.literal
    if rows is None or rows <= 0:
        return False
    drop_expr = loader.argument(8, "drop_last")
    if drop_expr is None:
        return True
    size_expr = loader.argument(1, "batch_size")
    size = site.read("size", size_expr) if size_expr is not None else Dim.of(1)
    return isinstance(size, Dim) and size.literal is not None and rows >= size.literal


def _divides(size: Dim, length: Dim) -> bool:
    """Whether `length` is provably a multiple of `size`: both literal, or the same size."""
    if size == length:
        return True
    a, b = size.literal, length.literal
    return a is not None and b is not None and a > 0 and b % a == 0


def _plain_arguments(call: cst.Call | None) -> bool:
    """No `*args` or `**kwargs`: every argument left out is known to be left out."""
    return call is not None and not any(arg.star for arg in call.args)
