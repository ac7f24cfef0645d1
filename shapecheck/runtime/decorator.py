"""`@shapecheck.check`: the decorator for functions, methods, classmethods, staticmethods and classes."""

from __future__ import annotations

import functools
import inspect
import types
import typing
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, overload

import torch
from torch import nn

from shapecheck.runtime import switch
from shapecheck.runtime.devices import Requirement
from shapecheck.runtime.errors import CheckError
from shapecheck.runtime.codegen import build_wrapper
from shapecheck.runtime.dependencies import required_by
from shapecheck.runtime.signature import Signature

T = TypeVar("T")

_CLASS_DONE = "__shapecheck_class__"  # in a class's own __dict__: its methods are already wrapped


# Code of functions the import hook found nothing to check in, so a nested one costs a lookup per definition.
_NOTHING_TO_CHECK: weakref.WeakSet[types.CodeType] = weakref.WeakSet()


@dataclass(frozen=True)
class Options:
    device: str | torch.device | None = None
    first: int | None = None
    types: bool = False

    def __post_init__(self) -> None:
        # Checked at decoration, where the mistake is written, never on the first call.
        if self.first is not None:
            if not isinstance(self.first, int) or isinstance(self.first, bool):
                raise TypeError(f"shapecheck.check() argument 'first' must be an int (a number of calls) or None, "
                                f"not {type(self.first).__name__}")
            if self.first < 0:
                raise ValueError(f"shapecheck.check() argument 'first' must be >= 0, got {self.first}")
        if not isinstance(self.types, bool):
            raise TypeError("shapecheck.check() argument 'types' must be True or False, "
                            f"not {type(self.types).__name__}")
        if self.device is not None:
            # Not an int: torch.device(0) means "accelerator 0", whichever kind this machine has, if any.
            if not isinstance(self.device, (str, torch.device)):
                raise TypeError(f"shapecheck.check() argument 'device' must be a device name (\"cuda\", \"cuda:1\"), "
                                f"a torch.device or None, not {type(self.device).__name__}")
            try:
                torch.device(self.device)
            except RuntimeError as error:  # torch's reason: "Expected one of cpu, cuda, ... device type ..."
                raise ValueError(f"shapecheck.check() argument 'device': {error}") from None


# Our wrappers -> (the function each wraps, its options), so decorating again re-wraps instead of stacking. A
# registry, not an attribute: functools.wraps copies attributes onto other decorators' wrappers, which must not
# pass for ours.
_ORIGINALS: weakref.WeakKeyDictionary[Callable, tuple[Callable, Options]] = weakref.WeakKeyDictionary()


@overload
def check(target: T, /) -> T: ...
@overload
def check(*, device: str | torch.device | None = None, first: int | None = None,
          types: bool = False) -> Callable[[T], T]: ...


def check(target: Any = None, /, *, device: str | torch.device | None = None, first: int | None = None,
          types: bool = False) -> Any:
    """Check tensor shapes, dtypes and device agreement on every call of a function, method or class.

    - `device="cuda"`: also require that device (`"cuda"` matches any `cuda:N`, `"cuda:1"` only that one).
    - `first=N`: check only the first N calls (for hot paths once the shapes are known to be right).
    - `types=True`: also check the non-tensor hints, with beartype.

    On an `nn.Module` subclass, `forward` is checked together with the module's parameters and buffers, and
    every other method with tensor annotations is checked too. With SHAPECHECK_DISABLE=1 in the environment at
    import time, returns `target` itself.
    """
    options = Options(device, first, types)
    if target is None:
        return lambda decorated: decorate(decorated, options)
    return decorate(target, options)


def decorate(target: Any, options: Options, only_annotated: bool = False) -> Any:
    """`check` with its options already validated. `only_annotated` (the import hook) leaves functions without
    tensor annotations unwrapped and keeps any decoration the user wrote."""
    if switch.DISABLED_BY_ENV:
        return target
    if isinstance(target, type):
        return _decorate_class(target, options)
    if isinstance(target, (staticmethod, classmethod)):
        inner = decorate(target.__func__, options, only_annotated)
        return target if inner is target.__func__ else type(target)(inner)
    if not inspect.isfunction(target):
        hint = f"; to require a device, write @shapecheck.check(device={target!r})" if isinstance(target, str) else ""
        raise TypeError(f"shapecheck.check decorates functions, methods and classes, not {type(target).__name__}"
                        f"{hint}")
    return _decorate_function(target, options, only_annotated, module_method=_defined_as_forward(target))


def _defined_as_forward(function: Callable) -> bool:
    """A `forward` written in a class body and decorated on its own, the jaxtyping way: its class does not exist
    yet, so whether `self` is an nn.Module whose parameters and buffers join device agreement is found out per
    call."""
    # Cheap, from the code object: the import hook decorates a nested function each time its parent runs.
    *_, owner, name = ["", *function.__qualname__.split(".")]
    return name == "forward" and owner not in ("", "<locals>") and function.__code__.co_argcount > 0


def _decorate_class(cls: type, options: Options) -> type:
    if _CLASS_DONE in cls.__dict__:
        return cls
    is_module = issubclass(cls, nn.Module)
    for name, attr in list(vars(cls).items()):
        if isinstance(attr, (staticmethod, classmethod)):
            wrapped = decorate(attr, options, only_annotated=True)
        elif isinstance(attr, property) and attr.fget is not None:
            getter = _decorate_function(attr.fget, options, only_annotated=True, module_method=False)
            wrapped = attr if getter is attr.fget else attr.getter(getter)
        elif inspect.isfunction(attr):
            forward = is_module and name == "forward"
            wrapped = _decorate_function(attr, options, only_annotated=not forward, module_method=forward)
        else:
            continue
        if wrapped is not attr:
            setattr(cls, name, wrapped)
    setattr(cls, _CLASS_DONE, True)
    return cls


def _decorate_function(function: Callable, options: Options, only_annotated: bool, module_method: bool) -> Any:
    if function in _ORIGINALS:
        original, own_options = _ORIGINALS[function]
        if module_method:
            # A class decorator upgrading an explicitly checked forward: add the module's tensors, keep the
            # options the user gave that forward.
            function, options = original, own_options
        elif only_annotated:
            return function  # already checked, with options the user chose
        else:
            function = original  # the outer decorator's options win; one wrapper, never two
    if only_annotated and function.__code__ in _NOTHING_TO_CHECK:
        return function  # a nested function the import hook met before: defined anew on each call of its parent
    hints, unresolved = _resolve_hints(function)
    if unresolved and not only_annotated:
        # A name not defined yet (the class being decorated, an alias further down): try again on the first
        # call. The import hook does not wait: names imported only under TYPE_CHECKING never resolve, and
        # those are never tensor annotations.
        checked = _deferred(function, options, module_method)
    else:
        signature = _signature(function, hints, options, module_method)
        if only_annotated and not (signature.checks_anything or signature.requirement or module_method):
            _NOTHING_TO_CHECK.add(function.__code__)
            return function  # the hook's decorator on a function without tensor annotations: zero cost
        checked = _compile(signature, options)
    _ORIGINALS[checked] = (function, options)
    return checked


def _signature(function: Callable, hints: dict[str, Any], options: Options, module_method: bool) -> Signature:
    requirement = Requirement(options.device) if options.device is not None else None
    return Signature(function, hints, requirement=requirement, module_method=module_method)


def _compile(signature: Signature, options: Options) -> Callable:
    function = signature.function
    call = _beartyped(function, signature.hints) if options.types else function
    return functools.update_wrapper(build_wrapper(function, call, signature, options.first), function)


def _deferred(function: Callable, options: Options, module_method: bool) -> Callable:
    compiled: list[Callable] = []

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # pytest: show the caller's line, not this forwarding frame and its arguments
        if not compiled:
            hints, unresolved = _resolve_hints(function)
            for name in unresolved:
                warnings.warn(f"shapecheck: {function.__qualname__}() annotation {name}: "
                              f"{function.__annotations__[name]!r} does not resolve, so it is not checked",
                              stacklevel=2)
            compiled.append(_compile(_signature(function, hints, options, module_method), options))
        return compiled[0](*args, **kwargs)

    return checked


def _resolve_hints(function: Callable) -> tuple[dict[str, Any], list[str]]:
    """`typing.get_type_hints`, one annotation at a time: the resolved hints, and the names whose annotation
    does not resolve (yet)."""
    try:
        return typing.get_type_hints(function, include_extras=True), []
    except Exception:  # noqa: BLE001 - find out which annotation it was
        pass
    hints, unresolved = {}, []
    for name, annotation in getattr(function, "__annotations__", {}).items():
        holder = types.SimpleNamespace(__annotations__={name: annotation})
        try:
            hints.update(typing.get_type_hints(holder, function.__globals__, include_extras=True))
        except Exception:  # noqa: BLE001 - unresolvable means unchecked, never a failed call
            unresolved.append(name)
    return hints, unresolved


def _beartyped(function: Callable, hints: dict[str, Any]) -> Callable:
    """beartype over a copy of `function` whose tensor annotations are reduced to their array type: beartype
    would otherwise run jaxtyping's metaclass isinstance (slow, and wrong under torch.compile) on them. Its
    violations are re-raised as CheckError, so one `except` catches every failed check."""
    with required_by("shapecheck.check(types=True)"):
        from beartype import beartype
        from beartype.roar import BeartypeCallHintViolation

    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    copy.__module__ = function.__module__
    copy.__annotations__ = {name: _without_shapes(hint) for name, hint in hints.items()}
    typed = beartype(copy)

    def call(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        try:
            return typed(*args, **kwargs)
        except BeartypeCallHintViolation as violation:
            # The message is the violation's; chaining it would print beartype's frames and these arguments.
            raise CheckError(f"shapecheck (types=True): {violation}") from None

    return call


def _without_shapes(hint: Any) -> Any:
    from jaxtyping import AbstractArray

    if isinstance(hint, type) and issubclass(hint, AbstractArray):
        return hint.array_type
    args = typing.get_args(hint)
    if not args:
        return hint
    stripped = tuple(_without_shapes(arg) for arg in args)
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return typing.Union[stripped]
    if isinstance(hint, types.GenericAlias):
        return types.GenericAlias(origin, stripped)
    if hasattr(hint, "copy_with") and origin is not typing.Annotated:
        return hint.copy_with(stripped)
    return typing.Any  # a form we cannot rebuild: better unchecked than wrongly checked
