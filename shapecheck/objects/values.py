"""The values the objects floor knows an expression holds, besides tensors (which the shapes floor adds).

A value is what the code states and nothing more. An int is a `Dim` (exact or symbolic); a constant is a `Const`;
lists, tuples and dicts are `Seq` and `Mapping`, with `complete` False when the code may hold more than it shows (an
element appended in a loop of unknown length). Objects:

- `Imported`: a name reached through an import of another package (`torch.nn.Linear`, `math.pi`): its dotted name.
- `TorchObject`: an object a constructor of another package built (`nn.Linear(d, 10)`, `torch.optim.SGD(...)`,
  `DataLoader(ds, ...)`), with the call and the `Site` to read its arguments at.
- `ClassValue`, `FunctionValue`: a class or function of the project; a `FunctionValue` with `bound` is a method of
  an instance, with `closure` a function defined inside a call being run.
- `Instance`: an object of a project class, its attributes filled in by running `__init__`. A generic instance
  (`self` in a method read on its own, a parameter annotated with the class) has opaque constructor arguments.
- `Opaque`: a value the code does not state (a parameter of a generic run), with an identity, so that the same
  parameter stored in two attributes is known to be one object.

`UNKNOWN` is the value of anything else.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import field
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.objects.dims import Dim, option_size

if TYPE_CHECKING:
    from shapecheck.engine.context import Context
    from shapecheck.objects.evaluator import Evaluator


class _Unknown:
    """Nothing is known about the value."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Const:
    """A constant the code states: a string, a bool, None or a float."""

    value: str | bool | float | None


NONE = Const(None)
TRUE = Const(True)
FALSE = Const(False)


@record(slots=True, unsafe_hash=True)
class Seq:
    """A list or tuple. `complete` is False when elements the analysis does not know may follow `items`; `each` is
    then what every one of those is, where they agree (a list a loop of unknown length appends the same kind of
    tensor to), and `least` how many of them there are at least (a loader over a dataset of 128 rows gives a batch
    or more): a loop over it runs its body at least that many times. `grown` stands for the passes of one run of a
    loop that appended exactly one element on each to a list empty before it: two lists grown on the same passes
    (`preds.append(p)` and `targets.append(y)` in one loop over a loader) have as many elements, however many that is;
    a `Dim` there is how many there are, a size the code names (the samples a `collate_fn` gets, `args.batch_size`);
    lists an inner loop grows together on each pass of an outer one (the steps of every episode) share a pair of marks.
    `most`, where not None, is how many elements there are at most (a list cut with `[:max_len]`)."""

    items: tuple[object, ...]
    kind: str = "list"  # "list" or "tuple"
    complete: bool = True
    each: object = None
    least: int = 0
    grown: object = None
    most: int | None = None


@record(slots=True, unsafe_hash=True)
class Mapping:
    """A dict with keys the code states (strings, ints). `complete` is False when entries the analysis does not
    know may follow `items`; `each` is then what every one of their values is, where they agree (a dict
    comprehension over names of unknown length, `{n: nn.Linear(d, 1) for n in names}`)."""

    items: tuple[tuple[Hashable, object], ...]
    complete: bool = True
    each: object = None

    def get(self, key: Hashable) -> object:
        for k, v in self.items:
            if k == key:
                return v
        return UNKNOWN


@record(slots=True, unsafe_hash=True)
class Namespace:
    """An `argparse.Namespace` whose attributes the code states: the defaults of a parser that is given no command
    line (`parser.parse_args([])`), or the keywords it is built with (`argparse.Namespace(hidden=64)`). A field
    whose value the code does not state holds UNKNOWN."""

    fields: tuple[tuple[str, object], ...]

    def get(self, name: str) -> object:
        for key, value in self.fields:
            if key == name:
                return value
        return UNKNOWN

    def with_field(self, name: str, value: object) -> Namespace:
        return Namespace(tuple((key, old) for key, old in self.fields if key != name) + ((name, value),))

    def after_writes(self, writes: frozenset[str] | None) -> object:
        """This namespace after code that may set the attributes `writes` (any, for None): those hold any value."""
        if writes is None:
            return UNKNOWN
        return Namespace(tuple((key, value) for key, value in self.fields if key not in writes))


@record(slots=True, unsafe_hash=True)
class Imported:
    """A name reached through an import of another package: `torch.nn.Linear`, `math.pi`."""

    qualname: str


@record(slots=True, unsafe_hash=True)
class Opaque:
    """A value the code does not state, with an identity: the same key is the same object. `maybe_tensor` is False
    where an annotation rules a tensor out (`n: int`); `number` where the call that made it returns a Python number
    whatever its argument (`float(t)`, `math.sqrt(d)`, `t.item()`)."""

    key: Hashable
    name: str = field(compare=False)
    maybe_tensor: bool = field(default=True, compare=False)
    number: bool = field(default=False, compare=False)
    # the attributes the code sets on it (`cfg.hidden = cfg.hidden * 2`; None: any): those are no one value
    written: frozenset[str] | None = field(default=frozenset(), compare=False)
    # the default of the command-line option it is (`Model(args.classes)`): see `option_size`
    default: int | None = field(default=None, compare=False)
    # the defaults of the options it holds, where it is a parsed command line (`train(model, args)`)
    options: Namespace | None = field(default=None, compare=False)
    # the string default of the command-line option it is (`--loss`, `default="ce"`): the entry a registry keyed by
    # it gives in the run with no flags (`LOSSES[args.loss]`)
    choice: str | None = field(default=None, compare=False)

    def as_size(self) -> Dim:
        return option_size(("opaque", self.key), self.name, self.default)


def unstated_element(target: object, name: str) -> Opaque:
    """What `name` in a loop's or comprehension's `target` holds where the iterable does not say: an object all the
    same, like a parameter (a loop over a loader the analysis can't read still reads tensors)."""
    return Opaque(("element", id(target), name), name)


@record(slots=True, eq=False)
class Site:
    """Where a call's arguments are read: an evaluator and the `before` its names resolve at."""

    evaluator: Evaluator = field(repr=False)
    before: int
    home: object = field(default=None, repr=False)  # the scope names resolve in when the call sits in a function already left

    def read(self, want: str, expr: cst.BaseExpression) -> object:
        return self.evaluator.read_at(self, want, expr)


@record(slots=True, eq=False)
class TorchObject:
    """An object a constructor of another package built: `nn.Linear(d, 10)`, `optim.SGD(model.parameters())`.

    `items` holds the layers of a container (`nn.Sequential(*layers)`, `nn.ModuleList([...])`) when they are known;
    `site` reads the other arguments."""

    qualname: str
    call: cst.Call | None = field(repr=False)
    site: Site | None = field(repr=False)
    items: Seq | Mapping | None = None

    def argument(self, index: int, *names: str) -> cst.BaseExpression | None:
        """The expression of a constructor argument by keyword, else by position; None when absent or hidden by
        `*args`/`**kwargs`."""
        if self.call is None:
            return None
        positional = 0
        for arg in self.call.args:
            if arg.star:
                return None
            if arg.keyword is not None:
                if arg.keyword.value in names:
                    return arg.value
                continue
            if positional == index:
                return arg.value
            positional += 1
        return None

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


@record(slots=True, eq=False)
class ClassValue:
    """A class of the project, in the module (context) that defines it."""

    node: cst.ClassDef = field(repr=False)
    ctx: Context = field(repr=False)

    @property
    def name(self) -> str:
        return self.node.name.value if type(self.node) is not cst.Module else "<module>"

    def __repr__(self) -> str:
        return f"ClassValue({self.name})"


@record(slots=True, eq=False)
class Instance:
    """An object of a project class. `attrs` are the attributes its `__init__` set (values, tensors' shapes);
    `generic` marks an instance whose constructor arguments are not known (`self` read on its own, a parameter
    annotated with the class); `tainted` marks one whose attributes may be set where the analysis cannot see
    (`setattr(self, name, ...)` with a computed name): then none of them is known."""

    cls: ClassValue
    attrs: dict[str, object] = field(default_factory=dict)
    generic: bool = False
    tainted: bool = False
    call: cst.Call | None = field(default=None, repr=False)  # the constructor call, when there is one
    bases: tuple[str, ...] = ()  # the qualnames of torch classes among its bases (`torch.nn.Sequential`)
    items: Seq | Mapping | None = None  # what a `nn.Sequential`/`ModuleList` subclass holds
    # while `__init__` runs: the methods it ran on the object (attributes other methods set are not known)
    initializing: set[str] | None = None
    # values other than objects that `__init__` assigned more than once (`self.inplanes` moved on by each
    # `_make_layer` call): what was built from them reads them later, at their last value, so they are not known
    rebound: set[str] = field(default_factory=set)
    # lists `__init__` left that only the class's plain filling methods change later (`add`'s
    # `self.states.append(state)`, `clear`'s `self.states.clear()`): their values as built, for a run that holds the
    # object from its construction on and runs each such call (see `objects.executor`); None once taken
    appendable: dict[str, object] | None = None
    # the attributes a run took so (`objects.executor`): its calls of the filling methods are run for their effect
    filled: frozenset[str] = frozenset()


@record(slots=True, eq=False)
class FunctionValue:
    """A function of the project; a method of `bound` when bound; `closure` holds the values of the enclosing
    call's names for a function defined inside a call being run. A `lambda` (`encode = lambda s: [stoi[c] for c
    in s]`) is one too: its node is the `cst.Lambda`, with no name, decorators or annotations."""

    node: cst.FunctionDef = field(repr=False)
    ctx: Context = field(repr=False)
    bound: object = field(default=None, repr=False)
    owner: ClassValue | None = None  # the class a method is defined in
    closure: object = field(default=None, repr=False)  # the enclosing `Frame` of a nested function

    def __repr__(self) -> str:
        return f"FunctionValue({self.name})"

    @property
    def name(self) -> str:
        kind = type(self.node)
        return "<module>" if kind is cst.Module else "<lambda>" if kind is cst.Lambda else self.node.name.value


@record(slots=True, eq=False)
class Partial:
    """`functools.partial(Model, hidden=64)` of a class or function of the project: calling it calls `func` with
    these arguments first, then the call's own (a keyword of the call replaces one of these)."""

    func: ClassValue | FunctionValue
    positional: tuple[object, ...]
    keywords: tuple[tuple[str, object], ...]


@record(slots=True, eq=False)
class Super:
    """`super()` inside a method of `owner`, for `instance`."""

    instance: object
    owner: ClassValue


def constant_of(node: cst.BaseExpression) -> object:
    """The value of a literal: ints as Dims, strings, floats, True/False/None; UNKNOWN for anything else."""
    kind = type(node)
    if kind is cst.Integer:
        try:
            return Dim.of(int(node.value.replace("_", ""), 0))
        except ValueError:
            return UNKNOWN
    if kind is cst.Float:
        try:
            return Const(float(node.value.replace("_", "")))
        except ValueError:
            return UNKNOWN
    if kind in (cst.SimpleString, cst.ConcatenatedString):
        text = node.evaluated_value
        return Const(text) if isinstance(text, str) else UNKNOWN
    if kind is cst.Name and node.value in ("True", "False", "None"):
        return {"True": TRUE, "False": FALSE, "None": NONE}[node.value]
    return UNKNOWN


def truth(value: object) -> bool | None:
    """Whether a value is truthy, when the code states it; None when it can't be told."""
    if isinstance(value, Const):
        return bool(value.value)
    if isinstance(value, Dim):
        literal = value.literal
        return None if literal is None else bool(literal)
    if isinstance(value, Seq | Mapping):
        if value.items:
            return True
        return False if value.complete else None
    if isinstance(value, (TorchObject, ClassValue, FunctionValue, Instance, Imported)):
        return True
    return None


def hashable(value: object) -> Hashable | None:
    """A key for memoizing a call on this value; None when it has none (a mutable instance keys by identity)."""
    try:
        hash(value)
    except TypeError:
        return id(value)
    return value


def number_kind(value: object) -> str | None:
    """"int", "float" or "bool" for a Python number the analysis knows to be one; "number" for one whose kind the
    code does not state; None for anything else."""
    if isinstance(value, Dim):  # `[1 if i == label else 0 for i in range(18)]`: ints, whichever
        return "int"
    if isinstance(value, Const) and type(value.value) in (float, bool):
        return "float" if type(value.value) is float else "bool"
    if isinstance(value, Opaque) and value.number:  # `[float(row["price"])]`: an int or a float, unstated
        return "number"
    return None
