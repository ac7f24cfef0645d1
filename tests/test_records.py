"""`record` behaves as the dataclass it stands for: the same equality, hash and representation."""

from __future__ import annotations

import dataclasses
import math
import pickle
import typing
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from shapecheck.engine.records import NamedTuple, record
from shapecheck.findings import Location


@record(slots=True, unsafe_hash=True)
class Point:
    x: int
    y: int = 0
    label: str = field(default="", compare=False)


@dataclass(slots=True, unsafe_hash=True)
class DataclassPoint:
    x: int
    y: int = 0
    label: str = field(default="", compare=False)


@record(slots=True, unsafe_hash=True)
class One:
    value: float


@record(eq=False)
class Node:
    name: str
    children: list[Node] = field(default_factory=list)


@record
class Mutable:
    items: list[int]


def test_equality_and_hash_are_the_dataclass_s() -> None:
    for made in (Point, DataclassPoint):
        assert made(1, 2, "a") == made(1, 2, "b")
        assert hash(made(1, 2, "a")) == hash(made(1, 2, "b"))
        assert made(1, 2) != made(2, 1)
        assert len({made(1), made(1, 0), made(2)}) == 2
    assert Point(1) != DataclassPoint(1)
    assert Point(1).__eq__(DataclassPoint(1)) is NotImplemented


def test_one_field_is_compared_as_a_tuple() -> None:
    nan = math.nan
    assert One(nan) == One(nan)  # (nan,) == (nan,): the same object
    assert One(1.0) != One(2.0)


def test_identity_records_and_unhashed_ones() -> None:
    a, b = Node("a"), Node("a")
    assert a != b and a == a
    assert len({a, b}) == 2
    assert Mutable([1]) == Mutable([1])
    with pytest.raises(TypeError):
        hash(Mutable([1]))


def test_repr_replace_and_fields() -> None:
    assert repr(Point(1, 2, "a")) == repr(DataclassPoint(1, 2, "a")).replace("DataclassPoint", "Point")
    loop = Node("loop")
    loop.children.append(loop)
    assert repr(loop) == "Node(name='loop', children=[...])"
    assert dataclasses.replace(Point(1, 2), y=3) == Point(1, 3)
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "label"]
    assert Point.__dataclass_params__.unsafe_hash and not Node.__dataclass_params__.eq
    with pytest.raises(AttributeError):
        Point(1).z = 2  # slots


def _base_and_derived(decorate: Callable[[type], type]) -> tuple[type, type]:
    """A class and a subclass with fields of its own, made by `decorate`."""

    @decorate
    class Base:
        kind: str
        size: int = 1

    @decorate
    class Derived(Base):
        extra: tuple[int, ...] = ()

    return Base, Derived


Base, Derived = _base_and_derived(record(slots=True, unsafe_hash=True))
DataclassBase, DataclassDerived = _base_and_derived(dataclass(slots=True, unsafe_hash=True))


def test_made_without_dataclass_as_dataclass_makes_it() -> None:
    import inspect

    for made, twin in ((Point, DataclassPoint), (Derived, DataclassDerived), (Base, DataclassBase)):
        assert str(inspect.signature(made)) == str(inspect.signature(twin))
        assert [(f.name, f.default, f.compare) for f in dataclasses.fields(made)] == [
            (f.name, f.default, f.compare) for f in dataclasses.fields(twin)]
        assert made.__slots__ == twin.__slots__ and made.__match_args__ == twin.__match_args__
        assert dataclasses.is_dataclass(made)
    assert Derived("a", 2, (3,)) == Derived("a", 2, (3,)) != Derived("a")
    assert repr(Derived("a")) == "_base_and_derived.<locals>.Derived(kind='a', size=1, extra=())"
    assert Node("n").children == [] and Node("n").children is not Node("n").children  # a factory: dataclass's


def test_a_record_refuses_what_dataclass_refuses() -> None:
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Listed:
            items: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-default argument"):
        @record
        class Misordered:
            a: int = 0
            b: int


class Span(NamedTuple):
    """A span."""

    start: int
    end: int = 0

    def length(self) -> int:
        return self.end - self.start


class TypingSpan(typing.NamedTuple):
    start: int
    end: int = 0


def test_a_named_tuple_is_typing_s() -> None:
    made, twin = Span(1, end=3), TypingSpan(1, end=3)
    assert made == twin == (1, 3) and hash(made) == hash(twin) and isinstance(made, tuple)
    assert repr(made) == "Span(start=1, end=3)" and made.length() == 2 and Span.__doc__ == "A span."
    assert Span(2) == Span(start=2) == (2, 0)
    assert made._replace(end=5) == Span(1, 5) and Span._make([4, 6]) == (4, 6)
    assert made._asdict() == twin._asdict() and Span._fields == TypingSpan._fields
    assert Span._field_defaults == TypingSpan._field_defaults and Span.__match_args__ == TypingSpan.__match_args__
    assert made.start == 1 and made.end == 3
    assert pickle.loads(pickle.dumps(Location(3, 4))) == Location(3, 4)
    assert type(pickle.loads(pickle.dumps(Location(3, 4)))) is Location


def test_a_named_tuple_refuses_what_typing_refuses() -> None:
    with pytest.raises(TypeError):
        Span()
    with pytest.raises(TypeError):
        Span(1, 2, 3)
    with pytest.raises(TypeError):
        Span(1, length=2)
    with pytest.raises(ValueError):
        Span(1)._replace(middle=2)
    with pytest.raises(TypeError, match="non-default"):
        class Misordered(NamedTuple):
            a: int = 0
            b: int
    with pytest.raises(AttributeError):
        class Clashing(NamedTuple):
            a: int

            def _asdict(self) -> dict[str, int]:
                return {}
