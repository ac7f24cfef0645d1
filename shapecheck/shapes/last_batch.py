"""The short last batch of a loader: 35 rows in batches of 16 give two batches of 16 and one of 3, on every epoch,
shuffled or not. `loaders` names the batch dim with an opaque size that knows the last batch's rows
(`Atom.last`); a model called on every pass of the loop over it runs on that batch too, so what fails there
fails on every epoch's last batch (a hidden state sized by the configured batch size, `torch.zeros(layers,
args.batch_size, hidden)`).

Only a call that certainly runs on the last pass: in a `for` loop over the loader's batches whose body leaves no
pass early (no `break`, `continue`, `return` or `raise` in it) and reaches the call through `with` blocks only,
outside any conditional expression.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine import flow
from shapecheck.engine.syntax import last_name
from shapecheck.objects.dims import Atom, Dim
from shapecheck.objects.values import Seq
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

_LEAVING = (cst.Break, cst.Continue, cst.Return, cst.Raise)


def short_sizes(values: tuple[object, ...]) -> dict[Atom, Dim]:
    """The sizes the batch dims among `values` (tensors, lists and tuples of them) have on the last batch."""
    found: dict[Atom, Dim] = {}
    for value in values:
        for shape in _shapes(value):
            for dim in shape.dims:
                for atom in dim.atoms:
                    if atom.last is not None:
                        found[atom] = Dim.of(atom.last)
    return found


def on_last_batch(value: object, sizes: dict[Atom, Dim]) -> object:
    """`value` as it is on the last batch."""
    if isinstance(value, Shape):
        return replace(value, dims=tuple(dim.substitute(sizes) for dim in value.dims))
    if isinstance(value, Seq):
        each = on_last_batch(value.each, sizes) if value.each is not None else None
        return replace(value, items=tuple(on_last_batch(item, sizes) for item in value.items), each=each)
    if isinstance(value, Items):
        return replace(value, items=None if value.items is None else
                       tuple(on_last_batch(item, sizes) for item in value.items),
                       each=on_last_batch(value.each, sizes) if value.each is not None else None)
    return value


def on_every_pass(ev: ShapeEvaluator, call: cst.Call, before: int, sizes: dict[Atom, Dim]) -> bool:
    """Whether `call` runs on every pass of the loop around it, the last one included, and that loop goes through
    the batches `sizes` are of (not `for step in range(n): x, y = next(iter(loader))`, whose batch is the first)."""
    ctx = ev.ctx
    func = call.func
    key = func.value if type(func) is cst.Name else func.attr.value if type(func) is cst.Attribute else None
    site = next((site for site in ctx.calls_to(key) if site.node is call), None) if key is not None else None
    loop = site.loop if site is not None else None
    if type(loop) is not cst.For or any(isinstance(node, _LEAVING) for node in ctx.walk(loop.body)):
        return False
    if not sizes.keys() <= short_sizes((ev.element(ev.object(loop.iter, before)),)).keys():
        return False
    path = flow.path_to(loop.body, call)
    return path is not None and flow.runs_whenever(path)


def _shapes(value: object) -> Iterator[Shape]:
    """The tensors in `value`, and in the lists and tuples it holds."""
    if isinstance(value, Shape):
        yield value
    elif isinstance(value, Seq):
        for item in (*value.items, value.each):
            yield from _shapes(item)
    elif isinstance(value, Items):
        for item in (*(value.items or ()), value.each):
            yield from _shapes(item)


def grown_per_batch(ev: ShapeEvaluator, listed: cst.BaseExpression, joining: cst.Call, before: int) -> Shape | None:
    """What the list `listed` holds on the last batch, where it holds one tensor of each batch of a loader whose
    last is short (`feats.append(model(x))` on every pass of the loop over it, the list's only append, in the
    function that joins it): the other batches are full, so its tensors are of two sizes. None otherwise."""
    if type(listed) is not cst.Name:
        return None
    found = ev.object(listed, before)
    if not isinstance(found, Seq) or found.items or found.grown is None or not isinstance(found.each, Shape):
        return None
    sizes = short_sizes((found.each,))
    if not sizes:
        return None
    ctx = ev.ctx
    function = next((site.function for site in ctx.calls_to(last_name(joining.func)) if site.node is joining), None)
    appends = [site.node for site in ctx.calls_to("append") if site.function is function
               and type(site.node.func) is cst.Attribute and type(site.node.func.value) is cst.Name
               and site.node.func.value.value == listed.value]
    if function is None or len(appends) != 1 or not on_every_pass(ev, appends[0], before, sizes):
        return None
    return on_last_batch(found.each, sizes)  # type: ignore[return-value]

