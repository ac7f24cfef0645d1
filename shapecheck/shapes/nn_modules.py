"""torch.nn's layers as the shape analysis knows them: what a constructor call says (`nn.Conv2d(1, 32, 3, 1)`) and
what the layer does to its input's shape.

`read(ev, call, size)` turns a constructor call into a `Layer`, reading its size arguments with `size` (the caller
decides where names in them are resolved: where the layer was bound). `Layer.apply(inputs)` gives the result (a
Shape, or Items for the layers that return tuples: RNNs, attention) and, when the input certainly does not fit, a
`Mismatch` saying what the input has and what the layer expects. Sizes the code does not state are unknown and never
mismatch. The arithmetic is PyTorch's own (the formulas of the `Conv2d`, `MaxPool2d`, `ConvTranspose2d` docs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.shapes import attention, value_bounds
from shapecheck.shapes.args import Args, Hidden, whole_factor
from shapecheck.objects.dims import Atom, Dim, same
from shapecheck.objects.values import Const, Seq, truth
from shapecheck.shapes.views import UNSOLVED, product
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.spelling import Spelled
from shapecheck.shapes.values import Items, Path, Value

SizeReader = Callable[[cst.BaseExpression], "Dim | None"]
LayerReader = Callable[[cst.BaseExpression], "Layer | None"]
ValueReader = Callable[[cst.BaseExpression], object]  # what an argument holds, as the objects floor says


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Mismatch:
    """The input does not fit: `has` and `expects` are phrases for the message ("64 features (last dim)", "32").
    `inner` names the layer inside a Sequential that rejects it; `detail`, for a model class, says where in its
    `forward` what fails and why, and `path` leads there."""

    has: str
    expects: str
    inner: str = ""
    detail: str = ""
    path: Path = ()
    when: str = ""  # on which of the calls it fails, when not on all ("on the last batch, of 3 rows, ")


@record(slots=True, unsafe_hash=True)
class Applied:
    value: Value | None
    mismatch: Mismatch | None = None


UNKNOWN = Applied(None)


def _fresh(key: object, spatial: int, i: int) -> Dim:
    """A size the analysis can't compute (a pooled size of an unknown input): equal only to itself, named as
    PyTorch's docs name it (`H_out`, `W_out`), and `unsolved`: it may be 1."""
    name = (("L",), ("H", "W"), ("D", "H", "W"))[spatial - 1][i] + "_out" if 1 <= spatial <= 3 else f"d{i}_out"
    return Dim((((Atom((UNSOLVED, key), name),), 1),))


def _floordiv(a: Dim, b: Dim) -> Dim:
    if a.literal is not None and b.literal:
        return Dim.of(a.literal // b.literal)
    return a // b


def _different(a: Dim | None, b: Dim | None) -> bool:
    return a is not None and b is not None and same(a, b) is False


def _row_major(dims: tuple[Dim, ...], variadic: int | None, like: Shape, layout: bool = True) -> Shape:
    return Shape(dims, variadic, like.variadic_name,
                 tuple(range(len(dims))) if layout else None, "float" if like.dtype != "complex" else "complex")


# ---------------------------------------------------------------------------------------------------- layers


class Layer:
    """One torch.nn layer. `spelled` is the constructor call as the code writes it; `parameters` names the
    arguments its forward takes after the input that `apply` reads (a tensor, or a tuple of them as Items)."""

    spelled: str | Spelled = ""
    parameters: tuple[str, ...] = ()
    # the parameters that are True/False switches, with their defaults: `apply` gets each as a bool, None where the
    # code passes one it does not state (`need_weights=self.training`)
    flags: tuple[tuple[str, bool], ...] = ()
    input_name: str = "input"  # the forward's name for the input (`attn(query=q, key=k, value=v)`)

    def apply(self, inputs: tuple[Shape | None, ...]) -> Applied:
        raise NotImplementedError


@record(unsafe_hash=True)
class SameShape(Layer):
    """Activations, dropout, `Identity`, `Softmax`: the output is the input."""

    spelled: str | Spelled = ""

    def apply(self, inputs):
        return Applied(inputs[0] if inputs else None)


@record(unsafe_hash=True)
class Linear(Layer):
    in_features: Dim | None
    out_features: Dim | None
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None or self.out_features is None:
            return UNKNOWN
        last = x.size(-1)
        if _different(last, self.in_features):
            return Applied(None, Mismatch(f"{last} features (last dim)", str(self.in_features)))
        if x.rank == 0:
            return UNKNOWN
        return Applied(_replace_last(x, 1, (self.out_features,)))


@record(unsafe_hash=True)
class Embedding(Layer):
    embedding_dim: Dim | None
    num_embeddings: Dim | None = None
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None:
            return UNKNOWN
        past = self.past_table(x)
        if past is not None:
            return Applied(None, Mismatch(past, f"indices below {self.num_embeddings} (num_embeddings)"))
        if x.dtype in ("float", "complex"):  # "Expected tensor for argument #1 'indices' to have ... Long, Int"
            return Applied(None, Mismatch(f"{x.dtype} values", "integer indices (`.long()`)"))
        if self.embedding_dim is None:
            return UNKNOWN
        return Applied(Shape(x.dims + (self.embedding_dim,), x.variadic, x.variadic_name,
                             tuple(range(len(x.dims) + 1)), "float"))

    def past_table(self, x: Shape) -> str | None:
        """Indices the code's range takes past the table ("IndexError: index out of range in self")."""
        return value_bounds.past_end(x, self.num_embeddings)


@record(unsafe_hash=True)
class EmbeddingBag(Embedding):
    """A bag per row of a 2-d input, (B, N) -> (B, embedding_dim); a 1-d input's bags are its `offsets`, unknown."""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None:
            return UNKNOWN
        if self.past_table(x) is not None:
            return super().apply(inputs)
        if self.embedding_dim is None or x.rank != 2:
            return UNKNOWN
        return Applied(Shape((x.dims[0], self.embedding_dim), layout=(0, 1), dtype="float"))


def _spatial_input(x: Shape, spatial: int) -> tuple[Dim | None, list[Dim | None]] | Mismatch | None:
    """The channel and spatial sizes of an (N, C, *spatial) or (C, *spatial) input; a Mismatch for a rank the
    layer rejects; None when they can't be told."""
    if x.rank is not None and x.rank not in (spatial + 1, spatial + 2):
        return Mismatch(f"{x.rank} dims", f"{spatial + 1} (unbatched) or {spatial + 2} (batched)")
    channel = x.size(-spatial - 1)
    sizes = [x.size(-spatial + i) for i in range(spatial)]
    return channel, sizes


def _replace_last(x: Shape, count: int, tail: tuple[Dim, ...]) -> Shape | None:
    """`x` with its last `count` dims replaced by `tail`, row-major. When those dims fall in the unknown run, the
    run may be empty, so the dims named before it may be the ones replaced: `(B, T, ...)` through a Linear is
    `(B, ..., out)`, never `(B, T, ..., out)`, which would claim T survives."""
    if x.variadic is None:
        return _row_major(x.dims[:-count] + tail, None, x) if len(x.dims) >= count else None
    kept = len(x.dims) - x.variadic  # dims named after the unknown run
    if kept >= count:
        return _row_major(x.dims[:-count] + tail, x.variadic, x)
    if kept == 0:
        lead = max(x.variadic - count, 0)
        return _row_major(x.dims[:lead] + tail, lead, x)
    return None


def _with_spatial(x: Shape, spatial: int, channel: Dim | None, sizes: list[Dim]) -> Shape | None:
    """`x` with its last `spatial + 1` dims replaced by the channel and spatial sizes."""
    if channel is None:
        return None
    return _replace_last(x, spatial + 1, (channel, *sizes))


class _Spatial(Layer):
    """A layer over (N, C, *spatial) input: checks the rank (and the channels), then maps each spatial size."""

    spatial: int

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None:
            return UNKNOWN
        if x.variadic is not None and len(x.dims) == self.spatial + 2:
            x = replace(x, variadic=None)  # the layer takes at most spatial + 2 dims: the unknown run is empty
        batched = self._batched(x)
        if batched is not None:
            return Applied(batched)
        found = _spatial_input(x, self.spatial)
        if isinstance(found, Mismatch):
            return Applied(None, found)
        channel, sizes = found
        mismatch = self._channel_mismatch(channel)
        if mismatch is not None:
            return Applied(None, mismatch)
        out = [self._size(size, i) for i, size in enumerate(sizes)]
        if any(size.literal is not None and size.literal < 1 for size in out):
            # LeNet-5's 5x5 convolutions on 28x28 MNIST without its 32x32 resize: torch refuses a window larger than
            # the padded input ("Kernel size can't be greater than actual input size", "Output size is too small")
            return Applied(None, Mismatch(f"{' x '.join(map(str, sizes))} (last {self.spatial} dims)",
                                          f"an input its window fits (the output would be {' x '.join(map(str, out))})"))
        return Applied(_with_spatial(x, self.spatial, self._channels(channel), out))

    def _channel_mismatch(self, channel: Dim | None) -> Mismatch | None:
        return None

    def _batched(self, x: Shape) -> Shape | None:
        """The output for an input of unknown rank that can only be batched; None when that can't be told."""
        return None

    def _channels(self, channel: Dim | None) -> Dim | None:
        return channel

    def _size(self, size: Dim | None, i: int) -> Dim:
        raise NotImplementedError


@record(unsafe_hash=True)
class Conv(_Spatial):
    """`ConvNd` and `ConvTransposeNd`: channels checked, sizes from kernel/stride/padding/dilation."""

    spatial: int
    in_channels: Dim | None
    out_channels: Dim | None
    kernel: tuple[Dim | None, ...] | None
    stride: tuple[Dim | None, ...] | None
    padding: tuple[Dim | None, ...] | str | None
    dilation: tuple[Dim | None, ...] | None
    output_padding: tuple[Dim | None, ...] | None = None  # ConvTranspose only
    transposed: bool = False
    spelled: str | Spelled = ""

    def _channel_mismatch(self, channel: Dim | None) -> Mismatch | None:
        if _different(channel, self.in_channels):
            return Mismatch(f"{channel} channels (dim -{self.spatial + 1})", str(self.in_channels))
        return None

    def _batched(self, x: Shape) -> Shape | None:
        """`(1, ...)` into `Conv2d(4, 8, 3)`: unbatched, its first dim would be the 4 channels, so it is the batch of
        an (N, C, H, W) input and the output keeps it (a single observation `state[None, ...]` stays one row)."""
        if x.variadic != 1 or len(x.dims) != 1 or self.out_channels is None \
                or not _different(x.dims[0], self.in_channels):
            return None
        sizes = tuple(_fresh(("conv", id(self), i), self.spatial, i) for i in range(self.spatial))
        return _row_major((x.dims[0], self.out_channels, *sizes), None, x)

    def _channels(self, channel: Dim | None) -> Dim | None:
        return self.out_channels

    def _size(self, size: Dim | None, i: int) -> Dim:
        fresh = _fresh(("conv", id(self), i), self.spatial, i)
        if size is None:
            return fresh
        k, s, d = (_at(values, i, self.spatial) for values in (self.kernel, self.stride, self.dilation))
        if self.padding == "same":
            return size
        p = Dim.of(0) if self.padding == "valid" else _at(self.padding, i, self.spatial)  # type: ignore[arg-type]
        if k is None or s is None or p is None or d is None:
            return fresh
        if self.transposed:
            o = _at(self.output_padding, i, self.spatial)
            return fresh if o is None else (size - 1) * s - 2 * p + d * (k - 1) + o + 1
        return _floordiv(size + 2 * p - d * (k - 1) - 1, s) + 1


@record(unsafe_hash=True)
class Pool(_Spatial):
    """`MaxPoolNd` / `AvgPoolNd`: channels kept, sizes from kernel/stride/padding/dilation/ceil_mode."""

    spatial: int
    kernel: tuple[Dim | None, ...] | None
    stride: tuple[Dim | None, ...] | None
    padding: tuple[Dim | None, ...] | None
    dilation: tuple[Dim | None, ...] | None
    ceil_mode: bool | None
    spelled: str | Spelled = ""

    def _size(self, size: Dim | None, i: int) -> Dim:
        fresh = _fresh(("pool", id(self), i), self.spatial, i)
        k, s, p, d = (_at(values, i, self.spatial) for values in (self.kernel, self.stride, self.padding,
                                                                   self.dilation))
        if size is None or k is None or s is None or p is None or d is None or self.ceil_mode is None:
            return fresh
        span = size + 2 * p - d * (k - 1) - 1
        if not self.ceil_mode:
            return _floordiv(span, s) + 1
        if span.literal is None or s.literal is None or p.literal is None or size.literal is None:
            return fresh
        out = -(-span.literal // s.literal) + 1
        if (out - 1) * s.literal >= size.literal + p.literal:  # the last window must start inside the input
            out -= 1
        return Dim.of(out)


@record(unsafe_hash=True)
class AdaptivePool(_Spatial):
    spatial: int
    output_size: tuple[Dim | None, ...]  # None entries keep the input's size
    spelled: str | Spelled = ""

    def _size(self, size: Dim | None, i: int) -> Dim:
        want = self.output_size[i] if i < len(self.output_size) else None
        return want if want is not None else size if size is not None else _fresh(("adaptive", id(self), i),
                                                                                   self.spatial, i)


@record(unsafe_hash=True)
class Upsample(Layer):
    """`nn.Upsample(size=...)`: a (batch, channels, 1 to 3 spatial dims) input resized to `size`; a tuple gives one
    size per spatial dim, so its length must be their count, and an int serves them all. `scaled`: `size` holds
    integer `scale_factor`s instead, each spatial dim multiplied by its own."""

    size: tuple[Dim | None, ...]
    per_dim: bool
    spelled: str | Spelled = ""
    scaled: bool = False

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None or x.rank is None:
            return UNKNOWN
        if not 3 <= x.rank <= 5:
            return Applied(None, Mismatch(f"{x.rank} dims", "3 to 5 (batch, channels, 1 to 3 spatial dims)"))
        spatial = x.rank - 2
        if self.per_dim and len(self.size) != spatial:
            return Applied(None, Mismatch(f"{spatial} spatial dims", str(len(self.size))))
        sizes = self.size if self.per_dim else self.size * spatial
        if any(size is None for size in sizes):
            return UNKNOWN
        if self.scaled:
            sizes = tuple(length * factor for length, factor in zip(x.dims[2:], sizes))
        dims = x.dims[:2] + sizes
        return Applied(Shape(dims, None, "...", tuple(range(len(dims))), x.dtype))  # type: ignore[arg-type]


@record(unsafe_hash=True)
class ChannelNorm(Layer):
    """`BatchNormNd`, `InstanceNormNd`, `GroupNorm`: the channel dim must hold `num_features`. `ranks` are the
    input ranks the layer takes and `channel` the channel dim for each."""

    num_features: Dim | None
    ranks: tuple[tuple[int, int], ...]  # (rank, channel dim)
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None:
            return UNKNOWN
        if x.rank is None:
            from_end = {dim - rank for rank, dim in self.ranks}
            if len(from_end) == 1:  # every accepted rank puts the channels at the same place from the end
                position = next(iter(from_end))
                if _different(x.size(position), self.num_features):
                    return Applied(None, Mismatch(f"{x.size(position)} channels (dim {position})",
                                                  str(self.num_features)))
            return Applied(x)
        accepted = dict(self.ranks)
        if x.rank not in accepted:
            return Applied(None, Mismatch(f"{x.rank} dims", " or ".join(str(rank) for rank, _ in self.ranks)))
        channel = x.size(accepted[x.rank])
        if _different(channel, self.num_features):
            return Applied(None, Mismatch(f"{channel} channels (dim {accepted[x.rank]})", str(self.num_features)))
        return Applied(x)


@record(unsafe_hash=True)
class LayerNorm(Layer):
    """`LayerNorm` / `RMSNorm`: the last dims must be `normalized_shape`."""

    normalized: tuple[Dim | None, ...] | None
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None:
            return UNKNOWN
        if self.normalized is not None:
            count = len(self.normalized)
            for offset, want in enumerate(self.normalized):
                position = offset - count
                have = x.size(position)
                if _different(have, want):
                    stated = ", ".join(str(d) for d in self.normalized)
                    what = "last dim" if count == 1 else f"dim {position}"
                    return Applied(None, Mismatch(f"{have} features ({what})",
                                                  stated if count == 1 else f"({stated})"))
        return Applied(x)


@record(unsafe_hash=True)
class Flatten(Layer):
    start: int
    end: int
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None or x.rank is None:
            return UNKNOWN
        rank = max(x.rank, 1)
        first, last = self.start % rank, self.end % rank
        if first > last or x.rank == 0:
            return UNKNOWN
        dims = x.dims[:first] + (product(x.dims[first:last + 1]),) + x.dims[last + 1:]
        return Applied(Shape(dims, None, "...", tuple(range(len(dims))) if x.contiguous else None, x.dtype))


@record(unsafe_hash=True)
class Unflatten(Layer):
    dim: int
    sizes: tuple[Dim, ...] | None
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None or self.sizes is None:
            return UNKNOWN
        position = x.index(self.dim)
        if position is None or (x.variadic is not None and self.dim >= 0):
            return UNKNOWN
        have = x.dims[position]
        if _different(have, product(self.sizes)):
            listed = ", ".join(str(d) for d in self.sizes)
            return Applied(None, Mismatch(f"{have} elements in dim {self.dim}", f"({listed}): {product(self.sizes)}"))
        dims = x.dims[:position] + self.sizes + x.dims[position + 1:]
        variadic = x.variadic if x.variadic is None or x.variadic <= position else x.variadic + len(self.sizes) - 1
        return Applied(Shape(dims, variadic, x.variadic_name, None, x.dtype))


@record(unsafe_hash=True)
class Glu(Layer):
    """`nn.GLU(dim)`: one half of the input along `dim` gates the other, so that dim comes out halved (a 1-d conv
    subsampler's `Conv1d(c, 2 * d, ...), nn.GLU(dim=1)` gives `d` channels)."""

    dim: int
    spelled: str | Spelled = ""

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        position = x.index(self.dim) if x is not None else None
        if position is None:
            return UNKNOWN
        have = x.dims[position]
        if have.literal is not None and have.literal % 2:
            return UNKNOWN  # torch refuses to halve an odd size; what the code meant is not told
        dims = x.dims[:position] + (have // Dim.of(2),) + x.dims[position + 1:]
        return Applied(_row_major(dims, x.variadic, x))


class _Recurrent(Layer):
    """What an RNN and a cell share: an input of `unbatched` dims or one more (the batch), of input_size features,
    and an initial state `hx` that `step` checks and runs with."""

    unbatched: int
    input_size: Dim | None
    parameters = ("hx",)

    def apply(self, inputs):
        x = inputs[0] if inputs else None
        if x is None:
            return UNKNOWN
        if x.rank is not None and x.rank not in (self.unbatched, self.unbatched + 1):
            return Applied(None, Mismatch(f"{x.rank} dims", f"{self.unbatched} (unbatched) or {self.unbatched + 1} "
                                                            f"(batched)"))
        last = x.size(-1)
        if _different(last, self.input_size):
            return Applied(None, Mismatch(f"{last} features (last dim)", str(self.input_size)))
        return self.step(x, inputs[1] if len(inputs) > 1 else None)

    def step(self, x: Shape, hx: Value | None) -> Applied:
        raise NotImplementedError


@record(unsafe_hash=True)
class Recurrent(_Recurrent):
    """`RNN`, `LSTM`, `GRU`: output (L, N, D * H_out) (batch first: (N, L, ...)), h_n (D * num_layers, N, H_out),
    and for an LSTM c_n (D * num_layers, N, hidden_size), with H_out = proj_size or hidden_size. The initial
    state (`hx`, a pair `(h_0, c_0)` for an LSTM) must have h_n's and c_n's shapes: batch first or not, the batch is
    its dim 1."""

    lstm: bool
    input_size: Dim | None
    hidden_size: Dim | None
    num_layers: Dim | None
    batch_first: bool | None
    bidirectional: bool | None
    proj_size: Dim | None
    spelled: str | Spelled = ""
    unbatched = 2

    def step(self, x, hx):
        last = x.size(-1)
        mismatch = self._initial_state(x, hx)
        if mismatch is not None:
            return Applied(None, mismatch)
        if self.bidirectional is None or self.hidden_size is None or self.proj_size is None or last is None:
            return UNKNOWN
        directions = 2 if self.bidirectional else 1
        out = self._out()
        # time-major, the output is the fresh (L, N, D * H_out) tensor the kernel writes; batch first, a transposed
        # view of it
        layout = tuple(range(len(x.dims))) if self.batch_first is False else None
        output = Shape(x.dims[:-1] + (directions * out,), x.variadic, x.variadic_name, layout, "float")
        state = self._state(x, directions, out)
        if not self.lstm:
            return Applied(Items((output, state)))
        cell = self._state(x, directions, self.hidden_size)
        return Applied(Items((output, Items((state, cell)))))

    def _out(self) -> Dim | None:
        if self.proj_size is None or self.hidden_size is None:
            return None
        return self.proj_size if self.proj_size.literal != 0 else self.hidden_size

    def _state(self, x: Shape, directions: int, size: Dim) -> Shape | None:
        if self.num_layers is None or x.rank is None:
            return None
        stacked = directions * self.num_layers
        if x.rank == 2:
            return Shape.of(stacked, size)
        if self.batch_first is None:
            return None
        return Shape.of(stacked, x.dims[0] if self.batch_first else x.dims[1], size)

    def _initial_state(self, x: Shape, hx: Value | None) -> Mismatch | None:
        """How the initial state given differs from the state the layer keeps, where the code states both."""
        if x.rank is None or hx is None:
            return None
        if self.lstm:
            pair = hx.items if isinstance(hx, Items) else None
            if pair is None or len(pair) != 2:
                return None
            states = (("h_0", pair[0], self._out()), ("c_0", pair[1], self.hidden_size))
        else:
            states = (("h_0", hx, self._out()),)
        directions = None if self.bidirectional is None else 2 if self.bidirectional else 1
        stacked = directions * self.num_layers if directions is not None and self.num_layers is not None else None
        batch = None if x.rank == 2 or self.batch_first is None else x.dims[0] if self.batch_first else x.dims[1]
        for name, given, size in states:
            if not isinstance(given, Shape) or given.rank is None:
                continue
            expected = (stacked, size) if x.rank == 2 else (stacked, batch, size)
            if given.rank == len(expected) and not any(_different(a, b) for a, b in zip(given.dims, expected)):
                continue
            spelled = ", ".join("?" if d is None else str(d) for d in expected)
            what = "(num_layers * directions, hidden)" if x.rank == 2 else "(num_layers * directions, batch, hidden)"
            return Mismatch(f"the initial state {name} is {given.render()}", f"{name} of ({spelled}): {what}")
        return None


@record(unsafe_hash=True)
class RecurrentCell(_Recurrent):
    """`RNNCell`, `GRUCell`, `LSTMCell`: one step. The input is (N, input_size) or unbatched (input_size,); the state
    (`hx`, a pair `(h_0, c_0)` for an LSTM cell) and the result (a pair for an LSTM cell) are the input's shape with
    hidden_size features."""

    lstm: bool
    input_size: Dim | None
    hidden_size: Dim | None
    spelled: str | Spelled = ""
    unbatched = 1

    def step(self, x, hx):
        if x.rank is None or self.hidden_size is None:
            return UNKNOWN
        state = Shape(x.dims[:-1] + (self.hidden_size,), None, None, None, "float")
        mismatch = self._initial_state(state, hx)
        if mismatch is not None:
            return Applied(None, mismatch)
        return Applied(Items((state, state)) if self.lstm else state)

    def _initial_state(self, state: Shape, hx: Value | None) -> Mismatch | None:
        """How the state given differs from the one the cell keeps, where the code states both."""
        if self.lstm:
            pair = hx.items if isinstance(hx, Items) else None
            given = tuple(zip(("h_0", "c_0"), pair)) if pair is not None and len(pair) == 2 else ()
        else:
            given = (("h_0", hx),)
        for name, shape in given:
            if not isinstance(shape, Shape) or shape.rank is None:
                continue
            if shape.rank == state.rank and not any(_different(a, b) for a, b in zip(shape.dims, state.dims)):
                continue
            what = "(batch, hidden)" if state.rank == 2 else "(hidden,)"
            return Mismatch(f"the initial state {name} is {shape.render()}", f"{name} of {state.render()}: {what}")
        return None


@record(unsafe_hash=True)
class Attention(Layer):
    """`MultiheadAttention`: query (L, N, E) (batch first: (N, L, E)) with E = embed_dim; key and value of kdim
    and vdim features, and masks of the shapes `attention` says. The output has the query's shape; the weights
    are (N, L, S) averaged over the heads, (N, num_heads, L, S) with `average_attn_weights=False` (no N unbatched),
    and None with `need_weights=False`."""

    embed_dim: Dim | None
    kdim: Dim | None
    vdim: Dim | None
    num_heads: Dim | None
    batch_first: bool | None
    spelled: str | Spelled = ""
    parameters = ("key", "value", "key_padding_mask", "need_weights", "attn_mask", "average_attn_weights")
    flags = (("need_weights", True), ("average_attn_weights", True))
    input_name = "query"

    def apply(self, inputs):
        query = inputs[0] if inputs else None
        for position, (x, want) in enumerate(zip(inputs, (self.embed_dim, self.kdim, self.vdim))):
            if not isinstance(x, Shape):
                continue
            last = x.size(-1)
            if _different(last, want):
                which = ("query", "key", "value")[position]
                return Applied(None, Mismatch(f"{last} features (last dim of the {which})", str(want)))
        if query is None:
            return UNKNOWN
        key = inputs[1] if len(inputs) > 1 and isinstance(inputs[1], Shape) else None
        target, source = attention.sequence(query, self.batch_first), attention.sequence(key, self.batch_first)
        found = attention.batch_mismatch(target, source) or \
            attention.padding_mismatch("key_padding_mask", _input(inputs, 3), source) or \
            attention.attention_mismatch("attn_mask", _input(inputs, 5), target, source, self.num_heads)
        if found is not None:
            return Applied(None, Mismatch(*found))
        weights = attention.weights(target, source, self.num_heads, _input(inputs, 6)) if _input(inputs, 4) else None
        return Applied(Items((query.without_layout(), weights)))


def _input(inputs: tuple, index: int) -> Value | None:
    return inputs[index] if len(inputs) > index else None


# the inputs each kind of transformer takes, in order, and what each mask masks: ("pad", sequence) or
# ("attn", target sequence, source sequence)
_TRANSFORMER_INPUTS = {
    "encoder layer": ("src", "src_mask", "src_key_padding_mask"),
    "encoder": ("src", "mask", "src_key_padding_mask"),
    "decoder": ("tgt", "memory", "tgt_mask", "memory_mask", "tgt_key_padding_mask", "memory_key_padding_mask"),
    "transformer": ("src", "tgt", "src_mask", "tgt_mask", "memory_mask", "src_key_padding_mask",
                    "tgt_key_padding_mask", "memory_key_padding_mask"),
}
_MASKS = {
    "src_mask": ("attn", "src", "src"), "mask": ("attn", "src", "src"), "tgt_mask": ("attn", "tgt", "tgt"),
    "memory_mask": ("attn", "tgt", "memory"), "src_key_padding_mask": ("pad", "src"),
    "tgt_key_padding_mask": ("pad", "tgt"), "memory_key_padding_mask": ("pad", "memory"),
}


@record(unsafe_hash=True)
class Transformer(Layer):
    """`TransformerEncoderLayer`/`TransformerEncoder`, `TransformerDecoderLayer`/`TransformerDecoder` and
    `Transformer`: inputs of d_model features, masks as `attention` says; the output has the shape of the
    encoder's input (the decoder's, `tgt`). A stacked encoder given a padding mask may hand back a shorter sequence
    (its nested-tensor fast path), so its output is then unknown."""

    kind: str
    d_model: Dim | None
    nhead: Dim | None
    batch_first: bool | None
    stacked: bool = False
    spelled: str | Spelled = ""

    @property
    def parameters(self) -> tuple[str, ...]:  # type: ignore[override]
        return _TRANSFORMER_INPUTS[self.kind][1:]

    def apply(self, inputs):
        named = dict(zip(_TRANSFORMER_INPUTS[self.kind], inputs))
        for which in ("src", "tgt", "memory"):
            x = named.get(which)
            if isinstance(x, Shape) and _different(x.size(-1), self.d_model):
                return Applied(None, Mismatch(f"{x.size(-1)} features (last dim of {which})", str(self.d_model)))
        if self.kind == "transformer":
            named["memory"] = named.get("src")
        sequences = {which: attention.sequence(named.get(which) if isinstance(named.get(which), Shape) else None,
                                               self.batch_first) for which in ("src", "tgt", "memory")}
        src, tgt, memory = sequences["src"], sequences["tgt"], sequences["memory"]
        if self.kind == "transformer" and src is not None and tgt is not None and _different(src.batch, tgt.batch):
            return Applied(None, Mismatch(f"a batch of {tgt.batch} in tgt", f"src's batch, {src.batch}"))
        if self.kind == "decoder" and tgt is not None and memory is not None and _different(memory.batch, tgt.batch):
            return Applied(None, Mismatch(f"a batch of {memory.batch} in memory", f"tgt's batch, {tgt.batch}"))
        for name, role in _MASKS.items():
            mask = named.get(name)
            if mask is None:
                continue
            found = attention.padding_mismatch(name, mask, sequences[role[1]]) if role[0] == "pad" else \
                attention.attention_mismatch(name, mask, sequences[role[1]], sequences[role[2]], self.nhead)
            if found is not None:
                return Applied(None, Mismatch(*found))
        out = named.get("src" if self.kind.startswith("encoder") else "tgt")
        if not isinstance(out, Shape) or self.stacked and named.get("src_key_padding_mask") is not None:
            return UNKNOWN
        return Applied(out.without_layout())


# ---------------------------------------------------------------------------------------------- constructors


def _at(values: tuple[Dim | None, ...] | str | None, i: int, spatial: int) -> Dim | None:
    """Entry `i` of an `int or tuple` argument of a layer over `spatial` dims; None for a tuple of another length
    (which torch rejects)."""
    if values is None or isinstance(values, str):
        return None
    return values[0] if len(values) == 1 else values[i] if len(values) == spatial else None


def _tuple(expr: cst.BaseExpression | None, size: SizeReader, default: int | None) -> tuple[Dim | None, ...] | None:
    """An `int or tuple` argument (`kernel_size=3`, `stride=(2, 1)`)."""
    if expr is None:
        return None if default is None else (Dim.of(default),)
    if type(expr) in (cst.Tuple, cst.List):
        if any(type(element) is cst.StarredElement for element in expr.elements):
            return None
        return tuple(size(element.value) for element in expr.elements)
    found = size(expr)
    return (found,) if found is not None else None


def flag(expr: cst.BaseExpression | None, default: bool, value: ValueReader) -> bool | None:
    """A True/False argument, written out or held by a name the code binds to one (`bidirectional=bidirectional`
    with the constructor's default True); its default when absent; None when the code does not state it."""
    if expr is None:
        return default
    if type(expr) is cst.Name and expr.value in ("True", "False"):
        return expr.value == "True"
    if type(expr) is cst.Integer:
        return expr.value != "0"
    found = value(expr)
    return truth(found) if isinstance(found, Const | Dim) else None


def _int(expr: cst.BaseExpression | None, default: int, size: SizeReader) -> int | None:
    if expr is None:
        return default
    if type(expr) is cst.Integer:
        return expr.evaluated_value
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus and type(expr.expression) is cst.Integer:
        return -expr.expression.evaluated_value
    found = size(expr)
    return found.literal if found is not None else None


class _Reader:
    """Reads a constructor's arguments by name, knowing the positional order. A `**kwargs` may hold any argument
    not written out, so those read as unknown rather than as their default."""

    def __init__(self, call: cst.Call, order: tuple[str, ...], size: SizeReader, inner: LayerReader | None,
                 value: ValueReader) -> None:
        self.kwargs = any(arg.star == "**" for arg in call.args)
        if any(arg.star == "*" for arg in call.args):
            raise Hidden
        self.args = Args(_without_kwargs(call)) if self.kwargs else Args(call)
        self.order = order
        self.size = size
        self.inner = inner
        self.value = value

    def layer(self, name: str) -> Layer | None:
        """The layer a module argument holds (a `TransformerEncoder`'s `encoder_layer`)."""
        expr = self.expr(name)
        return self.inner(expr) if expr is not None and self.inner is not None else None

    def expr(self, name: str) -> cst.BaseExpression | None:
        return self.args.get(self.order.index(name), name)

    def given(self, name: str) -> bool:
        return self.expr(name) is not None

    def known(self, name: str) -> bool:
        """Whether the argument's value is known: written out, or absent with no `**kwargs` to hide it."""
        return self.given(name) or not self.kwargs

    def dim(self, name: str, default: int | None = None) -> Dim | None:
        expr = self.expr(name)
        if expr is None:
            return Dim.of(default) if default is not None and not self.kwargs else None
        return self.size(expr)

    def dims(self, name: str, default: int | None = None) -> tuple[Dim | None, ...] | None:
        if not self.known(name):
            return None
        return _tuple(self.expr(name), self.size, default)

    def flag(self, name: str, default: bool) -> bool | None:
        return flag(self.expr(name), default, self.value) if self.known(name) else None

    def integer(self, name: str, default: int) -> int | None:
        return _int(self.expr(name), default, self.size) if self.known(name) else None


def _without_kwargs(call: cst.Call) -> cst.Call:
    return call.with_changes(args=[arg for arg in call.args if arg.star != "**"])


_CONV = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias",
         "padding_mode")
_CONV_T = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups", "bias",
           "dilation", "padding_mode")
_MAX_POOL = ("kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode")
_AVG_POOL = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")
_LSTM = ("input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout", "bidirectional", "proj_size")
_GRU = ("input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout", "bidirectional")
_RNN = ("input_size", "hidden_size", "num_layers", "nonlinearity", "bias", "batch_first", "dropout", "bidirectional")
_MHA = ("embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn", "kdim", "vdim", "batch_first")
_TRANSFORMER_LAYER = ("d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps", "batch_first",
                      "norm_first", "bias")
_TRANSFORMER = ("d_model", "nhead", "num_encoder_layers", "num_decoder_layers", "dim_feedforward", "dropout",
                "activation", "custom_encoder", "custom_decoder", "layer_norm_eps", "batch_first", "norm_first", "bias")

SAME_SHAPE = frozenset({
    "Identity", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
    "ReLU", "ReLU6", "GELU", "SiLU", "Mish", "Tanh", "Sigmoid", "Hardswish", "Hardsigmoid", "Hardtanh", "LeakyReLU",
    "ELU", "SELU", "CELU", "PReLU", "RReLU", "Softplus", "Softsign", "Softshrink", "Hardshrink", "Tanhshrink",
    "Threshold", "LogSigmoid", "Softmax", "LogSoftmax", "Softmin", "Softmax2d", "LocalResponseNorm",
})


def _linear(r: _Reader) -> Layer:
    return Linear(r.dim("in_features"), r.dim("out_features"))


def _embedding(r: _Reader) -> Layer:
    return Embedding(r.dim("embedding_dim"), r.dim("num_embeddings"))


def _embedding_bag(r: _Reader) -> Layer:
    return EmbeddingBag(r.dim("embedding_dim"), r.dim("num_embeddings"))


def _conv(spatial: int, transposed: bool) -> Callable[[_Reader], Layer]:
    def read(r: _Reader) -> Layer:
        padding: tuple[Dim | None, ...] | str | None
        expr = r.expr("padding")
        if type(expr) is cst.SimpleString and expr.evaluated_value in ("same", "valid"):
            padding = str(expr.evaluated_value)
        else:
            padding = r.dims("padding", 0)
        return Conv(spatial, r.dim("in_channels"), r.dim("out_channels"), r.dims("kernel_size"),
                    r.dims("stride", 1), padding, r.dims("dilation", 1),
                    r.dims("output_padding", 0) if transposed else None, transposed)
    return read


def _pool(spatial: int, dilated: bool) -> Callable[[_Reader], Layer]:
    def read(r: _Reader) -> Layer:
        kernel = r.dims("kernel_size")
        stride_expr = r.expr("stride")
        none = type(stride_expr) is cst.Name and stride_expr.value == "None"
        stride = kernel if (stride_expr is None and r.known("stride")) or none else r.dims("stride")
        dilation = r.dims("dilation", 1) if dilated else (Dim.of(1),)
        return Pool(spatial, kernel, stride, r.dims("padding", 0), dilation, r.flag("ceil_mode", False))
    return read


def _adaptive(spatial: int) -> Callable[[_Reader], Layer | None]:
    def read(r: _Reader) -> Layer:
        expr = r.expr("output_size")
        sizes: tuple[Dim | None, ...] | None = None
        if type(expr) in (cst.Tuple, cst.List):
            elements = [e.value for e in expr.elements]  # type: ignore[union-attr]
            if len(elements) == spatial:
                sizes = tuple(None if type(e) is cst.Name and e.value == "None" else r.size(e) for e in elements)
                if any(s is None and not (type(e) is cst.Name and e.value == "None")
                       for s, e in zip(sizes, elements)):
                    sizes = None
        elif expr is not None:
            one = r.size(expr)
            sizes = (one,) * spatial if one is not None else None
        return AdaptivePool(spatial, sizes) if sizes is not None else None
    return read


def _batch_norm(spatial: int) -> Callable[[_Reader], Layer]:
    ranks = {1: ((2, 1), (3, 1)), 2: ((4, 1),), 3: ((5, 1),)}[spatial]
    return lambda r: ChannelNorm(r.dim("num_features"), ranks)


def _instance_norm(spatial: int) -> Callable[[_Reader], Layer]:
    ranks = ((spatial + 1, 0), (spatial + 2, 1))
    return lambda r: ChannelNorm(r.dim("num_features"), ranks)


def _group_norm(r: _Reader) -> Layer:
    return ChannelNorm(r.dim("num_channels"), tuple((rank, 1) for rank in range(2, 6)))


def _layer_norm(r: _Reader) -> Layer:
    expr = r.expr("normalized_shape")
    if expr is None:
        return LayerNorm(None)
    return LayerNorm(_tuple(expr, r.size, None))


def _glu(r: _Reader) -> Layer | None:
    dim = r.integer("dim", -1)
    return Glu(dim) if dim is not None else None


def _flatten(r: _Reader) -> Layer | None:
    start, end = r.integer("start_dim", 1), r.integer("end_dim", -1)
    return Flatten(start, end) if start is not None and end is not None else None


def _unflatten(r: _Reader) -> Layer | None:
    dim = r.integer("dim", 0) if r.given("dim") else None
    sizes = _tuple(r.expr("unflattened_size"), r.size, None)
    if dim is None or sizes is None or any(size is None or size.literal == -1 for size in sizes):
        return None
    return Unflatten(dim, sizes)  # type: ignore[arg-type]


def _recurrent(lstm: bool) -> Callable[[_Reader], Layer]:
    def read(r: _Reader) -> Layer:
        proj = r.dim("proj_size", 0) if lstm else Dim.of(0)
        return Recurrent(lstm, r.dim("input_size"), r.dim("hidden_size"), r.dim("num_layers", 1),
                         r.flag("batch_first", False), r.flag("bidirectional", False), proj)
    return read


def _cell(lstm: bool) -> Callable[[_Reader], Layer]:
    return lambda r: RecurrentCell(lstm, r.dim("input_size"), r.dim("hidden_size"))


def _attention(r: _Reader) -> Layer:
    embed = r.dim("embed_dim")
    kdim = r.dim("kdim") if r.given("kdim") else embed if r.known("kdim") else None
    vdim = r.dim("vdim") if r.given("vdim") else embed if r.known("vdim") else None
    return Attention(embed, kdim, vdim, r.dim("num_heads"), r.flag("batch_first", False))


def _upsample(r: _Reader) -> Layer | None:
    """A size the constructor states, or a scale factor that is an int (a float one is left unread: the sizes it
    gives are rounded down)."""
    expr = r.expr("size")
    if expr is None or type(expr) is cst.Name and expr.value == "None":
        return _upscale(r)
    if type(expr) in (cst.Tuple, cst.List):
        if any(type(element) is cst.StarredElement for element in expr.elements):  # type: ignore[union-attr]
            return None
        return Upsample(tuple(r.size(element.value) for element in expr.elements), True)  # type: ignore
    held = r.value(expr)
    if isinstance(held, Seq):  # `size=self.image_size`, a tuple the code states elsewhere
        return Upsample(tuple(item if isinstance(item, Dim) else None for item in held.items), True) \
            if held.complete else None
    # a name the code doesn't bind to a tuple may still hold one: only an int written out serves every dim
    return Upsample((r.size(expr),), False) if type(expr) is cst.Integer else None


def _upscale(r: _Reader) -> Layer | None:
    """`nn.Upsample(scale_factor=2)`: every spatial dim times the whole factor (`2`, `2.0`, a name holding an int;
    or one factor per dim, a tuple of them); another factor (`1.5`: the sizes round down, or a parameter the code
    may not know to be whole) is left unread."""
    expr = r.expr("scale_factor")
    if expr is None or r.kwargs:
        return None
    if type(expr) in (cst.Tuple, cst.List):
        if any(type(element) is cst.StarredElement for element in expr.elements):  # type: ignore[union-attr]
            return None
        factors = tuple(_int_factor(r, element.value) for element in expr.elements)  # type: ignore[union-attr]
        return Upsample(factors, True, scaled=True)
    factor = _int_factor(r, expr)
    return Upsample((factor,), False, scaled=True) if factor is not None else None


def _int_factor(r: _Reader, expr: cst.BaseExpression) -> Dim | None:
    if type(expr) is cst.Float:
        return whole_factor(expr)
    found = r.size(expr)
    return found if found is not None and found.literal is not None and found.literal > 0 else None


def _transformer_layer(kind: str) -> Callable[[_Reader], Layer]:
    return lambda r: Transformer(kind, r.dim("d_model"), r.dim("nhead"), r.flag("batch_first", False))


def _transformer_stack(kind: str, inner: str) -> Callable[[_Reader], Layer | None]:
    """An encoder or decoder of copies of the layer it is given: that layer's sizes."""
    def read(r: _Reader) -> Layer | None:
        layer = r.layer(inner)
        if not isinstance(layer, Transformer):
            return None
        return Transformer(kind, layer.d_model, layer.nhead, layer.batch_first, stacked=True)
    return read


def _transformer(r: _Reader) -> Layer | None:
    if r.given("custom_encoder") or r.given("custom_decoder"):
        return None
    return Transformer("transformer", r.dim("d_model", 512), r.dim("nhead", 8), r.flag("batch_first", False))


_READERS: dict[str, tuple[tuple[str, ...], Callable[[_Reader], Layer | None]]] = {
    "Linear": (("in_features", "out_features", "bias"), _linear),
    "Embedding": (("num_embeddings", "embedding_dim", "padding_idx"), _embedding),
    "EmbeddingBag": (("num_embeddings", "embedding_dim", "max_norm", "norm_type", "scale_grad_by_freq", "mode"),
                     _embedding_bag),
    **{f"Conv{n}d": (_CONV, _conv(n, False)) for n in (1, 2, 3)},
    **{f"ConvTranspose{n}d": (_CONV_T, _conv(n, True)) for n in (1, 2, 3)},
    **{f"MaxPool{n}d": (_MAX_POOL, _pool(n, True)) for n in (1, 2, 3)},
    **{f"AvgPool{n}d": (_AVG_POOL, _pool(n, False)) for n in (1, 2, 3)},
    **{f"Adaptive{kind}Pool{n}d": (("output_size",), _adaptive(n)) for kind in ("Avg", "Max") for n in (1, 2, 3)},
    **{f"BatchNorm{n}d": (("num_features",), _batch_norm(n)) for n in (1, 2, 3)},
    **{f"InstanceNorm{n}d": (("num_features",), _instance_norm(n)) for n in (1, 2, 3)},
    "GroupNorm": (("num_groups", "num_channels"), _group_norm),
    "LayerNorm": (("normalized_shape",), _layer_norm),
    "RMSNorm": (("normalized_shape",), _layer_norm),
    "GLU": (("dim",), _glu),
    "Flatten": (("start_dim", "end_dim"), _flatten),
    "Unflatten": (("dim", "unflattened_size"), _unflatten),
    "Upsample": (("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"), _upsample),
    "LSTM": (_LSTM, _recurrent(True)),
    "GRU": (_GRU, _recurrent(False)),
    "RNN": (_RNN, _recurrent(False)),
    "LSTMCell": (("input_size", "hidden_size", "bias"), _cell(True)),
    "GRUCell": (("input_size", "hidden_size", "bias"), _cell(False)),
    "RNNCell": (("input_size", "hidden_size", "bias", "nonlinearity"), _cell(False)),
    "MultiheadAttention": (_MHA, _attention),
    "TransformerEncoderLayer": (_TRANSFORMER_LAYER, _transformer_layer("encoder layer")),
    "TransformerDecoderLayer": (_TRANSFORMER_LAYER, _transformer_layer("decoder")),
    "TransformerEncoder": (("encoder_layer", "num_layers", "norm"), _transformer_stack("encoder", "encoder_layer")),
    "TransformerDecoder": (("decoder_layer", "num_layers", "norm"), _transformer_stack("decoder", "decoder_layer")),
    "Transformer": (_TRANSFORMER, _transformer),
}

KNOWN = frozenset(_READERS) | SAME_SHAPE


def layer_name(qualname: str | None) -> str | None:
    """"Conv2d" for `torch.nn.Conv2d` and `torch.nn.modules.conv.Conv2d`; None for anything not in torch.nn."""
    if qualname is None or not qualname.startswith("torch.nn."):
        return None
    parts = qualname.split(".")
    if len(parts) == 3 or len(parts) == 5 and parts[2] == "modules":
        name = parts[-1]
        return name if name in KNOWN else None
    return None


def read(name: str, call: cst.Call, size: SizeReader, spelled: str | Spelled, inner: LayerReader, value: ValueReader
         ) -> Layer | None:
    """The layer `call` (a constructor of torch.nn's `name`) builds, reading sizes with `size`, module arguments
    with `inner` and flags with `value`; None when its arguments can't be read."""
    if name in SAME_SHAPE:
        return SameShape(spelled)
    order, reader = _READERS[name]
    try:
        layer = reader(_Reader(call, order, size, inner, value))
    except Hidden:
        return None
    if layer is None:
        return None
    return replace(layer, spelled=spelled)


# The parameters whose sizes a layer's constructor states, each as the arguments its dims are (`fc.weight` of an
# `nn.Linear(in_features, out_features)` is (out_features, in_features)).
_PARAMETERS: dict[str, dict[str, tuple[str, ...]]] = {
    "Linear": {"weight": ("out_features", "in_features"), "bias": ("out_features",)},
    "Embedding": {"weight": ("num_embeddings", "embedding_dim")},
}


# Constructor arguments a layer keeps as the attribute of the same name, as given (not `kernel_size`, `stride` or
# `padding`, which a conv keeps as tuples).
_KEPT_AS_GIVEN = frozenset({"in_channels", "out_channels", "in_features", "out_features", "num_embeddings",
                            "embedding_dim", "num_features", "input_size", "hidden_size", "num_layers", "embed_dim",
                            "num_heads", "groups"})


def kept_argument(name: str, call: cst.Call, attribute: str) -> cst.BaseExpression | None:
    """The argument the layer `call` (a constructor of torch.nn's `name`) keeps as `attribute` (`conv.out_channels`
    is its `out_channels`), where the call writes it out; None otherwise."""
    if attribute not in _KEPT_AS_GIVEN or name not in _READERS or attribute not in _READERS[name][0] \
            or any(arg.star for arg in call.args):
        return None
    return Args(call).get(_READERS[name][0].index(attribute), attribute)


def parameter(name: str, call: cst.Call, size: SizeReader, value: ValueReader, attribute: str
              ) -> tuple[Dim, ...] | None:
    """The sizes of the parameter `attribute` of the layer `call` (a constructor of torch.nn's `name`) builds;
    None when the constructor doesn't state them all (or builds no bias)."""
    wanted = _PARAMETERS.get(name, {}).get(attribute)
    if wanted is None:
        return None
    try:
        reader = _Reader(call, _READERS[name][0], size, None, value)
    except Hidden:
        return None
    if attribute == "bias" and reader.flag("bias", True) is not True:
        return None
    dims = tuple(reader.dim(argument) for argument in wanted)
    return dims if all(dim is not None for dim in dims) else None  # type: ignore[return-value]

