"""The checked wrapper of one function, generated as Python source with the function's own parameter list.

A generic `def wrapper(*args, **kwargs)` spends about as long packing its arguments and binding them to
parameter names as the whole check is allowed to take. A wrapper declared `def attend(q, k, /, *, scale=...)`
gets its arguments bound by the interpreter for free, keeps each in a local, and raises the function's own
TypeError for a bad call. Its body is straight-line code: each tensor annotation inlined as one boolean
expression (other hints call their checker), then an unrolled device fold, then the call, then the same for
the return value. Nothing in it formats strings, builds dicts beyond the memo, or calls `inspect`, so dynamo
traces it.

Failures hand over to `Signature` (in signature.py), which explains them.
"""

from __future__ import annotations

import inspect
import keyword
import linecache
from collections.abc import Callable
from typing import Any

import torch

from shapecheck.runtime import devices, switch
from shapecheck.runtime.signature import Param, Signature
from shapecheck.runtime.tensor_spec import BUILTINS, TensorSpec, compiled, fits

_Kind = inspect.Parameter  # parameter kinds and `empty`

# Annotations that rule tensors out: no device fold for such parameters.
_NO_TENSORS = frozenset({int, float, bool, complex, str, bytes, type(None)})


def build_wrapper(function: Callable, call: Callable, signature: Signature, first: int | None) -> Callable:
    """`call` with `signature`'s checks around it; `function` lends the parameter list and the name.
    `first`: check only the first N eager calls."""
    namespace: dict[str, Any] = {
        "_sc_switch": switch, "_sc_raw": function, "_sc_call": call, "_sc_sig": signature,
        "_sc_Tensor": torch.Tensor, "_sc_CONTAINERS": (list, tuple, dict), "_sc_CPU": torch.device("cpu"),
        "_sc_MIXED": devices.MIXED, "_sc_fold": devices.fold, "_sc_fold_module": devices.fold_module,
        "_sc_Module": torch.nn.Module,
        "_sc_is_compiling": torch.compiler.is_compiling, "_sc_calls": [0], **BUILTINS,
    }
    if signature.requirement is not None:
        namespace["_sc_allows"] = signature.requirement.allows
    params = signature.params
    call_args = ", ".join(_call_arg(param) for param in params)
    values = "{" + ", ".join(f"{param.name!r}: {param.name}" for param in params) + "}"
    name = function.__name__ if function.__name__.isidentifier() and not keyword.iskeyword(function.__name__) \
        else "checked"

    kind = _kind(function)
    asynchronous = "async " if kind in ("coroutine", "async generator") else ""
    lines = [f"{asynchronous}def {name}({_parameter_list(params, namespace)}):",
             "    __tracebackhide__ = True  # pytest: show the caller's line, not this wrapper's",
             "    if not _sc_switch.enabled:",
             *_return_call("_sc_raw", call_args, kind, "        ")]
    if first is not None:
        # Under torch.compile the checks turn into guards and cost nothing per call, while a changing counter
        # would force a recompile per call: sampling applies to eager calls only.
        lines += ["    if not _sc_is_compiling():",
                  f"        if _sc_calls[0] >= {first}:",
                  *_return_call("_sc_raw", call_args, kind, "            "),
                  "        _sc_calls[0] += 1"]
    lines += ["    _sc_memo = {}", "    _sc_bind = _sc_memo.setdefault"]
    lines += [f"    _sc_memo[{'{' + ref + '}'!r}] = {ref}" for ref in signature.arg_refs]
    for index, param in enumerate(signature.params):
        if param.checker is not None:
            lines += _check_lines(param.checker, param.name, f"_sc_{index}_", repr(param.name), values, namespace)
    lines.append("    _sc_shared = None")
    for param in signature.params:
        lines += _fold_lines(param.name, param.kind, param.checker, signature.hints.get(param.name))
    if signature.module_method:
        # One isinstance: a `forward` decorated on its own cannot know its class, and a class decorator's
        # forward may still be called unbound.
        lines += [f"    if _sc_isinstance({params[0].name}, _sc_Module):",
                  f"        _sc_shared = _sc_fold_module({params[0].name}, _sc_shared)"]
    lines += _settle_lines(signature, values, "")
    if kind is not None:  # its result is a promise (the annotated value comes later): nothing to check after
        lines += _return_call("_sc_call", call_args, kind, "    ")
        return _define(function, name, lines, namespace)
    lines.append(f"    _sc_result = _sc_call({call_args})")
    if signature.returns is not None:
        lines += _check_lines(signature.returns, "_sc_result", "_sc_return_", "'return'", f"{values}, _sc_result",
                              namespace)
    lines += _fold_lines("_sc_result", None, signature.returns, signature.hints.get("return"))
    lines += _settle_lines(signature, values, ", _sc_result")
    lines.append("    return _sc_result")
    return _define(function, name, lines, namespace)


def _kind(function: Callable) -> str | None:
    """What calling `function` gives other than its value; the wrapper must be of the same kind, for
    `inspect.iscoroutinefunction` and the like (asyncio, pytest, FastAPI ask)."""
    if inspect.iscoroutinefunction(function):
        return "coroutine"
    if inspect.isasyncgenfunction(function):
        return "async generator"
    if inspect.isgeneratorfunction(function):
        return "generator"
    return None


def _return_call(target: str, call_args: str, kind: str | None, indent: str) -> list[str]:
    """Lines that call `target` and hand back what it gives, in a wrapper of `kind`."""
    call = f"{target}({call_args})"
    if kind is None:
        return [f"{indent}return {call}"]
    if kind == "coroutine":
        return [f"{indent}return await {call}"]
    if kind == "generator":
        return [f"{indent}return (yield from {call})"]
    # `yield from` is not allowed in an async generator: forward what is sent by hand.
    return [f"{indent}_sc_gen = {call}",
            f"{indent}_sc_sent = None",
            f"{indent}while True:",
            f"{indent}    try:",
            f"{indent}        _sc_item = await _sc_gen.asend(_sc_sent)",
            f"{indent}    except StopAsyncIteration:",
            f"{indent}        return",
            f"{indent}    _sc_sent = yield _sc_item"]


def _define(function: Callable, name: str, lines: list[str], namespace: dict[str, Any]) -> Callable:
    source = "\n".join(lines) + "\n"
    filename = f"<shapecheck wrapper of {function.__module__}.{function.__qualname__}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)  # readable tracebacks
    exec(compiled(source, filename), namespace)  # noqa: S102
    return namespace[name]


def _check_lines(checker: Any, value: str, prefix: str, name: str, values: str,
                 namespace: dict[str, Any]) -> list[str]:
    """Check `value`, raising the explained ShapeError on failure. A tensor annotation is inlined (see
    tensor_spec.fits); anything else (Optional, containers) calls its checker."""
    if isinstance(checker, TensorSpec):
        condition, names = fits(checker, value, prefix)
        namespace.update(names)
        namespace[prefix + "explain"] = checker.explain
        # The try costs nothing until it catches: a nested tensor has no .shape, and explain says so.
        return ["    try:",
                f"        _sc_ok = {condition}",
                "    except RuntimeError:",
                "        _sc_ok = False",
                "    if not _sc_ok:",
                f"        _sc_m = {prefix}explain({value}, _sc_memo)",
                "        if _sc_m is not None:",
                f"            raise _sc_sig.shape_error({name}, _sc_m, {values})"]
    namespace[prefix + "check"] = checker.check
    return [f"    _sc_m = {prefix}check({value}, _sc_memo)",
            "    if _sc_m is not None:",
            f"        raise _sc_sig.shape_error({name}, _sc_m, {values})"]


def _parameter_list(params: list[Param], namespace: dict[str, Any]) -> str:
    """The function's own parameters, defaults referring to the very same objects, annotations left off."""
    parts = []
    for index, param in enumerate(params):
        if param.kind is _Kind.KEYWORD_ONLY and not any(p.kind is _Kind.VAR_POSITIONAL for p in params) and \
                (index == 0 or params[index - 1].kind is not _Kind.KEYWORD_ONLY):
            parts.append("*")
        text = {_Kind.VAR_POSITIONAL: "*", _Kind.VAR_KEYWORD: "**"}.get(param.kind, "") + param.name
        if param.default is not _Kind.empty:
            namespace[f"_sc_default{index}"] = param.default
            text += f"=_sc_default{index}"
        parts.append(text)
        if param.kind is _Kind.POSITIONAL_ONLY and (index + 1 == len(params) or
                                                    params[index + 1].kind is not _Kind.POSITIONAL_ONLY):
            parts.append("/")
    return ", ".join(parts)


def _call_arg(param: Param) -> str:
    if param.kind is _Kind.VAR_POSITIONAL:
        return "*" + param.name
    if param.kind is _Kind.VAR_KEYWORD:
        return "**" + param.name
    if param.kind is _Kind.KEYWORD_ONLY:
        return f"{param.name}={param.name}"
    return param.name


def _fold_lines(name: str, kind: Any, checker: Any, hint: Any) -> list[str]:
    """Fold the device(s) of one value into `_sc_shared` (see devices.fold for the rules)."""
    if kind is _Kind.VAR_POSITIONAL:
        return [f"    _sc_shared = _sc_fold({name}, _sc_shared)"]
    if kind is _Kind.VAR_KEYWORD:
        return [f"    _sc_shared = _sc_fold({name}.values(), _sc_shared)"]
    if isinstance(hint, type) and hint in _NO_TENSORS:
        return []
    tensor = [f"_sc_device = {name}.device",
              "if _sc_device != _sc_shared:",
              "    if _sc_shared is None:",
              "        _sc_shared = _sc_device",
              f"    elif not (_sc_device == _sc_CPU and {name}.dim() == 0):",
              "        _sc_shared = _sc_MIXED"]
    if isinstance(checker, TensorSpec):  # it passed its check, so it is a tensor
        return ["    " + line for line in tensor]
    return ([f"    if _sc_isinstance({name}, _sc_Tensor):"] + ["        " + line for line in tensor] +
            [f"    elif _sc_isinstance({name}, _sc_CONTAINERS):",
             f"        _sc_shared = _sc_fold(({name},), _sc_shared)"])


def _settle_lines(signature: Signature, values: str, result: str) -> list[str]:
    lines = ["    if _sc_shared is _sc_MIXED:",
             f"        _sc_shared = _sc_sig.settle_devices({values}{result})"]
    if signature.requirement is not None:
        lines += ["    if _sc_shared is not None and not _sc_allows(_sc_shared):",
                  f"        _sc_sig.device_required({values}{result})"]
    return lines
