"""`record`: a dataclass whose `__eq__`, `__hash__` and `__repr__` are shared functions rather than methods compiled
for each class.

Python 3.11's `dataclass` compiles every method it generates from source text when the class is created, and a
one-file lint creates some 80 of these classes before it reads a line: their equality, hash and representation were
most of that (a record compared by value cost about 3 million instructions to define, a tenth of a first run beyond
libcst's import and parse). A record keeps the dataclass's `__init__` (a dataclass still: `dataclasses.replace`,
`fields` and `field(...)` work) and takes the three from here: the same results, `__eq__` and `__hash__` over the
same fields (those with `compare=True`, a class's own definitions kept) through an `operator.attrgetter` made once
per class.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, overload

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
        own = cls.__dict__
        made = dataclass(cls, eq=False, repr=False, slots=slots)  # type: ignore[call-overload]
        listed = fields(made)
        # What the class has, for those who ask the dataclass (a test asks whether a record is hashed by value).
        params = made.__dataclass_params__  # type: ignore[attr-defined]
        params.repr, params.eq, params.unsafe_hash = True, eq, unsafe_hash
        # Class attributes (no slots taken): the names shown, and the function from a record to its compared fields.
        made._record_shown = tuple(field.name for field in listed if field.repr)  # type: ignore[attr-defined]
        if "__repr__" not in own:
            made.__repr__ = _repr
        if not eq:
            return made
        made._record_key = _key(tuple(field.name for field in listed if field.compare))  # type: ignore[attr-defined]
        if "__eq__" not in own:
            made.__eq__ = _eq
        if unsafe_hash:
            made.__hash__ = _hash
        elif own.get("__hash__", None) is None:  # Python set None where the class defines __eq__ and no __hash__
            made.__hash__ = None  # type: ignore[assignment]
        return made

    return wrap if cls is None else wrap(cls)


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
