"""What a loop over a `DataLoader` of tensors gets: `for x, y in DataLoader(TensorDataset(features, prices),
batch_size=16)` gives `x` the rows of `features` and `y` those of `prices`, stacked 16 at a time.

Only what the code states: a `TensorDataset` of tensors of known shapes, a dataset class of the project whose
`__getitem__` returns, for any index, tensors of known shapes, ints or floats (in a tuple or a dict), or a
torchvision dataset of images the transform makes tensors of known size (`vision_datasets`); the default
collation, or a `collate_fn` of the project run on a list of samples where every batch holds the literal batch size
(no `batch_sampler`, whose batches are of any size); and the batch size (1 by default). The batch dim is `batch_size`
when every batch is full (the dataset's length is a multiple of it, or `drop_last=True`); otherwise a size of its
own, the same for every tensor of the batch, since the last batch is smaller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.builtins import draws_in, grown_count, per_item_draws
from shapecheck.objects.dims import Dim, at_defaults, of_item, varies
from shapecheck.objects.evaluator import SPLITS
from shapecheck.objects.values import (NONE, UNKNOWN, Const, FunctionValue, Imported, Instance, Mapping, Opaque, Seq,
                                       TorchObject, truth)
from shapecheck.shapes.positions import inserted, opaque, replaced
from shapecheck.shapes.shape import Shape
from shapecheck.shapes import runs
from shapecheck.shapes.values import Array, Items, Path

if TYPE_CHECKING:
    from shapecheck.objects.evaluator import Evaluator

LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
# A part of a dataset (`Subset(ds, indices)`, an entry of `random_split(ds, lengths)`): its samples, maybe none.
SUBSETS = frozenset({"torch.utils.data.Subset", "torch.utils.data.dataset.Subset"})
_ENUMERATE = Imported("builtins.enumerate")
# A `collate_fn` of the project is run on a list of this many samples at most (a batch of literal size).
_LARGEST_COLLATED = 64


def batches(loader: TorchObject) -> Seq | None:
    """The batches of `loader`, any number of them, each one stacked tensor per tensor of its `TensorDataset`, and
    at least one where the dataset's length is a literal that fills one; None when the code does not state it."""
    if loader.qualname not in LOADERS or loader.site is None or not _plain_arguments(loader.call):
        return None
    if loader.argument(4, "batch_sampler") is not None:  # its batches are of any size the sampler says
        return None
    site = loader.site
    dataset_expr = loader.argument(0, "dataset")
    dataset = site.read("value", dataset_expr) if dataset_expr is not None else None
    # a part of a dataset holds its samples, however many (`random_split(ds, [0.8, 0.2])`, indices of any count)
    part = None
    if isinstance(dataset, TorchObject) and dataset.qualname in SUBSETS:
        part, dataset = dataset, _whole(dataset)
    if isinstance(dataset, Instance):
        return _project_batches(loader, dataset, part)
    if isinstance(dataset, Seq):
        return _list_batches(loader, dataset, part)
    if isinstance(dataset, TorchObject) and dataset.qualname not in TENSOR_DATASETS:
        return _vision_batches(loader, dataset, part)
    if loader.argument(6, "collate_fn") is not None or not isinstance(dataset, TorchObject) \
            or dataset.qualname not in TENSOR_DATASETS or dataset.site is None \
            or not _plain_arguments(dataset.call) or not dataset.call.args \
            or any(arg.keyword is not None for arg in dataset.call.args):
        return None
    tensors = [dataset.site.read("tensor", arg.value) for arg in dataset.call.args]
    known = [tensor for tensor in tensors if isinstance(tensor, Shape) and tensor.rank]
    if not known:
        return None
    # `TensorDataset` checks every tensor has as many rows as the first: one whose shape the code does not state
    # (labels read from a file) is batched as (batch, ...), and the others keep theirs
    length = _part_length(loader) if part is not None else known[0].dims[0]
    batch = _batch_dim(loader, length)
    if batch is None:
        return None
    each = Items(tuple(replaced(tensor, 0, batch) if isinstance(tensor, Shape) and tensor.rank
                       else Shape((batch,), 1, layout=None) for tensor in tensors))
    return Seq((), complete=False, each=each, least=_least(loader, length, part))


def dataset_length(dataset: TorchObject) -> Dim | None:
    """`len(TensorDataset(features, labels))`: the rows of its first tensor, where its shape is known (the lengths
    a `random_split` of it is given, `[len(ds) - n_val, n_val]`)."""
    if dataset.qualname not in TENSOR_DATASETS or dataset.site is None or not _plain_arguments(dataset.call) \
            or not dataset.call.args or dataset.call.args[0].keyword is not None:
        return None
    first = dataset.site.read("tensor", dataset.call.args[0].value)
    return first.size(0) if isinstance(first, Shape) and first.rank else None


def _whole(part: TorchObject) -> object:
    """The dataset a `Subset` (or an entry of `random_split`) takes its samples from."""
    whole = part.argument(0, "dataset")
    return part.site.read("value", whole) if whole is not None and part.site is not None else None


def _part_length(loader: TorchObject) -> Dim:
    """A length the code does not state: no batch of it is known to be full."""
    return opaque(("dataset length", id(loader.call)), "len(dataset)")


def _least(loader: TorchObject, length: Dim, part: TorchObject | None) -> int:
    """How many batches the loader gives at least (0 or 1): a part of a dataset fills one where its fewest rows do."""
    rows = _part_rows(part) if part is not None else length
    return 1 if rows is not None and _fills_one(loader, rows) else 0


def _part_rows(part: TorchObject) -> Dim | None:
    """The fewest rows a part of a dataset holds where the code states them: as many as a `Subset`'s listed
    indices, the smallest of `random_split`'s lengths (fractions, or lengths it does not state: not told)."""
    site, call = part.site, part.call
    expr = part.argument(1, "indices", "lengths")
    if site is None or call is None or expr is None:
        return None
    value = site.read("value", expr)
    if not isinstance(value, Seq) or not value.complete or not value.items:
        return None
    if site.evaluator.ctx.qualname(call.func) not in SPLITS:
        return Dim.of(len(value.items))
    rows = [item.literal if isinstance(item, Dim) else None for item in value.items]
    return Dim.of(min(rows)) if all(type(row) is int for row in rows) else None  # type: ignore[type-var]


def _project_batches(loader: TorchObject, dataset: Instance, part: TorchObject | None) -> Seq | None:
    """The batches of a dataset class of the project: what its `__getitem__` returns for any index (a run on an
    int index of its own), collated; as many rows as its `__len__` says (a part of it: any number of them, each
    index still one of the whole dataset's)."""
    ev = loader.site.evaluator  # type: ignore[union-attr]
    getitem = ev.attribute_of(dataset, "__getitem__")
    if dataset.tainted or not isinstance(getitem, FunctionValue):
        return None
    length = _run_value(ev, ev.attribute_of(dataset, "__len__"))
    if isinstance(length, Opaque) and length.default is not None:  # `return self.n_crops` of `args.n_crops`
        length = length.as_size()
    if not isinstance(length, Dim):
        length = _part_length(loader)
    batch = _batch_dim(loader, _part_length(loader) if part is not None else length)
    if batch is None:
        return None
    args = ev.calls.generic_arguments(getitem)
    names = list(args)
    if len(names) < 2:
        return None
    # the default sampler's: an int in `range(len(dataset))`; a part's indices are the whole dataset's too
    # (`random_split` permutes `range(len(dataset))`, a `Subset` is documented to take indices of its dataset); a
    # sampler of the code's may hand any int
    below = length if loader.argument(3, "sampler") is None else None
    args[names[1]] = Dim.symbol(("dataset index", id(loader.call)), names[1], below=below)
    sample = ev.calls.run(getitem, args).value
    # a size `__getitem__` draws (a crop of a random length) is drawn anew for each sample; one the dataset drew
    # when it was built is the same for all
    drawn = draws_in(ev, (sample,), tuple(dataset.attrs.values()))
    each = _collate(loader, per_item_draws(ev, sample, drawn) if drawn else sample, batch)
    if each is None:
        return None
    return Seq((), complete=False, each=each, least=_least(loader, length, part) or _written_to_run(loader, length))


def _written_to_run(loader: TorchObject, length: Dim) -> int:
    """1 where a loader over a dataset class of the project gives a batch however many samples the data holds: a
    length nothing states (windows cut from the series a file holds, `len(self.items)` of a list `__init__` grew
    under a condition) holds a sample in the run the program is written for, as a trainer's `for x, y in loader:`
    is written to take its passes and an option's default is the run it is written for; a short dataset may not
    fill a batch a `drop_last` not known to be False drops, and a length the code states decides by itself."""
    if at_defaults(length) is not None:
        return 0
    drop_expr = loader.argument(8, "drop_last")
    if drop_expr is not None and truth(loader.site.read("value", drop_expr)) is not False:  # type: ignore[union-attr]
        return 0
    return 1


def _list_batches(loader: TorchObject, dataset: Seq, part: TorchObject | None) -> Seq | None:
    """The batches of a list of samples (`DataLoader(molecules[:64], collate_fn=pack)`, a list of (tensor, label)
    pairs): a sample is what every element of the list agrees on; as many rows as the list has."""
    elements = [*dataset.items, *([dataset.each] if dataset.each is not None else [])]
    if not elements or not (dataset.complete or dataset.each is not None):
        return None
    sample = loader.site.evaluator.join_values(elements)  # type: ignore[union-attr]
    if sample is UNKNOWN:
        return None
    # a list a loop grew one sample a pass holds as many as the passes the code states (`for _ in range(n)`)
    grown = grown_count(dataset) if not dataset.complete and part is None else None
    length = Dim.of(len(dataset.items)) if dataset.complete and part is None else \
        grown if grown is not None else _part_length(loader)
    batch = _batch_dim(loader, length)
    each = _collate(loader, sample, batch) if batch is not None else None
    if each is None:
        return None
    return Seq((), complete=False, each=each, least=_least(loader, length, part))


def _vision_batches(loader: TorchObject, dataset: TorchObject, part: TorchObject | None) -> Seq | None:
    """The batches of a torchvision dataset of images of known size, of a length that depends on the split (at least
    one batch where its smallest split fills one)."""
    from shapecheck.shapes.vision_datasets import samples  # its datasets and transforms, for a torchvision loader

    held = samples(dataset)
    if held is None:
        return None
    batch = _batch_dim(loader, _part_length(loader))
    each = _collate(loader, held.sample, batch) if batch is not None else None
    if each is None:
        return None
    return Seq((), complete=False, each=each, least=_least(loader, Dim.of(held.least), part))


def _run_value(ev: Evaluator, method: object) -> object:
    if not isinstance(method, FunctionValue):
        return UNKNOWN
    return ev.calls.run(method, ev.calls.generic_arguments(method)).value


def _collate(loader: TorchObject, sample: object, batch: Dim) -> object:
    """A batch of samples like `sample`: the default collation's, or what the project's `collate_fn` returns for a
    list of `batch` of them (run where the batch size is a literal every batch has); None when it is not told."""
    collate_expr = loader.argument(6, "collate_fn")
    ev = loader.site.evaluator  # type: ignore[union-attr]
    varying = _varying_tensor(ev, sample)
    if collate_expr is None:
        if varying is not None and _stacks_several(loader):
            ev.collations[id(loader.call)] = (
                f"the default collation stacks each batch's samples, but their {varying.render()} tensor's size "
                f"varies per item (\"stack expects each tensor to be equal size\"): pad them in a collate_fn "
                f"(pad_sequence) or cut every item to one length", ())
        return _collated(sample, batch)
    collate = loader.site.read("value", collate_expr)  # type: ignore[union-attr]
    size = batch.literal
    if isinstance(collate, Instance):  # `collate_fn=Collator(vocab, cfg)`: its `__call__`, on the object built
        collate = ev.attribute_of(collate, "__call__")
    # a plain function's first parameter gets the samples, a callable object's `__call__` its first after `self`
    # (a method read off some other object, bound to it, is left unknown)
    if not isinstance(collate, FunctionValue) or size is not None and not 0 < size <= _LARGEST_COLLATED:
        return None
    params = collate.node.params.params
    first = 0 if collate.bound is None else 1
    if len(params) <= first or first and not (type(collate.node) is cst.FunctionDef
                                              and collate.node.name.value == "__call__"):
        return None
    args = ev.calls.generic_arguments(collate)
    if size is None:
        # a batch size the code names (`args.batch_size`), or a short last batch: that many samples, each like
        # `sample` (a size that varies per item, any item's: a pad to the longest is one size, a stack of them is
        # only checked at a literal batch size, below)
        args[params[first].name.value] = Seq((), complete=False, each=sample, least=1, grown=batch)
    else:
        # distinct samples: a size that varies per item is one size in each, another in the next
        samples = (sample,) * size if varying is None else \
            tuple(_item(ev, sample, position) for position in range(size))
        args[params[first].name.value] = Seq(samples)
    done = ev.calls.run(collate, args)
    if varying is not None and size is not None and size > 1:
        found = runs.first_conflict(ev, collate, done)
        if found is not None:
            ev.collations[id(loader.call)] = (f"then in {found.text}", found.path)
    return None if done.value is UNKNOWN else done.value


def _varying_tensor(ev: Evaluator, sample: object) -> Shape | None:
    """A tensor of the sample whose size varies per item (see `objects.dims.per_item`), or None."""
    found: list[Dim] = []

    def note(size: Dim) -> Dim:
        if varies(size):
            found.append(size)
        return size
    for part in _parts(sample):
        shape = part.shape if isinstance(part, Array) else part
        if isinstance(shape, Shape):
            ev.with_sizes(shape, note)
            if found:
                return shape
    return None


def _parts(sample: object) -> list[object]:
    """The values a sample holds, in its tuples and dicts."""
    if isinstance(sample, Seq):
        return [part for item in (*sample.items, *(() if sample.each is None else (sample.each,)))
                for part in _parts(item)]
    if isinstance(sample, Mapping):
        return [part for _, item in sample.items for part in _parts(item)]
    return [sample]


def _item(ev: Evaluator, sample: object, position: int) -> object:
    """The sample at `position` of a batch: its sizes that vary per item are that item's."""
    def change(size: Dim) -> Dim:
        return size.substitute({atom: Dim((((of_item(atom, position),), 1),)) for atom in size.atoms if atom.varies})
    return ev.with_sizes(sample, change)


def _stacks_several(loader: TorchObject) -> bool:
    """Whether the loader's batches hold more than one sample: a literal batch size above 1."""
    size_expr = loader.argument(1, "batch_size")
    size = loader.site.read("size", size_expr) if size_expr is not None and loader.site is not None else None
    return isinstance(size, Dim) and size.literal is not None and size.literal > 1


def collation_conflict(ev: Evaluator, loop: cst.For, before: int) -> tuple[str, Path] | None:
    """What fails as a loop over a loader collates its batches: samples whose sizes vary per item, stacked by the
    default collation or by a `collate_fn` of the project that does not pad them; None when nothing is known to."""
    iterated = loop.iter
    if type(iterated) is cst.Call and iterated.args and ev.object(iterated.func, before) == _ENUMERATE:
        iterated = iterated.args[0].value
    loader = ev.object(iterated, before)
    if not isinstance(loader, TorchObject) or loader.qualname not in LOADERS or loader.site is None:
        return None
    batches(loader)  # whatever it makes of the batches, a stack that fails on them is noted
    return loader.site.evaluator.collations.get(id(loader.call))


def _collated(sample: object, batch: Dim) -> object:
    """What the default collation makes of samples like `sample`: tensors stacked along a new dim 0, ints and
    floats made a (batch,) tensor, tuples (nested ones too) and dicts collated entry by entry; None when it is not
    told."""
    if isinstance(sample, Array):  # made a tensor and stacked; a numpy scalar (`labels[i]`) gives a (batch,) one
        sample = sample.shape
    if isinstance(sample, Shape):
        return inserted(sample, 0, batch) if sample.rank is not None else None
    if isinstance(sample, Dim):
        return Shape((batch,), dtype="int")
    if isinstance(sample, Const) and type(sample.value) in (float, bool):
        return Shape((batch,), dtype="float" if type(sample.value) is float else "bool")
    if isinstance(sample, Opaque) and sample.number:  # `float(row[3])`, `label.item()`: an int or a float
        return Shape((batch,))
    if isinstance(sample, Seq) and sample.complete:
        # a list, as the default collation makes of a tuple too: `model(*batch)` spreads it like any list
        return Seq(tuple(UNKNOWN if part is None else part for part in (_collated(item, batch) for item in
                                                                          sample.items)))
    if isinstance(sample, Seq) and not sample.items and sample.each is not None:
        # as many elements as each sample has, however many that is, each one like the sample's
        each = _collated(sample.each, batch)
        return Seq((), complete=False, each=each) if each is not None else None
    if isinstance(sample, Mapping) and sample.complete:
        return Mapping(tuple((key, value) for key, value in
                             ((key, _collated(item, batch)) for key, item in sample.items) if value is not None))
    return None


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
    # a `drop_last` the code does not state (a parameter, an option) may drop the short batch: none is known
    short = _short_batch(loader, size, length) if drop_last is False else None
    return opaque(("batch", id(loader.call)), "batch", last=short)


def _short_batch(loader: TorchObject, size: Dim | None, length: Dim) -> int | None:
    """The rows of the last batch where the code states it is short and every other batch full: a literal dataset
    length above a literal batch size it is no multiple of, the default sampler (its batches are the dataset's
    rows in order or shuffled, whatever their order), and more than one row left (a batch of one broadcasts)."""
    rows, batch = length.literal, size.literal if size is not None else None
    if rows is None or batch is None or batch <= 0 or rows <= batch or loader.argument(3, "sampler") is not None:
        return None
    short = rows % batch
    return short if short > 1 else None


def _fills_one(loader: TorchObject, length: Dim) -> bool:
    """Whether the loader gives a batch at all: a dataset of a literal, non-zero length, at least a whole batch of
    them when `drop_last` may drop a short one (a batch size of a command-line option: on its default)."""
    site = loader.site
    assert site is not None
    rows = at_defaults(length)  # a literal, or what a run with no flags holds (`__len__` of `args.n_items`)
    if rows is None or rows <= 0:
        return False
    drop_expr = loader.argument(8, "drop_last")
    if drop_expr is None:
        return True
    size_expr = loader.argument(1, "batch_size")
    size = site.read("size", size_expr) if size_expr is not None else Dim.of(1)
    # a command-line option (`--batch-size`, `default=16`) fills one on its default, the run the program is written
    # for, as a trainer's `for i in range(num_iterations)` takes its first pass on its default
    least = at_defaults(size) if isinstance(size, Dim) else None
    return least is not None and rows >= least


def _divides(size: Dim, length: Dim) -> bool:
    """Whether `length` is provably a multiple of `size`: both literal, the same size, or batches of one (any length
    is a multiple of 1, however many samples a file gives)."""
    if size == length or size.literal == 1:
        return True
    a, b = size.literal, length.literal
    return a is not None and b is not None and a > 0 and b % a == 0


def _plain_arguments(call: cst.Call | None) -> bool:
    """No `*args` or `**kwargs`: every argument left out is known to be left out."""
    return call is not None and not any(arg.star for arg in call.args)
