"""What attention layers ask of their inputs and masks (`nn.MultiheadAttention`, `nn.Transformer*`): which dims
are the batch and the sequence (batch first or not), and the shapes a mask may have. A `key_padding_mask` is
(batch, source length), or (source length,) unbatched; an `attn_mask` is (target length, source length) or
(batch * num_heads, target length, source length).
An attention mask given with `is_causal=True` is checked as any other: the docs ask it to be the causal mask, and
though training then drops it where no weights are asked for, the eval fast path raises on one of another size."""

from __future__ import annotations


from shapecheck.engine.records import record
from shapecheck.objects.dims import Dim, same
from shapecheck.shapes.shape import Shape


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Sequence:
    """One input's batch and length; None where not known (or unbatched, for the batch)."""

    batch: Dim | None
    length: Dim | None
    batched: bool


def sequence(x: Shape | None, batch_first: bool | None) -> Sequence | None:
    """The batch and length of a (L, N, E) input, or (N, L, E) batch first, or (L, E) unbatched."""
    if x is None or x.rank not in (2, 3):
        return None
    if x.rank == 2:
        return Sequence(None, x.dims[0], False)
    if batch_first is None:
        return None
    return Sequence(x.dims[0], x.dims[1], True) if batch_first else Sequence(x.dims[1], x.dims[0], True)


def batch_mismatch(target: Sequence | None, source: Sequence | None) -> tuple[str, str] | None:
    """(what the key's batch is, what it should be) when the query and the key are batches of different sizes
    (a learned query of batch 1 against a batch of features): attention pairs them up, it doesn't broadcast."""
    if target is None or source is None or not target.batched or not source.batched \
            or not _different(source.batch, target.batch):
        return None
    return f"the key is a batch of {source.batch}", f"the query's batch size, {target.batch}"


def padding_mismatch(name: str, mask: object, source: Sequence | None) -> tuple[str, str] | None:
    """(what the mask is, what it should be) when a key padding mask can't be the source's."""
    if source is None:
        return None
    option = ((source.batch, source.length), (1,)) if source.batched else ((source.length,), (0,))
    meaning = "(batch, source length)" if source.batched else "(source length,)"
    return _mismatch(name, mask, (option,), meaning, source.batch)


def weights(target: Sequence | None, source: Sequence | None, heads: Dim | None, average: object) -> Shape | None:
    """The attention weights `MultiheadAttention` hands back: (N, L, S) averaged over the heads, (N, heads, L, S)
    with `average_attn_weights=False`; without the N for an unbatched query."""
    if target is None or source is None or target.length is None or source.length is None or average is None:
        return None
    if average is False and heads is None or target.batched and target.batch is None:
        return None
    dims = (target.length, source.length) if average else (heads, target.length, source.length)
    return Shape.of(*((target.batch, *dims) if target.batched else dims), dtype="float")


def attention_mismatch(name: str, mask: object, target: Sequence | None, source: Sequence | None,
                       heads: Dim | None) -> tuple[str, str] | None:
    """(what the mask is, what it should be) when an attention mask fits neither (L, S) nor (N * heads, L, S)."""
    if target is None or source is None:
        return None
    stacked = target.batch * heads if target.batch is not None and heads is not None else None
    options = (((target.length, source.length), (0, 1)),
               ((stacked if target.batched else heads, target.length, source.length), (1, 2)))
    meaning = "(target length, source length) or (batch * num_heads, target length, source length)"
    return _mismatch(name, mask, options, meaning, target.batch)


Option = tuple[tuple[Dim | None, ...], tuple[int, ...]]  # a mask's sizes, and the positions of its lengths


def _mismatch(name: str, mask: object, options: tuple[Option, ...], meaning: str,
              batch: Dim | None) -> tuple[str, str] | None:
    if not isinstance(mask, Shape) or mask.rank is None:
        return None
    for option, lengths in options:
        if len(option) == mask.rank and not any(_different(a, b) for a, b in zip(mask.dims, option)) \
                and not _batch_for_length(mask.dims, option, lengths, batch):
            return None
    spelled = " or ".join("(" + ", ".join("?" if d is None else str(d) for d in option) + ")" for option, _ in options)
    return f"{name} is {mask.render()}", f"{name} of {spelled}: {meaning}"


def _batch_for_length(dims: tuple[Dim, ...], option: tuple[Dim | None, ...], lengths: tuple[int, ...],
                      batch: Dim | None) -> bool:
    """A mask sized by the batch where a sequence length is asked, the two sizes not known to be one (a (batch,
    length) padding mask of batch-first tokens given to a layer that is not batch first, which reads them as
    (length, batch); a causal mask built for `x.size(0)` of batch-first tokens): wrong even where a batch as long as
    the sequence lets it run, as it then masks the wrong entries."""
    if batch is None:
        return False
    return any(same(dims[i], batch) is True and option[i] is not None and same(option[i], batch) is not True
               for i in lengths)


def _different(a: Dim | None, b: Dim | None) -> bool:
    return a is not None and b is not None and same(a, b) is False
