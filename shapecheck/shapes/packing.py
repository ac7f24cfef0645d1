"""Packed sequences (`torch.nn.utils.rnn`): `pack_padded_sequence` packs a padded batch, a recurrent layer runs on
it and hands back a packed output and its final states, and `pad_packed_sequence` pads the output again. A packed
sequence is a value of its own (`Packed`), never a tensor: its `.data` is (sum of lengths, features), which no
padded shape tells.

What a packed batch is: the padded input's (B, T, *) (time-major input swapped to that order); a recurrent layer
needs it 3-d, so an input whose leading dims are unknown (`(..., emb_dim)` of embedded ids) is a batch and a length
of their own. Its final states are batched, (D * num_layers, B, H_out), whatever the layer's `batch_first`. Padded
again, the time dim is `total_length` where the code gives it, else the longest length: a size of its own."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.dims import Dim
from shapecheck.shapes.args import Args
from shapecheck.shapes.nn_modules import UNKNOWN, Applied, Recurrent, flag
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Items, Packed, Value

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

PACK = "torch.nn.utils.rnn.pack_padded_sequence"
PAD = "torch.nn.utils.rnn.pad_packed_sequence"


def packed(ev: ShapeEvaluator, call: cst.Call, before: int) -> Packed | None:
    """`pack_padded_sequence(x, lengths, batch_first=...)` of a tensor whose features (its last dim) are known."""
    if ev.ctx.qualname(call.func) != PACK:
        return None
    args = Args(call, 0)
    x = ev.tensor(args.get(0, "input"), before)
    batch_first = flag(args.get(2, "batch_first"), False, lambda e: ev.value(e, before))
    if x is None or batch_first is None:
        return None
    if x.rank == 3:
        dims = x.dims if batch_first else (x.dims[1], x.dims[0], x.dims[2])
        return Packed(Shape(dims, layout=(0, 1, 2), dtype=x.dtype))
    if x.rank is not None:
        return None  # a packed batch of another rank is no recurrent layer's input
    features = x.dims[-1:] if x.variadic < len(x.dims) else ()  # type: ignore[operator]
    return Packed(Shape((_fresh(call, "B"), _fresh(call, "T"), *features), 2 if not features else None,
                        layout=None, dtype=x.dtype))


def through_recurrent(layer: Recurrent, sequence: Packed, hx: Value | None) -> Applied:
    """A recurrent layer run on a packed batch: a packed output and the final states of the batch."""
    x = sequence.padded
    if x.rank is None:  # features not stated: the layer's own, or its input raises anyway
        if layer.input_size is None:
            return UNKNOWN
        x = Shape((*x.dims, layer.input_size), layout=(0, 1, 2), dtype=x.dtype)
    applied = replace(layer, batch_first=True).apply((x, hx))  # type: ignore[arg-type]
    value = applied.value
    if applied.mismatch is not None or not isinstance(value, Items) or value.items is None \
            or not isinstance(value.items[0], Shape):
        return applied if applied.mismatch is not None else UNKNOWN
    return Applied(Items((Packed(value.items[0]), *value.items[1:])))


def padded(ev: ShapeEvaluator, call: cst.Call, before: int) -> Items | None:
    """`pad_packed_sequence(sequence, batch_first=..., total_length=...)`: the padded batch and its (B,) lengths."""
    args = Args(call, 0)
    sequence = ev.object(args.get(0, "sequence"), before)
    batch_first = flag(args.get(1, "batch_first"), False, lambda e: ev.value(e, before))
    if not isinstance(sequence, Packed) or sequence.padded.rank != 3 or batch_first is None:
        return None
    total = args.get(3, "total_length")
    length = ev.size(total, before) if total is not None and not _none(total) else _fresh(call, "T")
    if length is None:
        return None
    batch, _, *rest = sequence.padded.dims
    dims = (batch, length, *rest) if batch_first else (length, batch, *rest)
    return Items((Shape(tuple(dims), layout=tuple(range(len(dims))), dtype=sequence.padded.dtype),
                  Shape.of(batch, dtype="int")))


def _none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"


def _fresh(call: cst.Call, name: str) -> Dim:
    return Dim.symbol(("packed", id(call), name), name, placeholder=True)
