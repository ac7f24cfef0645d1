"""What to check in one function, compiled from its hints once, and the explanations when a check fails.

The per-call code is generated from this by `codegen.py`; everything here past `__init__` runs only after a
check has failed (or two devices met), so it favours clarity over speed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NoReturn

import torch
from torch import nn

from shapecheck.runtime import devices, report
from shapecheck.runtime.errors import ShapeError
from shapecheck.runtime.hints import Checker, MappingSpec, OptionalSpec, SequenceSpec, compile_hint, tensor_specs
from shapecheck.runtime.tensor_spec import Mismatch

MISSING = object()  # stands for "no return value yet" in reports


class Param:
    __slots__ = ("name", "kind", "default", "checker")

    def __init__(self, param: inspect.Parameter, checker: Checker | None):
        self.name = param.name
        self.kind = param.kind
        self.default = param.default
        if checker is not None and param.default is None and not isinstance(checker, OptionalSpec):
            checker = OptionalSpec(checker)  # `mask: Float[Tensor, "B T"] = None`: the default is never wrong
        elif checker is not None and param.kind is param.VAR_POSITIONAL:
            checker = SequenceSpec(tuple, checker)  # `*xs: Float[...]` annotates each element of xs
        elif checker is not None and param.kind is param.VAR_KEYWORD:
            checker = MappingSpec(dict, checker)
        self.checker = checker


class Signature:
    def __init__(self, function: Callable, hints: dict[str, Any], *, requirement: devices.Requirement | None,
                 module_method: bool):
        self.function = function
        self.name = function.__qualname__
        self.hints = hints
        self.requirement = requirement
        # The first parameter, when it is an nn.Module, brings its parameters and buffers into device agreement.
        self.module_method = module_method
        self.params = [Param(param, compile_hint(hints[param.name]) if param.name in hints else None)
                       for param in inspect.signature(function).parameters.values()]
        # A coroutine or generator returns its promise, not the annotated value, so returns go unchecked.
        plain = not (inspect.iscoroutinefunction(function) or inspect.isgeneratorfunction(function) or
                     inspect.isasyncgenfunction(function))
        self.returns = compile_hint(hints["return"]) if plain and "return" in hints else None
        checkers = [param.checker for param in self.params] + [self.returns]
        self.arg_refs = sorted({ref for checker in checkers for spec in tensor_specs(checker)
                                for ref in spec.arg_refs})

    @property
    def checks_anything(self) -> bool:
        return self.returns is not None or any(param.checker is not None for param in self.params)

    def shape_error(self, name: str, mismatch: Mismatch, values: dict[str, Any], result: Any = MISSING) -> ShapeError:
        """The error for `mismatch`, found in parameter `name` (or in the return value when `name` is
        "return"); `values` maps every parameter to its value in this call."""
        items = [(param.name, param.checker, values[param.name]) for param in self.params
                 if param.checker is not None]
        if name == "return":
            items.append(("return", self.returns, result))
            role = "return value"
        else:
            role = f"argument '{name}'"
        memo = {"{" + ref + "}": values[ref] for ref in self.arg_refs}
        origin = _origin_of(mismatch.dim, items, dict(memo)) if mismatch.dim else ""
        for _, checker, value in items:  # replay, to show the bindings as they stood at the failure
            if checker.check(value, memo) is not None:
                break
        return report.shape_error(self.name, role, self.hints.get(name), mismatch.text(name, origin), memo,
                                  self._report_values(values, result))

    def settle_devices(self, values: dict[str, Any], result: Any = MISSING) -> torch.device | None:
        """The fast fold met two devices: fine if one side held only 0-d CPU tensors, else a DeviceError."""
        __tracebackhide__ = True  # pytest: a frame of ours, whose arguments are the caller's tensors
        by_device = devices.groups(self._named_tensors(values, result))
        if len(by_device) > 1:
            raise report.device_error(self.name, by_device, self._report_values(values, result))
        return next(iter(by_device), None)

    def device_required(self, values: dict[str, Any], result: Any = MISSING) -> NoReturn:
        __tracebackhide__ = True
        by_device = devices.groups(self._named_tensors(values, result))
        raise report.device_error(self.name, by_device, self._report_values(values, result),
                                  required=self.requirement.wanted)

    def _named_tensors(self, values: dict[str, Any], result: Any) -> list[tuple[str, torch.Tensor]]:
        named = [pair for name, value in self._report_values(values, result)
                 for pair in devices.named_tensors(name, value)]
        owner = values[self.params[0].name] if self.module_method else None
        if isinstance(owner, nn.Module):
            named += devices.module_tensors(owner)
        return named

    def _report_values(self, values: dict[str, Any], result: Any) -> list[tuple[str, Any]]:
        """(label, value) per argument, spreading out *args and **kwargs, then the return value if any."""
        labelled = []
        for param in self.params:
            value = values[param.name]
            if param.kind is inspect.Parameter.VAR_POSITIONAL:
                labelled += [(f"{param.name}[{index}]", item) for index, item in enumerate(value)]
            elif param.kind is inspect.Parameter.VAR_KEYWORD:
                labelled += list(value.items())
            else:
                labelled.append((param.name, value))
        return labelled if result is MISSING else [*labelled, ("return", result)]


# Seeded into a memo to find where a dimension was first bound: no tensor has a size of -1 and a `*name` binding is
# never None, so a check fails exactly at the first use of that name. Plain values, not an object with a custom
# `__eq__`, because this runs inside code that torch.compile traces, and dynamo (torch 2.11) cannot trace such objects.
_POISONED_SIZE = -1
_POISONED_SIZES = (False, None)


def _origin_of(dim: str, items: list[tuple[str, Checker, Any]], memo: dict) -> str:
    """Where `dim` got its value in this call, e.g. `q.shape[3]`: replay the checks in order, and at the first
    value that binds it, re-check that value with the binding poisoned; the check then fails on that axis."""
    for name, checker, value in items:
        before = dict(memo)
        checker.check(value, memo)
        if dim in memo:
            before[dim] = _POISONED_SIZES if dim.startswith("*") else _POISONED_SIZE
            found = checker.check(value, before)
            return f"{found.where(name)}.{found.axis}" if found is not None and found.axis else name
    return "an earlier argument"
