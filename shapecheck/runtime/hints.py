"""Compile a whole type hint (Optional, unions, tuples, lists, dicts around tensor annotations) into a checker.

Only the tensor parts are checked; everything else in a hint is left alone (beartype checks it when the user
asks for `types=True`). `compile_hint` returns None for a hint with nothing to check.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Any

import torch
from jaxtyping import AbstractArray

from shapecheck.runtime.tensor_spec import Mismatch, TensorSpec

Checker = Any  # anything with `check(value, memo) -> Mismatch | None`


def compile_hint(hint: Any) -> Checker | None:
    if isinstance(hint, type):
        if issubclass(hint, AbstractArray):
            # Float[np.ndarray, ...] and friends are not ours to check.
            array_type = typing.get_origin(hint.array_type) or hint.array_type
            tensor = isinstance(array_type, type) and issubclass(array_type, torch.Tensor)
            return TensorSpec(hint) if tensor else None
        return TensorSpec(hint) if issubclass(hint, torch.Tensor) else None
    if type(hint).__name__ == "TypeAliasType":  # `type Image = Float[Tensor, "B C H W"]` (3.12+, typing_extensions)
        return compile_hint(hint.__value__)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        return compile_hint(args[0])
    if origin is typing.Union or origin is types.UnionType:
        return _compile_union(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(tuple, args[0])
        items = tuple(compile_hint(arg) for arg in args)
        return TupleSpec(items) if any(item is not None for item in items) else None
    if origin in _SEQUENCES:
        return _sequence(origin, args[0]) if args else None
    if origin in _MAPPINGS:
        return _mapping(origin, args[1]) if len(args) == 2 else None
    return None


# typing.List[X] and list[X] both have origin `list`; Sequence[X] has collections.abc.Sequence.
_SEQUENCES = frozenset({list, collections.abc.Sequence, collections.abc.MutableSequence})
_MAPPINGS = frozenset({dict, collections.abc.Mapping, collections.abc.MutableMapping})


def _sequence(container: type, item_hint: Any) -> Checker | None:
    item = compile_hint(item_hint)
    return None if item is None else SequenceSpec(container, item)


def _mapping(container: type, value_hint: Any) -> Checker | None:
    value = compile_hint(value_hint)
    return None if value is None else MappingSpec(container, value)


def _compile_union(args: tuple) -> Checker | None:
    if any(arg is Any or arg is object for arg in args):
        return None
    allow_none = type(None) in args
    members = [arg for arg in args if arg is not type(None)]
    checked = [checker for checker in map(compile_hint, members) if checker is not None]
    if not checked:
        return None
    if len(checked) == 1 and len(members) == 1:
        return OptionalSpec(checked[0])  # `X | None`, by far the common union
    return UnionSpec(tuple(checked), allow_none, allow_other=len(checked) < len(members))


def tensor_specs(checker: Checker | None) -> list[TensorSpec]:
    """Every tensor annotation inside a compiled hint."""
    if checker is None:
        return []
    if isinstance(checker, TensorSpec):
        return [checker]
    return [spec for child in checker.children for spec in tensor_specs(child)]


class OptionalSpec:
    __slots__ = ("inner", "children")

    def __init__(self, inner: Checker):
        self.inner = inner
        self.children = (inner,)

    def check(self, value: Any, memo: dict) -> Mismatch | None:
        return None if value is None else self.inner.check(value, memo)


class UnionSpec:
    """A union with several checked members: each is tried on a copy of the memo so a failed try binds
    nothing. A non-tensor value passes when some member is unchecked (e.g. `int`), as we cannot disprove it."""

    __slots__ = ("members", "children", "allow_none", "allow_other")

    def __init__(self, members: tuple, allow_none: bool, allow_other: bool):
        self.members = self.children = members
        self.allow_none = allow_none
        self.allow_other = allow_other

    def check(self, value: Any, memo: dict) -> Mismatch | None:
        if value is None and self.allow_none:
            return None
        first = None
        for member in self.members:
            trial = dict(memo)
            mismatch = member.check(value, trial)
            if mismatch is None:
                memo.update(trial)
                return None
            first = first or mismatch
        if self.allow_other and not isinstance(value, torch.Tensor):
            return None
        return first


class TupleSpec:
    __slots__ = ("items", "children")

    def __init__(self, items: tuple):
        self.items = items
        self.children = tuple(item for item in items if item is not None)

    def check(self, value: Any, memo: dict) -> Mismatch | None:
        if not isinstance(value, tuple) or len(value) != len(self.items):
            return _container_mismatch(value, f"a tuple of {len(self.items)}")
        for index, (item, checker) in enumerate(zip(value, self.items)):
            if checker is not None:
                mismatch = checker.check(item, memo)
                if mismatch is not None:
                    mismatch.path.append(f"[{index}]")
                    return mismatch
        return None


class SequenceSpec:
    __slots__ = ("container", "item", "children")

    def __init__(self, container: type, item: Checker):
        self.container = container
        self.item = item
        self.children = (item,)

    def check(self, value: Any, memo: dict) -> Mismatch | None:
        if not isinstance(value, self.container) or isinstance(value, (str, bytes)):
            return _container_mismatch(value, f"a {self.container.__name__}")
        for index, item in enumerate(value):
            mismatch = self.item.check(item, memo)
            if mismatch is not None:
                mismatch.path.append(f"[{index}]")
                return mismatch
        return None


class MappingSpec:
    __slots__ = ("container", "value", "children")

    def __init__(self, container: type, value: Checker):
        self.container = container
        self.value = value
        self.children = (value,)

    def check(self, value: Any, memo: dict) -> Mismatch | None:
        if not isinstance(value, self.container):
            return _container_mismatch(value, f"a {self.container.__name__}")
        for key, item in value.items():
            mismatch = self.value.check(item, memo)
            if mismatch is not None:
                mismatch.path.append(f"[{key!r}]")
                return mismatch
        return None


def _container_mismatch(value: Any, wanted: str) -> Mismatch:
    return Mismatch(f"{{where}} is {type(value).__name__}, but the annotation needs {wanted}")
