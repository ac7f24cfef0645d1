"""numpy arrays, a value of their own beside tensors: the shapes and dtypes of the arrays a data pipeline makes and
hands to torch (`torch.from_numpy(np.stack(windows))`).

numpy's methods differ from torch's under the same names (`a.sum(axis=1)`, `a.repeat(3)`, `a.view(np.float32)`), so
an array is never read as a tensor: only what is read here is known, and an array becomes a tensor only at a
conversion (`torch.from_numpy`, `torch.tensor`, `torch.as_tensor`). Read here: numpy's constructors (`zeros`, `ones`,
`empty`, `full`, `arange`, `linspace`, `eye`, the `*_like`, `random.rand`/`randn`/`random`/`uniform`/`normal`/
`randint`/`gamma`/`choice`/`permutation`/..., and the same draws from a generator, `rng = np.random.default_rng(0)`),
`np.array` of a list of numbers or of equal arrays, `stack`/`concatenate`/`vstack`/`hstack` of arrays of known shapes,
`expand_dims`, `pad`, `reshape`, `transpose`/`.T`, `.astype`, `.copy`, `.flatten`, reductions over an axis
(`X.sum(axis=1)`, `.mean`, `.std`, `.argmax`, ...), basic indexing (`x[s:s + w]`, `x[:, None]`, `x[..., 0]`) and the
rows one 1-d int array picks (`np.eye(k)[labels]`), ufuncs of one array (`np.sin(t)`), `np.diag` on the main diagonal
(a degree matrix), arithmetic and comparisons between arrays and numbers (broadcast as numpy states it), `@`,
`np.maximum`/`np.where`; through names, containers, attributes and the project's functions, as values (`Array`). A
transposed array's memory order is left unknown. Anything else is unknown."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.objects.builtins import drawn_count, grown_count, number, numpy_scalar_draw
from shapecheck.objects.command_line import one_assignment
from shapecheck.objects.dims import Dim, same
from shapecheck.objects.values import Const, Seq, TorchObject
from shapecheck.shapes.args import TORCH_DTYPES, Args, Hidden, counted, shape_arguments, unexplained
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.elementwise import is_number
from shapecheck.shapes.indexing import indexed
from shapecheck.shapes.literals import nested_shape, range_length, uncounted_numbers
from shapecheck.shapes.matmul import diagonal, matmul
from shapecheck.shapes.positions import insert_position, inserted, int_list, opaque, permuted, replaced
from shapecheck.shapes.reductions import reduction
from shapecheck.shapes.shape import DtypeFamily, Shape
from shapecheck.shapes.values import Array
from shapecheck.shapes.views import product, reshaped

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

MAX_DEPTH = 8  # names, conversions and operations followed back to an array's construction
# the shapes of the arrays a list holds (one for a list of unknown length, all of one shape) and how many there are
Arrays = tuple[list[Shape], Dim]

# constructor -> (how its sizes are passed: "shape" a tuple or an int first, "varargs" each size an argument,
# "size" a `size=` argument after the distribution's own), its dtype family (None: the values' own, `choice`)
_CONSTRUCTORS: dict[str, tuple[str, DtypeFamily | None]] = {
    "numpy.zeros": ("shape", "float"), "numpy.ones": ("shape", "float"), "numpy.empty": ("shape", "float"),
    "numpy.full": ("shape", "float"), "numpy.random.rand": ("varargs", "float"),
    "numpy.random.randn": ("varargs", "float"), "numpy.random.random": ("shape", "float"),
    "numpy.random.random_sample": ("shape", "float"), "numpy.random.uniform": ("size", "float"),
    "numpy.random.normal": ("size", "float"), "numpy.random.randint": ("size", "int"),
    "numpy.random.standard_normal": ("shape", "float"), "numpy.random.gamma": ("size", "float"),
    "numpy.random.beta": ("size", "float"), "numpy.random.exponential": ("size", "float"),
    "numpy.random.poisson": ("size", "int"), "numpy.random.binomial": ("size", "int"),
    "numpy.random.choice": ("size", None),
}
# where `size` sits among the positional arguments of the "size" constructors
_SIZE_POSITION = {"numpy.random.uniform": 2, "numpy.random.normal": 2, "numpy.random.randint": 2,
                  "numpy.random.gamma": 2, "numpy.random.beta": 2, "numpy.random.binomial": 2,
                  "numpy.random.exponential": 1, "numpy.random.poisson": 1, "numpy.random.choice": 1}
# a `numpy.random.Generator`'s draws, as the module functions of the same sizes and dtypes
_GENERATOR_METHODS = {"normal": "numpy.random.normal", "uniform": "numpy.random.uniform",
                      "integers": "numpy.random.randint", "random": "numpy.random.random",
                      "standard_normal": "numpy.random.standard_normal",
                      **{name: "numpy.random." + name for name in (
                          "gamma", "beta", "exponential", "poisson", "binomial", "choice", "permutation")}}
_GENERATORS = {"numpy.random.default_rng": _GENERATOR_METHODS,
               "numpy.random.RandomState": {name: "numpy.random." + name for name in (
                   "rand", "randn", "random", "random_sample", "uniform", "normal", "randint", "standard_normal",
                   "gamma", "beta", "exponential", "poisson", "binomial", "choice", "permutation")}}
# reductions over axes, as torch's over dims (`y = X.sum(axis=1)`, `a.mean(0, keepdims=True)`); a mean is a float
_REDUCTIONS = {**dict.fromkeys(("sum", "prod", "max", "min"), reduction()),
               **dict.fromkeys(("mean", "std", "var"), reduction("float")),
               **dict.fromkeys(("argmax", "argmin"), reduction("int"))}
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power, cst.Modulo, cst.FloorDivide)
_COMPARISONS = (cst.GreaterThan, cst.GreaterThanEqual, cst.LessThan, cst.LessThanEqual, cst.Equal, cst.NotEqual)


def array_shape(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int, depth: int = 0) -> Shape | None:
    """The shape of the numpy array `expr` holds, when the code makes it with sizes it states."""
    if expr is None or depth > MAX_DEPTH:
        return None
    kind = type(expr)
    if kind is cst.Name:
        bindings = ev.candidates(expr, before) if before >= 0 else None
        if bindings and len(bindings) == 1 and bindings[0].kind == "assign" and bindings[0].value is not None \
                and bindings[0].index is None:
            return array_shape(ev, bindings[0].value, bindings[0].seq, depth + 1)
    if kind is cst.Attribute and expr.attr.value == "T" and ev.ctx.qualname(expr) is None:
        found = array_shape(ev, expr.value, before, depth + 1)
        if found is not None:
            return _transposed(found, None)
    if kind is cst.BinaryOperation:
        return _arithmetic(ev, expr, before, depth)
    if kind is cst.Comparison:
        return _compared(ev, expr, before, depth)
    if kind is cst.Subscript and ev.ctx.qualname(expr.value) == "numpy.mgrid":
        return _mesh(ev, expr, before)
    if kind is cst.Subscript:
        found = array_shape(ev, expr.value, before, depth + 1)
        if found is not None:
            # an array's rows picked by an int array (`np.eye(k)[labels]`, one-hot rows) or by a tensor of ints
            return indexed(ev, found, expr, before,
                           lambda index, at: array_shape(ev, index, at, depth + 1) or ev.tensor(index, at)) \
                if found.variadic is None else None
    if kind is cst.Call:
        found = _called(ev, expr, before, depth)
        if found is not None:
            return found
    if kind in (cst.Name, cst.Attribute, cst.Subscript, cst.Call):
        # an array a call passed, an instance holds (`self.masks`), a dict or a list holds (`table["price"]`), or
        # a function of the project returns (`encode(table)`)
        held = ev.object(expr, before)
        return held.shape if isinstance(held, Array) else None
    return None


def _called(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    func = call.func
    qualname = ev.ctx.qualname(func)
    try:
        if qualname is None and type(func) is cst.Attribute:
            drawn = _generator_draw(ev, func, before)
            if drawn is not None:
                shuffled = _FUNCTIONS.get(drawn)
                return shuffled(ev, call, before, depth) if shuffled is not None else \
                    _constructed(ev, call, drawn, before)
            method = _METHODS.get(func.attr.value)
            if method is None:
                return None
            found = array_shape(ev, func.value, before, depth + 1)
            if found is None and method is _reshape and (_makes_array(ev, func.value)
                                                          or _read_from_file(ev, func.value, before, depth)):
                # `np.asarray(ann["keypoints"]).reshape(n, 3)`, `np.load(path)["signals"].reshape(-1, 9)`: whatever
                # the data, the sizes stated are the shape
                found = Shape.unknown_rank()
            return method(ev, found, Args(call, 0), before) if found is not None else None
        if qualname in _CONSTRUCTORS:
            return _constructed(ev, call, qualname, before)
        function = _FUNCTIONS.get(qualname) if qualname is not None else None
        return function(ev, call, before, depth) if function is not None else None
    except Hidden:  # `np.zeros(*dims)`, `np.stack(**spec)`: which argument is which can't be told
        return None


def _mesh(ev: ShapeEvaluator, expr: cst.Subscript, before: int) -> Shape | None:
    """`np.mgrid[0:h, 0:w]`: one grid of (h, w) per slice, stacked (a depth map's `ys, xs`); a single slice is its
    range. Slices of ints the code states only: a complex step (`0:1:10j`, a count of points) is not read."""
    lengths = []
    for element in expr.slice:
        part = element.slice
        if type(part) is not cst.Slice or part.upper is None:
            return None
        bounds = [part.lower or cst.Integer("0"), part.upper] + ([part.step] if part.step is not None else [])
        if any(type(bound) is cst.Imaginary for bound in bounds):
            return None
        length = range_length(ev, expr, bounds, before)
        if length is None:
            return None
        lengths.append(length)
    dims = tuple(lengths) if len(lengths) == 1 else (Dim.of(len(lengths)), *lengths)
    return Shape(dims, layout=tuple(range(len(dims))), dtype="int")


def _makes_array(ev: ShapeEvaluator, expr: cst.BaseExpression) -> bool:
    """`expr` is a call of a numpy function that always returns an array (`np.asarray(rows)`)."""
    if type(expr) is not cst.Call:
        return False
    qualname = ev.ctx.qualname(expr.func)
    return qualname in _CONSTRUCTORS or qualname in _FUNCTIONS


def _read_from_file(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int, depth: int) -> bool:
    """`expr` holds an array numpy or pandas reads from a file (`np.load(path)`, an `.npz` archive's entry
    `np.load(path)["x"]`, `np.loadtxt(...)`, `pd.read_csv(path).values`, `df.to_numpy()`) or a part of one
    (`X[:, :-1]`), of a shape no code states; through a name assigned once."""
    if depth > MAX_DEPTH:
        return False
    kind = type(expr)
    if kind is cst.Name:
        assigned = _assigned(ev, expr, before)
        return assigned is not None and _read_from_file(ev, *assigned, depth + 1)
    if kind is cst.Subscript:  # an archive's entry, a slice of the columns
        return ev.ctx.qualname(expr.value) is None and _read_from_file(ev, expr.value, before, depth + 1)
    if kind is cst.Attribute and expr.attr.value == "values":
        return _loaded(ev, expr.value, before, depth, _PANDAS_READERS)
    if kind is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "to_numpy" \
            and not expr.args:
        return _loaded(ev, expr.func.value, before, depth, _PANDAS_READERS)
    return _loaded(ev, expr, before, depth, _FILE_ARRAYS)


def _loaded(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int, depth: int, readers: tuple[str, ...]) -> bool:
    """`expr` is a call of one of `readers`, or a name assigned one once."""
    if type(expr) is cst.Name:
        assigned = _assigned(ev, expr, before)
        return assigned is not None and depth <= MAX_DEPTH and _loaded(ev, *assigned, depth + 1, readers)
    return type(expr) is cst.Call and ev.ctx.qualname(expr.func) in readers


def loaded_audio(ev: ShapeEvaluator, call: cst.Call) -> Seq | None:
    """`librosa.load(path, sr=16000)`: the mono float32 samples, (n,) of a length the file decides, and the
    sampling rate; None for any other call, or one that may keep the file's channels (`mono=False`)."""
    if ev.ctx.qualname(call.func) not in _AUDIO_LOADERS or any(arg.star for arg in call.args):
        return None
    mono = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "mono"), None)
    if mono is not None and not (type(mono) is cst.Name and mono.value == "True"):
        return None
    samples = Dim.symbol(("samples", id(call)), "samples")
    return Seq((Array(Shape.of(samples, dtype="float")), number(call, "sr")), "tuple")


_AUDIO_LOADERS = frozenset({"librosa.load", "librosa.core.load", "librosa.core.audio.load"})


def _assigned(ev: ShapeEvaluator, name: cst.Name, before: int) -> tuple[cst.BaseExpression, int] | None:
    """What the one plain assignment of `name` binds it to, and where."""
    binding = one_assignment(ev, name, before)
    if binding is None or binding.value is None or binding.index is not None:
        return None
    return binding.value, binding.seq


_FILE_ARRAYS = ("numpy.load", "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromfile")
_PANDAS_READERS = ("pandas.read_csv", "pandas.read_table", "pandas.read_parquet", "pandas.read_pickle")


# ----------------------------------------------------------------------------------------------- methods


def _astype(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    return shape.with_dtype(_dtype_family(ev, args.get(0, "dtype")))


def _copy(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    return shape.row_major() if args.keyword("order") is None else shape.without_layout()


def _reshape(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`a.reshape(n, -1)`, `a.reshape((n, -1))`: numpy's sizes are torch's; the result is in C order."""
    if args.keyword("order") is not None:
        return None
    sizes = shape_arguments(ev, args, 0, "shape", before)
    return reshaped(shape, sizes, copies=True, owner=id(args.call)) if sizes is not None else None


def _flattened(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`a.flatten()`, `a.ravel()`: one dim of every element."""
    if shape.rank is None or args.count() or args.keywords:
        return None
    return Shape((product(shape.dims),), layout=(0,), dtype=shape.dtype)


def _transpose(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`a.transpose()` reverses the dims, `a.transpose(1, 0, 2)` or `a.transpose((1, 0, 2))` orders them."""
    if args.count() == 0 and not args.keywords:
        return _transposed(shape, None)
    order = int_list(ev, args.get(0, "axes"), before) if args.count() == 1 else \
        [ev.integer(axis, before) for axis in args.rest(0)]
    return _transposed(shape, order)  # type: ignore[arg-type]


def _same(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`a.clip(0, 1)`, `a.round(2)`: the receiver's shape, where the arguments are numbers."""
    return shape if all(_is_number(ev, value, before) for value in (*args.rest(0), *args.keywords.values())) \
        else None


# ---------------------------------------------------------------------------------------------- functions


def _diag(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`np.diag(v)`, `np.diag(a, k=0)`: as torch's `diag` (its offset named `k`)."""
    return diagonal(ev, shape, args.get(0, "k"), before)


def _cumulative(ev: ShapeEvaluator, shape: Shape, args: Args, before: int) -> Shape | None:
    """`np.cumsum(a)` flattens `a`; along an axis (`a.cumsum(axis=0)`) it keeps its shape."""
    axis = args.get(0, "axis")
    if axis is None:
        return _flattened(ev, shape, args, before)
    return shape if ev.integer(axis, before) is not None else None


def _converted(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.array(x)`, `np.asarray(x)`: an array's shape, a list of equal arrays stacked, or a list of numbers."""
    args = Args(call, 0)
    data = args.get(0, "object", "a")
    if data is None or args.count() > 1:
        return None  # numpy's second positional argument is the dtype
    found = array_shape(ev, data, before, depth + 1)
    if found is None:
        found = nested_shape(ev, data, before) or uncounted_numbers(ev, call, ev.object(data, before),
                                                                  length=comprehension_length(ev, data, before))
    if found is None:
        parts = _arrays(ev, data, before, depth)
        found = _stacked(parts, 0) if parts else _strings(ev.object(data, before))
    if found is None:
        return None
    dtype = args.keyword("dtype")
    found = found.with_dtype(_dtype_family(ev, dtype)) if dtype is not None else found
    return found.row_major() if ev.ctx.qualname(call.func) == "numpy.ascontiguousarray" else found


def _like(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    args = Args(call, 0)
    found = array_shape(ev, args.get(0, "a"), before, depth + 1)
    dtype = args.keyword("dtype")
    return found.row_major().with_dtype(_dtype_family(ev, dtype) if dtype is not None else found.dtype) \
        if found is not None else None


def _arange(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.arange(n)`: ints when its bounds are ints the code states (sizes); of the `dtype` given
    (`np.arange(length, dtype=np.float32)`, a time axis)."""
    args = Args(call, 0)
    length = range_length(ev, call, args.rest(0), before)
    if length is None or set(args.keywords) - {"dtype"}:
        return None
    dtype = _dtype_family(ev, args.keywords["dtype"]) if "dtype" in args.keywords else "int"
    return Shape((length,), layout=(0,), dtype=dtype)


def _permutation(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.random.permutation(n)`: the indices 0..n-1 shuffled (a data set's batch order); of an array, a copy
    with its rows shuffled."""
    args = Args(call, 0)
    target = args.get(0, "x")
    if target is None or args.count() + len(args.keywords) != 1:
        return None
    rows = array_shape(ev, target, before, depth + 1)
    if rows is not None:
        return rows.row_major()
    count = ev.size(target, before)
    return Shape((count,), layout=(0,), dtype="int") if count is not None else None


def _linspace(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    args = Args(call, 0)
    if args.keyword("endpoint") is not None or args.keyword("retstep") is not None:
        return None
    number = args.get(2, "num")
    count = ev.size(number, before) if number is not None else Dim.of(50)
    return Shape((count,), layout=(0,), dtype="float") if count is not None else None


def _window(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.hanning(n_fft)`: a window of M points."""
    args = Args(call, 0)
    points = ev.size(args.get(0, "M"), before)
    return Shape((points,), layout=(0,), dtype="float") if points is not None else None


def _fourier(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.fft.rfft(frames, axis=1)`: along `axis` (the last by default), `n` points or the axis's own size; a real
    transform keeps n // 2 + 1 of them, its inverse gives 2 * (m - 1) unless `n` says. Complex values: no dtype."""
    args = Args(call, 0)
    found = array_shape(ev, args.get(0, "a"), before, depth + 1)
    axis_expr = args.get(2, "axis")
    axis = ev.integer(axis_expr, before) if axis_expr is not None else -1
    if found is None or found.rank is None or axis is None or not -found.rank <= axis < found.rank:
        return None
    position = axis % found.rank
    n_expr = args.get(1, "n")
    points = ev.size(n_expr, before) if n_expr is not None else found.dims[position]
    if points is None:
        return None
    name = ev.ctx.qualname(call.func).rsplit(".", 1)[-1]  # type: ignore[union-attr]
    if name == "rfft":
        points = points // Dim.of(2) + Dim.of(1)
    elif name == "irfft" and n_expr is None:
        points = Dim.of(2) * (points - Dim.of(1))
    return replaced(found, position, points).with_dtype("float" if name == "irfft" else None).without_layout()


def _eye(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    args = Args(call, 0)
    n = ev.size(args.get(0, "N"), before)
    m = ev.size(args.get(1, "M"), before) if args.get(1, "M") is not None else n
    return Shape((n, m), layout=(0, 1), dtype="float") if n is not None and m is not None else None


def _joined(stack: bool):
    """`np.stack(arrays, axis=1)`, `np.concatenate([a, b], axis=1)`: arrays of known shapes joined, as torch's."""
    def join(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
        args = Args(call, 0)
        parts = _arrays(ev, args.get(0, "arrays"), before, depth)
        axis = args.get(1, "axis")
        position = ev.integer(axis, before) if axis is not None else 0
        if not parts or position is None or args.keyword("out") is not None:
            return None
        return _stacked(parts, position) if stack else _concatenated(parts, position)
    return join


def _stacked_rows(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.vstack(arrays)`: 1-d arrays become the rows of a 2-d one; others join along axis 0."""
    parts = _arrays(ev, Args(call, 0).get(0, "tup"), before, depth)
    if not parts:
        return None
    return _stacked(parts, 0) if all(part.rank == 1 for part in parts[0]) else _concatenated(parts, 0)


def _stacked_columns(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.hstack(arrays)`: 1-d arrays join end to end; others along axis 1."""
    parts = _arrays(ev, Args(call, 0).get(0, "tup"), before, depth)
    if not parts:
        return None
    return _concatenated(parts, 0 if all(part.rank == 1 for part in parts[0]) else 1)


def _expand_dims(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    args = Args(call, 0)
    found = array_shape(ev, args.get(0, "a"), before, depth + 1)
    axis = ev.integer(args.get(1, "axis"), before)
    position = insert_position(found, axis) if found is not None and axis is not None else None
    return inserted(found, position, Dim.of(1)) if found is not None and position is not None else None


def _tile(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.tile(a, (1, n))`: each dim times its repetition, the shorter of the two padded with ones in front (a
    time-of-day column tiled across a table's nodes)."""
    args = Args(call, 0)
    found = array_shape(ev, args.get(0, "A"), before, depth + 1)
    reps_expr = args.get(1, "reps")
    if found is None or found.rank is None or reps_expr is None:
        return None
    count = ev.object(reps_expr, before)  # an int the code states, else a sequence of them
    reps = Shape.of(count) if isinstance(count, Dim) else ev.sizes(reps_expr, before)
    if reps is None or reps.rank is None:
        return None
    rank = max(found.rank, reps.rank)
    dims = (Dim.of(1),) * (rank - found.rank) + found.dims
    times = (Dim.of(1),) * (rank - reps.rank) + reps.dims
    return Shape(tuple(dim * time for dim, time in zip(dims, times)), layout=tuple(range(rank)), dtype=found.dtype)


def _padded(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.pad(wave, (n_fft // 2, n_fft // 2))`: each axis grows by its `(before, after)` widths; one int, or one
    pair, pads every axis alike (numpy's rule), one pair per axis each its own."""
    args = Args(call, 0)
    found = array_shape(ev, args.get(0, "array"), before, depth + 1)
    widths = _pad_widths(ev, args.get(1, "pad_width"), before)
    if found is None or found.rank is None or widths is None or len(widths) not in (1, found.rank):
        return None
    widths = widths * found.rank if len(widths) == 1 else widths
    return Shape(tuple(dim + ahead + behind for dim, (ahead, behind) in zip(found.dims, widths)),
                 layout=tuple(range(found.rank)), dtype=found.dtype)


def _pad_widths(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int) -> list[tuple[Dim, Dim]] | None:
    """The `(before, after)` widths `np.pad` reads, one pair per axis or one for all; None where any is unknown."""
    if expr is None:
        return None
    if type(expr) not in (cst.Tuple, cst.List):
        width = ev.size(expr, before)  # a bare name the code never explains may hold the pairs
        return [(width, width)] if width is not None and (counted(ev, expr, before) or not unexplained(ev, expr, before)) \
        else None
    values = [element.value for element in expr.elements if type(element) is cst.Element]
    if len(values) != len(expr.elements) or not values:
        return None
    if all(type(value) in (cst.Tuple, cst.List) for value in values):
        pairs = [_pad_widths(ev, value, before) for value in values]
        return [pair[0] for pair in pairs] if all(pair is not None and len(pair) == 1 for pair in pairs) else None
    sizes = [ev.size(value, before) for value in values]
    if any(size is None for size in sizes) or len(sizes) > 2:
        return None
    return [(sizes[0], sizes[-1])]


def _receiver_first(method):
    """`np.reshape(a, shape)`, `np.transpose(a)`: the method's reading, with the array first."""
    def function(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
        args = Args(call, 1)
        found = array_shape(ev, args.get(-1, "a"), before, depth + 1)
        return method(ev, found, args, before) if found is not None else None
    return function


def _elementwise(dtype: DtypeFamily | None | bool):
    """`np.sin(t)`, `np.abs(x)`: a ufunc of one array is of its shape (`dtype` False keeps the array's)."""
    def ufunc(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
        args = Args(call, 0)
        if args.count() != 1 or args.keywords:
            return None
        found = array_shape(ev, args.get(0), before, depth + 1)
        return found.with_dtype(dtype) if found is not None and dtype is not False else found
    return ufunc


def _broadcast_function(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> Shape | None:
    """`np.maximum(a, 0)`, `np.where(mask, a, b)`: the operands broadcast, numbers aside."""
    args = Args(call, 0)
    operands = args.rest(0)
    if len(operands) < 2 or args.keywords:
        return None
    where = ev.ctx.qualname(call.func) == "numpy.where"
    if where != (len(operands) == 3):
        return None
    result = _operands(ev, operands[1:] if where else operands, before, depth)
    if not where:
        return result
    condition = array_shape(ev, operands[0], before, depth + 1)
    if condition is None:
        return None
    if result is None:
        # labels or weights picked between two numbers (`np.where(score > 0.5, 1.0, 0.0)`): the condition's shape
        if not all(_is_number(ev, value, before) for value in operands[1:]):
            return None
        floats = any(not _is_int(ev, value, before) for value in operands[1:])
        return condition.without_values().with_dtype("float" if floats else "int")
    return broadcast(condition, result).shape


# -------------------------------------------------------------------------------------------------- helpers


def _is_number(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    """A Python number (`is_number`), or a numpy ufunc of one (`np.sqrt(2.0 / n_in)`): a numpy scalar, which
    broadcasts as a number does."""
    if is_number(ev, expr, before):
        return True
    if type(expr) is not cst.Call:
        return False
    qualname = ev.ctx.qualname(expr.func) or ""
    if not qualname.startswith("numpy.") or qualname[len("numpy."):] not in _UFUNCS or len(expr.args) != 1 \
            or expr.args[0].star or expr.args[0].keyword is not None:
        return False
    return _is_number(ev, expr.args[0].value, before)


def _arrays(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int, depth: int) -> Arrays | None:
    """The arrays a list holds, each of a known shape: written there (`[numeric] + onehots`), a list a name, a
    comprehension or a call holds, or one a loop appends arrays of one shape to (`xs.append(series[s:s + w])`)."""
    if expr is None:
        return None
    if type(expr) in (cst.List, cst.Tuple):
        if any(type(e) is cst.StarredElement for e in expr.elements):
            return None
        shapes = [array_shape(ev, e.value, before, depth + 1) for e in expr.elements]
        count = Dim.of(len(shapes))
    else:
        held = ev.object(expr, before)
        if not isinstance(held, Seq):
            return None
        if held.complete:
            shapes = [item.shape if isinstance(item, Array) else None for item in held.items]
            count = Dim.of(len(shapes))
        elif not held.items and isinstance(held.each, Array):
            # as many as the passes of the loop that grew it, which another list grown with it shares
            shapes = [held.each.shape]
            count = grown_count(held) or opaque(("arrays", id(expr)), "n")
        else:
            return None
    if not shapes or any(shape is None or shape.variadic is not None for shape in shapes):
        return None
    return shapes, count  # type: ignore[return-value]


def _strings(value: object) -> Shape | None:
    """A list of strings the code states (`np.array(["month", "one_year"])`): one dim of that many."""
    if not isinstance(value, Seq) or not value.complete or not value.items or any(
            not isinstance(item, Const) or type(item.value) is not str for item in value.items):
        return None
    return Shape((Dim.of(len(value.items)),), layout=(0,))


def _stacked(parts: Arrays, axis: int) -> Shape | None:
    shapes, count = parts
    first = shapes[0]
    if any(part.rank != first.rank or any(same(a, b) is not True for a, b in zip(first.dims, part.dims))
           for part in shapes[1:]):
        return None
    position = insert_position(first, axis)
    if position is None:
        return None
    dtype = first.dtype if all(part.dtype == first.dtype for part in shapes) else None
    return inserted(first, position, count).row_major().with_dtype(dtype)


def _concatenated(parts: Arrays, axis: int) -> Shape | None:
    shapes, count = parts
    first = shapes[0]
    position = first.index(axis)
    if position is None or any(part.rank != first.rank for part in shapes):
        return None
    if any(same(a, b) is not True for part in shapes[1:] for i, (a, b) in enumerate(zip(first.dims, part.dims))
           if i != position):
        return None
    total = Dim.of(0)
    for part in shapes:
        total = total + part.dims[position]
    if count.literal is None:  # one shape, as many times as the list is long
        total = first.dims[position] * count
    dtype = first.dtype if all(part.dtype == first.dtype for part in shapes) else None
    return Shape(first.dims[:position] + (total,) + first.dims[position + 1:], layout=(), dtype=dtype).row_major()


def _transposed(shape: Shape, order: list[int | None] | None) -> Shape | None:
    """The dims reordered; the layout left unknown (numpy's copies and arithmetic choose their own memory order)."""
    if shape.rank is None:
        return None
    if order is None:
        order = list(range(shape.rank))[::-1]
    if None in order or sorted(axis % shape.rank for axis in order) != list(range(shape.rank)):  # type: ignore
        return None
    return permuted(shape, [axis % shape.rank for axis in order]).without_layout()  # type: ignore[operator]


def _operands(ev: ShapeEvaluator, operands: list[cst.BaseExpression], before: int, depth: int) -> Shape | None:
    """The shape operands broadcast to, numbers broadcasting to anything; None unless one is a known array."""
    result: Shape | None = None
    for operand in operands:
        found = array_shape(ev, operand, before, depth + 1)
        if found is None:
            if not _is_number(ev, operand, before):
                return None
            continue
        result = found if result is None else broadcast(result, found).shape
        if result is None:
            return None
    return result


def _arithmetic(ev: ShapeEvaluator, expr: cst.BinaryOperation, before: int, depth: int) -> Shape | None:
    """`X @ w + 0.1 * noise`: arrays broadcast as tensors do; `@` multiplies as `torch.matmul` does."""
    operator = type(expr.operator)
    if operator is not cst.MatrixMultiply and operator not in _ARITHMETIC:
        return None
    left, right = (array_shape(ev, side, before, depth + 1) for side in (expr.left, expr.right))
    if operator is cst.MatrixMultiply:
        if left is None or right is None:
            return None
        product_shape = matmul(left, right)[0]
        return product_shape if product_shape is not None and product_shape.rank is not None else None
    if left is not None and right is not None:
        result = broadcast(left, right).shape
    elif left is not None and _is_number(ev, expr.right, before):
        result = left if left.dtype == "float" or _is_int(ev, expr.right, before) else left.with_dtype(None)
    elif right is not None and _is_number(ev, expr.left, before):
        result = right if right.dtype == "float" or _is_int(ev, expr.left, before) else right.with_dtype(None)
    else:
        return None
    return result.with_dtype("float") if result is not None and operator is cst.Divide else result


def _is_int(ev: ShapeEvaluator, expr: cst.BaseExpression, before: int) -> bool:
    """An int the code states, written there or held by a name (`hop * np.arange(n_frames)`, the frame starts, stays
    an int array)."""
    return type(expr) is cst.Integer or ev.integer(expr, before) is not None


def _compared(ev: ShapeEvaluator, expr: cst.Comparison, before: int, depth: int) -> Shape | None:
    """`probs > 0.5`, `codes[:, None] == np.arange(k)`: a bool array, the operands broadcast."""
    if len(expr.comparisons) != 1 or type(expr.comparisons[0].operator) not in _COMPARISONS:
        return None
    found = _operands(ev, [expr.left, expr.comparisons[0].comparator], before, depth)
    return found.with_dtype("bool") if found is not None else None


def _generator_draw(ev: ShapeEvaluator, func: cst.Attribute, before: int) -> str | None:
    """`rng.normal` where `rng` holds `np.random.default_rng(...)` (or a `RandomState`): the module function that
    draws the same sizes."""
    held = ev.object(func.value, before)  # the generator a call being run holds, or the one the name is bound to
    methods = _GENERATORS.get(held.qualname) if isinstance(held, TorchObject) else None
    return methods.get(func.attr.value) if methods is not None else None


def _constructed(ev: ShapeEvaluator, call: cst.Call, qualname: str, before: int) -> Shape | None:
    form, dtype = _CONSTRUCTORS[qualname]
    args = Args(call, 0)
    if form == "varargs":
        sizes = shape_arguments(ev, args, 0, "shape", before)
    else:  # one argument holds them: `np.zeros((n, d))`, `np.random.uniform(0, 1, size=(n, d))`
        sizes = _sizes(ev, args.get(_SIZE_POSITION[qualname], "size") if form == "size" else args.get(0, "shape"),
                       before)
    if sizes is None or sizes.variadic is not None:
        return None
    below = None
    if qualname == "numpy.random.randint":  # randint(low, high, size), or randint(high, size=...): below `high`
        high = args.get(1, "high") or args.get(0, "low")
        below = ev.size(high, before) if high is not None else None
    return Shape(sizes.dims, layout=tuple(range(len(sizes.dims))),
                 dtype=_dtype_family(ev, args.keyword("dtype")) or dtype, below=below)


def _sizes(ev: ShapeEvaluator, expr: cst.BaseExpression | None, before: int) -> Shape | None:
    """The sizes one argument holds, a sequence or a single int (a bare name that may hold either is unknown)."""
    if expr is None:
        return None  # `np.random.uniform(0, 1)`: one number
    if type(expr) is cst.Attribute and expr.attr.value == "shape":  # `rng.normal(size=t.shape)` of an array `t`
        measured = array_shape(ev, expr.value, before, 1)
        if measured is not None and measured.variadic is None:
            return Shape(measured.dims)
    whole = ev.sizes(expr, before)
    if whole is not None:
        return whole
    single = ev.size(expr, before)
    # one int: what `len()` or `int()` returns, an int drawn by a call (`size=rng.integers(60, 141)`, a clip of a
    # length drawn for each sample), or a size the code explains
    drawn = type(expr) is cst.Call and (drawn_count(ev, expr, before) is not None or (
        type(expr.func) is cst.Attribute and numpy_scalar_draw(expr.func.attr.value, expr)
        and _generator_draw(ev, expr.func, before) is not None))
    return Shape((single,)) if single is not None and (counted(ev, expr, before) or drawn
                                                       or not unexplained(ev, expr, before)) else None


def _dtype_family(ev: ShapeEvaluator, expr: cst.BaseExpression | None) -> DtypeFamily | None:
    """numpy's or Python's dtypes by name (`np.float32`, `np.bool_`, `"int64"`, `int`), read with torch's names;
    None for others and when absent."""
    if expr is None:
        return None
    if type(expr) is cst.SimpleString:
        name = str(expr.evaluated_value)
    else:
        spelled = ev.ctx.qualname(expr) if type(expr) in (cst.Name, cst.Attribute) else None
        name = spelled.rsplit(".", 1)[-1] if spelled else getattr(expr, "value", "")
    return TORCH_DTYPES.get(str(name).rstrip("_"))


_METHODS = {**_REDUCTIONS, "astype": _astype, "copy": _copy, "reshape": _reshape, "flatten": _flattened, "ravel": _flattened,
            "transpose": _transpose, "clip": _same, "round": _same, "cumsum": _cumulative, "cumprod": _cumulative}
_UFUNCS = {**dict.fromkeys(("sin", "cos", "tan", "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "tanh",
                            "sinh", "cosh", "arcsin", "arccos", "arctan"), "float"),
           **dict.fromkeys(("abs", "absolute", "negative", "square"), False)}
_FUNCTIONS = {
    **dict.fromkeys(("numpy.array", "numpy.asarray", "numpy.ascontiguousarray"), _converted),
    **dict.fromkeys(("numpy.zeros_like", "numpy.ones_like", "numpy.empty_like"), _like),
    "numpy.arange": _arange, "numpy.random.permutation": _permutation, "numpy.linspace": _linspace, "numpy.eye": _eye,
    "numpy.stack": _joined(stack=True), "numpy.concatenate": _joined(stack=False), "numpy.vstack": _stacked_rows,
    "numpy.hstack": _stacked_columns, "numpy.expand_dims": _expand_dims, "numpy.tile": _tile, "numpy.pad": _padded,
    "numpy.reshape": _receiver_first(_reshape), "numpy.transpose": _receiver_first(_transpose),
    "numpy.cumsum": _receiver_first(_cumulative), "numpy.cumprod": _receiver_first(_cumulative),
    "numpy.diag": _receiver_first(_diag),
    **{"numpy." + name: _elementwise(dtype) for name, dtype in _UFUNCS.items()},
    **dict.fromkeys(("numpy.maximum", "numpy.minimum", "numpy.where"), _broadcast_function),
    **dict.fromkeys(("numpy.hanning", "numpy.hamming", "numpy.blackman", "numpy.bartlett"), _window),
    **dict.fromkeys(("numpy.fft.fft", "numpy.fft.ifft", "numpy.fft.rfft", "numpy.fft.irfft"), _fourier),
}


def comprehension_length(ev: ShapeEvaluator, data: cst.BaseExpression, before: int) -> Dim | None:
    """How many elements the list comprehension `data` is (or a name holds) makes: as many as the rows of the tensor
    or array its one `for` goes through, with no `if` to drop some (`[float(r.sum()) for r in feats]`)."""
    expr, seq = ev.ctx.value_of(data, before)
    if type(expr) is not cst.ListComp:
        return None
    clause = expr.for_in
    if clause.inner_for_in is not None or clause.ifs or clause.asynchronous is not None:
        return None
    at = seq if seq is not None else before
    rows = ev.tensor(clause.iter, at) or array_shape(ev, clause.iter, at)
    return rows.size(0) if rows is not None and rows.rank else None
