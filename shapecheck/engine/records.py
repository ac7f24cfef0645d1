"""`record`: a dataclass whose `__eq__`, `__hash__` and `__repr__` are shared functions rather than methods compiled
for each class, and whose `__init__` is a copy of one compiled for many classes.

Python 3.11's `dataclass` compiles every method it generates from source text when the class is created, and a
one-file lint creates some 80 of these classes before it reads a line: their equality, hash and representation were
most of that (a record compared by value cost about 3 million instructions to define, a tenth of a first run beyond
libcst's import and parse). A record keeps the dataclass's `__init__` (a dataclass still: `dataclasses.replace`,
`fields` and `field(...)` work) and takes the three from here: the same results, `__eq__` and `__hash__` over the
same fields (those with `compare=True`, a class's own definitions kept) through an `operator.attrgetter` made once
per class.

What `dataclass` does besides generating methods cost more still (some 400 microseconds a class against 12 for a
plain one: reading every annotation through regular expressions, a signature for the docstring, its `__init__`
compiled from text), so a record with plain fields is made here: its `Field`s as `dataclass` makes them (so that
`fields`, `replace` and `is_dataclass` work) and an `__init__` that is a copy of one compiled once a process for
records whose fields take a default factory at the same places (a lint's 80 records have a dozen such patterns),
renamed to the class's fields. A class this does not cover (a `ClassVar`, an `InitVar`, keyword-only or
`init=False` fields, a `__post_init__`) goes to `dataclass` itself.

`NamedTuple` is `typing.NamedTuple`'s class syntax for the same named tuples, made without compiling anything:
`typing` checks every annotation (compiling each one's text, as `from __future__ import annotations` leaves them)
and `collections.namedtuple` compiles a `__new__` for each class, some 1.4 million instructions a class of six
fields, while the records a run reads before it lints a line (findings, settings, tasks) are a score of them. Its
`__new__` is one shared function that places keyword and default arguments by the class's `_fields`.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable, Iterable
from dataclasses import MISSING, Field, dataclass, field, fields
from functools import cache
from operator import attrgetter, itemgetter
from types import FunctionType
from typing import TYPE_CHECKING, Any, TypeVar, overload

T = TypeVar("T", bound=type)


@overload
def record(cls: T, /) -> T: ...


@overload
def record(*, eq: bool = True, unsafe_hash: bool = False, slots: bool = False) -> Callable[[T], T]: ...


def record(cls: T | None = None, /, *, eq: bool = True, unsafe_hash: bool = False, slots: bool = False
           ) -> T | Callable[[T], T]:
    """`dataclass(cls, eq=..., unsafe_hash=..., slots=...)`, as cheap to define as it can be: what the three
    arguments mean is `dataclass`'s (`frozen` is not offered: see CONTRIBUTING.md, "Records")."""

    def wrap(cls: T) -> T:
        made = _plain(cls, slots, eq, unsafe_hash)
        if made is not None:
            return made
        own = dict(cls.__dict__)
        made = dataclass(cls, eq=False, repr=False, slots=slots)  # type: ignore[call-overload]
        # What the class has, for those who ask the dataclass (a test asks whether a record is hashed by value).
        params = made.__dataclass_params__  # type: ignore[attr-defined]
        params.repr, params.eq, params.unsafe_hash = True, eq, unsafe_hash
        for name, value in _shared(own, fields(made), eq, unsafe_hash).items():
            setattr(made, name, value)
        return made

    return wrap if cls is None else wrap(cls)


_FIELD = dataclasses._FIELD  # type: ignore[attr-defined]
_HAS_DEFAULT_FACTORY = dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]


def _shared(own: Any, listed: Iterable[Field], eq: bool, unsafe_hash: bool) -> dict[str, Any]:
    """What a record takes from here, given the class body's own attributes and its fields: the names shown and
    the function from a record to its compared fields (class attributes, no slots taken), and the methods."""
    shared: dict[str, Any] = {"_record_shown": tuple([field.name for field in listed if field.repr])}
    if "__repr__" not in own:
        shared["__repr__"] = _repr
    if not eq:
        return shared
    shared["_record_key"] = _key(tuple([field.name for field in listed if field.compare]))
    if "__eq__" not in own:
        shared["__eq__"] = _eq
    if unsafe_hash:
        shared["__hash__"] = _hash
    elif own.get("__hash__", None) is None:  # Python set None where the class defines __eq__ and no __hash__
        shared["__hash__"] = None
    return shared


# What `dataclass` itself must make: annotations it reads specially, fields `__init__` does not simply take.
_SPECIAL = ("ClassVar", "InitVar", "KW_ONLY", "dataclasses.", "typing.")


def _plain(cls: type, slots: bool, eq: bool, unsafe_hash: bool) -> type | None:
    """`dataclass(cls, eq=False, repr=False, slots=slots)` for a class of plain fields, None for any other; its
    `__dataclass_params__` say `eq` and `unsafe_hash` (`record` makes them)."""
    if hasattr(cls, "__post_init__"):
        return None
    listed: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        inherited = base.__dict__.get("__dataclass_fields__")
        if inherited is not None:
            listed.update(inherited)
    own = cls.__dict__
    annotations = own.get("__annotations__", {})
    for name, annotation in annotations.items():
        if not isinstance(annotation, str) or annotation.startswith(_SPECIAL):
            return None
        default = own.get(name, MISSING)
        made = default if isinstance(default, Field) else field(default=default)
        if made is default and (not made.init or made.kw_only is True):
            return None
        if made.default is not MISSING and made.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(made.default)} for field {name} is not allowed: use "
                             "default_factory")
        made.name, made.type, made._field_type = name, annotation, _FIELD  # type: ignore[attr-defined]
        listed[name] = made
    names = tuple(listed)
    if len(names) > len(_PLACEHOLDERS):
        return None
    factories = []
    defaults = []
    for made in listed.values():
        if getattr(made, "_field_type", None) is not _FIELD:
            return None
        factory = made.default_factory is not MISSING
        factories.append(factory)
        if factory:
            defaults.append(_HAS_DEFAULT_FACTORY)
        elif made.default is not MISSING:
            defaults.append(made.default)
        elif defaults:
            raise TypeError(f"non-default argument follows default argument in {cls.__name__}")
    template = _init_taking(tuple(factories)).__code__
    globals_ = {"_record_factory": _HAS_DEFAULT_FACTORY}
    for position, made in enumerate(listed.values()):
        if factories[position]:
            globals_[f"_record_factory_{position}"] = made.default_factory
    renamed = dict(zip(_PLACEHOLDERS, names))
    init = FunctionType(template.replace(co_varnames=("self", *names),
                                         co_names=tuple([renamed.get(n, n) for n in template.co_names])), globals_)
    init.__defaults__ = tuple(defaults) or None
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{name: made.type for name, made in listed.items()}, "return": None}
    init.__module__ = cls.__module__
    # Everything is set at once: setting a method of a class made already updates its type slots, and a record with
    # slots is made anew (`_slotted`) with them in its namespace.
    attributes = {"__dataclass_fields__": listed, "__dataclass_params__": _params(slots, eq, unsafe_hash)}
    if "__init__" not in own:
        attributes["__init__"] = init
    if "__match_args__" not in own:
        attributes["__match_args__"] = names
    attributes.update(_shared(own, listed.values(), eq, unsafe_hash))
    if slots:
        return _slotted(cls, names, attributes)
    for name, made in listed.items():
        if name in annotations:
            if made.default is MISSING:
                if name in own:
                    delattr(cls, name)
            else:
                setattr(cls, name, made.default)
    for name, value in attributes.items():
        setattr(cls, name, value)
    return cls


@cache
def _params(slots: bool, eq: bool, unsafe_hash: bool) -> Any:
    """What `dataclass(eq=eq, unsafe_hash=unsafe_hash, slots=slots)` says it was asked; one object for each
    combination, shared by the records made so (nothing changes one once it is made)."""
    params = object.__new__(dataclasses._DataclassParams)  # type: ignore[attr-defined]
    for name in params.__slots__:  # their number grows with Python's version
        setattr(params, name, name in ("init", "repr", "match_args") or name == "slots" and slots
                or name == "eq" and eq or name == "unsafe_hash" and unsafe_hash)
    return params


def _slotted(cls: type, names: tuple[str, ...], attributes: dict[str, Any]) -> type:
    """The class again with `__slots__` for its own fields, as `dataclass(slots=True)` makes it, and `attributes`."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    inherited = set()
    for base in cls.__mro__[1:-1]:
        declared = base.__dict__.get("__slots__", ())
        inherited.update((declared,) if isinstance(declared, str) else declared)
    namespace = dict(cls.__dict__)
    namespace.update(attributes)
    namespace["__slots__"] = tuple(name for name in names if name not in inherited)
    for name in names:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


# The template's names for the fields, which its copies rename (a field's name never starts with an underscore and
# a digit follows).
_PLACEHOLDERS = tuple(f"_{i}" for i in range(256))


@cache
def _init_taking(factories: tuple[bool, ...]) -> Callable[..., None]:
    """An `__init__` of as many fields as `factories` has, whose names `_plain` gives its copies: each argument
    stored as itself, or where `factories` says so, a new value of the field's factory when it is not passed
    (`_record_factory`, the default, stands for that as dataclass's sentinel does)."""
    names = _PLACEHOLDERS[:len(factories)]
    body = "".join(f"\n    self.{name} = _record_factory_{i}() if {name} is _record_factory else {name}" if factory
                   else f"\n    self.{name} = {name}" for i, (name, factory) in enumerate(zip(names, factories)))
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self{''.join(', ' + name for name in names)}):{body or ' pass'}", namespace)  # noqa: S102
    return namespace["__init__"]


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A tuple however many fields there are, as the dataclass compares: `(x,) == (x,)` holds for a NaN `x`, where
    `x == x` does not."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda value: (get(value),)
    return lambda value: ()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__class__._record_key
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__._record_key(self))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__class__._record_shown)
    return f"{self.__class__.__qualname__}({shown})"


try:  # CPython's field accessor for named tuples; elsewhere, the property it stands for
    from collections import _tuplegetter  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    def _tuplegetter(index: int, doc: str) -> property:
        return property(itemgetter(index), doc=doc)


def _tuple_new(cls: Any, *args: Any, **kwargs: Any) -> Any:
    if kwargs or len(args) != len(cls._fields):
        args = _placed(cls, args, kwargs)
    return tuple.__new__(cls, args)


def _placed(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The fields' values in order, as `collections.namedtuple`'s `__new__` takes its arguments."""
    fields, defaults = cls._fields, cls._field_defaults
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
    values = list(args)
    for name in fields[len(args):]:
        if name in kwargs:
            values.append(kwargs.pop(name))
        elif name in defaults:
            values.append(defaults[name])
        else:
            raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
    if kwargs:
        raise TypeError(f"{cls.__name__}() got an unexpected or repeated keyword argument {next(iter(kwargs))!r}")
    return tuple(values)


def _tuple_make(cls: Any, iterable: Any) -> Any:
    made = tuple.__new__(cls, iterable)
    if len(made) != len(cls._fields):
        raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
    return made


def _tuple_replace(self: Any, /, **changes: Any) -> Any:
    made = self._make(map(changes.pop, self._fields, self))
    if changes:
        raise ValueError(f"Got unexpected field names: {list(changes)!r}")
    return made


def _tuple_repr(self: Any) -> str:
    shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
    return f"{self.__class__.__name__}({shown})"


def _tuple_asdict(self: Any) -> dict[str, Any]:
    return dict(zip(self._fields, self))


def _tuple_getnewargs(self: Any) -> tuple[Any, ...]:
    return tuple(self)


# What `typing.NamedTuple` does not let a class body redefine, and what the class body has that is no attribute.
_TUPLE_OWN = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                        "_make", "_replace", "_asdict", "_source"})
_NOT_COPIED = frozenset({"__annotations__"})


class _NamedTupleMeta(type):
    def __new__(mcs, typename: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        if not bases:  # `NamedTuple` itself
            return super().__new__(mcs, typename, bases, namespace)
        if bases != (NamedTuple,):
            raise TypeError("a NamedTuple inherits from NamedTuple alone")
        annotations = namespace.get("__annotations__", {})
        fields = tuple(annotations)
        defaults = {name: namespace[name] for name in fields if name in namespace}
        if any(name not in defaults for name in fields[len(fields) - len(defaults):]):
            raise TypeError(f"non-default namedtuple field follows a default field in {typename}")
        made: dict[str, Any] = {
            "__doc__": f"{typename}({', '.join(fields)})", "__slots__": (), "_fields": fields,
            "_field_defaults": defaults, "__match_args__": fields, "__annotations__": dict(annotations),
            "__new__": _tuple_new, "_make": classmethod(_tuple_make), "_replace": _tuple_replace,
            "__repr__": _tuple_repr, "_asdict": _tuple_asdict, "__getnewargs__": _tuple_getnewargs,
            **{name: _tuplegetter(index, f"Alias for field number {index}") for index, name in enumerate(fields)}}
        for key, value in namespace.items():
            if key in _TUPLE_OWN:
                raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
            if key not in _NOT_COPIED and key not in fields:
                made[key] = value
        return type(typename, (tuple,), made)


if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    class NamedTuple(metaclass=_NamedTupleMeta):
        """`class Point(NamedTuple): x: int; y: int = 0`, as `typing.NamedTuple` makes it (see the module's
        docstring)."""
