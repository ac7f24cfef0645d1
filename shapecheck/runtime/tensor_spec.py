"""One jaxtyping tensor annotation, compiled once into a checker that is plain Python over `.shape` and `.dtype`.

jaxtyping has already parsed the annotation (`Float[Tensor, "B T D"]` carries `dims`, `dim_str` and `dtypes`);
this module turns that parse into per-axis tuples, and those into a small generated function. The check binds
dimension names in a per-call `memo` dict shared by all arguments of one call, so `x: "B D"` and `w: "D E"`
must agree on D. Nothing here formats a string on success, calls `inspect`, or runs jaxtyping's metaclass
`isinstance`, so dynamo can trace it into guards under `torch.compile`.

The checkers return None when the value fits, else a `Mismatch` that `report.py` turns into the error text.
"""

from __future__ import annotations

import ast
import builtins
import functools
import string
import types
from typing import Any

import torch
from jaxtyping import AbstractArray
from jaxtyping import _array_types as jt  # the parsed-dimension classes; jaxtyping has no public name for them

from shapecheck.runtime.text import dtype_text, hint_text, shape_text


class Mismatch:
    """Why a value failed its annotation, kept as data until the error is actually reported.

    `reason` is a template with `{where}` (the value's path, e.g. `k` or `xs[1]`) and, when `dim` names an
    earlier binding it conflicts with, `{origin}` (where that binding came from, found only on failure).
    """

    __slots__ = ("reason", "axis", "dim", "path")

    def __init__(self, reason: str, axis: str = "", dim: str | None = None):
        self.reason = reason
        self.axis = axis  # e.g. "shape[2]": where in the value the failing dimension sits
        self.dim = dim  # memo key of the earlier binding this value conflicts with
        self.path: list[str] = []  # container steps, innermost first (appended on the way out)

    def where(self, root: str) -> str:
        return root + "".join(reversed(self.path))

    def text(self, root: str, origin: str) -> str:
        # Not str.format: the reason may quote a symbolic dimension such as `{n}+1`.
        return self.reason.replace("{where}", self.where(root)).replace("{origin}", origin)


# Kinds of the per-axis operations that need more than "bind a name" or "compare to a constant".
_NAMED, _FIXED, _SYMBOLIC, _VARIADIC = range(4)


class TensorSpec:
    """Checker for one `Dtype[Tensor, "dims"]` annotation (or a bare `torch.Tensor`, which checks nothing but
    still takes part in device agreement)."""

    __slots__ = ("annotation", "label", "dtypes", "rank", "min_rank", "named", "fixed", "others", "arg_refs",
                 "check")

    def __init__(self, annotation: Any):
        self.annotation = annotation
        self.label = hint_text(annotation)
        self.named: tuple[tuple[int, str], ...] = ()  # (axis, name): the common case gets its own tight loop
        self.fixed: tuple[tuple[int, int], ...] = ()  # (axis, size)
        self.others: tuple[tuple, ...] = ()  # (kind, axis, broadcastable, payload), in axis order
        self.arg_refs: frozenset[str] = frozenset()  # argument names used by `{arg}` in symbolic dims
        if not (isinstance(annotation, type) and issubclass(annotation, AbstractArray)):
            self.dtypes = None
            self.rank = None
            self.min_rank = 0
            self.check = _fast_check(self)
            return
        self.dtypes = _torch_dtypes(annotation.dtypes)
        dims = annotation.dims
        variadic = annotation.index_variadic
        self.rank = None if variadic is not None else len(dims)
        self.min_rank = len(dims) - (variadic is not None)
        named, fixed, others, arg_refs = [], [], [], set()
        for index, dim in enumerate(dims):
            # Axes after a variadic one are counted from the end, so one index serves every rank.
            axis = index if variadic is None or index < variadic else index - len(dims)
            if dim is jt._anonymous_dim or dim is jt._anonymous_variadic_dim:
                continue
            kind = type(dim)
            if kind is jt._NamedVariadicDim:
                stop = index - len(dims) + 1 or None
                others.append((_VARIADIC, slice(index, stop), dim.broadcastable, "*" + dim.name))
            elif kind is jt._SymbolicDim:
                symbolic = _Symbolic(dim.elem)
                arg_refs.update(symbolic.arg_names)
                others.append((_SYMBOLIC, axis, dim.broadcastable, symbolic))
            elif dim.broadcastable:
                payload = dim.size if kind is jt._FixedDim else dim.name
                others.append((_FIXED if kind is jt._FixedDim else _NAMED, axis, True, payload))
            elif kind is jt._FixedDim:
                fixed.append((axis, dim.size))
            else:  # _NamedDim; jaxtyping's `?name` tree-path prefix means nothing outside PyTrees
                named.append((axis, dim.name))
        self.named, self.fixed, self.others = tuple(named), tuple(fixed), tuple(others)
        self.arg_refs = frozenset(arg_refs)
        # `check(value, memo)`: the per-call entry point, generated code equivalent to `explain`.
        self.check = _fast_check(self)

    def explain(self, value: Any, memo: dict) -> Mismatch | None:
        """The reference check: what the generated `check` does, plus the Mismatch that says why."""
        if not isinstance(value, torch.Tensor):
            return Mismatch(f"{{where}} is {_type_name(value)}, not a Tensor")
        if value.is_nested:
            return Mismatch(f"{{where}} is a nested tensor, whose parts differ in shape: {self.label} needs one "
                            "shape")
        shape = value.shape
        rank = len(shape)
        if rank != self.rank and (self.rank is not None or rank < self.min_rank):
            return self._rank_mismatch(rank)
        if self.dtypes is not None and value.dtype not in self.dtypes:
            return Mismatch(f"{{where}} has dtype {dtype_text(value.dtype)}, but {self.label} needs "
                            f"{_dtype_choice(self.annotation)}")
        for axis, name in self.named:
            size = shape[axis]
            bound = memo.setdefault(name, size)
            if bound != size:
                return _conflict(axis, rank, name, size, bound)
        for axis, size in self.fixed:
            if shape[axis] != size:
                return Mismatch(f"{{where}}.shape[{axis % rank}] is {shape[axis]}, but the annotation "
                                f"fixes it to {size}", f"shape[{axis % rank}]")
        if self.others:
            return self._check_others(shape, rank, memo)
        return None

    def _check_others(self, shape: torch.Size, rank: int, memo: dict) -> Mismatch | None:
        for kind, axis, broadcastable, payload in self.others:
            if kind == _VARIADIC:
                mismatch = self._check_variadic(shape[axis], axis, rank, broadcastable, payload, memo)
                if mismatch is not None:
                    return mismatch
                continue
            size = shape[axis]
            if broadcastable and size == 1:
                continue
            if kind == _NAMED:
                bound = memo.setdefault(payload, size)
                if bound != size:
                    return _conflict(axis, rank, payload, size, bound)
            elif kind == _FIXED:
                if size != payload:
                    return Mismatch(f"{{where}}.shape[{axis % rank}] is {size}, but the annotation fixes "
                                    f"it to {payload} (or 1)", f"shape[{axis % rank}]")
            else:
                mismatch = payload.check(size, axis % rank, memo)
                if mismatch is not None:
                    return mismatch
        return None

    def _check_variadic(self, sizes: torch.Size, window: slice, rank: int, broadcastable: bool, key: str,
                        memo: dict) -> Mismatch | None:
        # jaxtyping's rules: `*b` must repeat exactly; `*#b` need only broadcast with the earlier uses.
        previous = memo.get(key)
        if previous is None:
            memo[key] = (broadcastable, sizes)
            return None
        was_broadcastable, bound = previous
        if bound is None:  # poisoned by `signature._origin_of`: this is where `key` was first bound
            start, stop, _ = window.indices(rank)
            return Mismatch(f"{{where}} binds {key}", f"shape[{start}:{stop}]", key)
        if was_broadcastable:
            merged = _broadcast(sizes, bound)
            if merged is not None and (broadcastable or merged == sizes):
                memo[key] = (broadcastable, merged)
                return None
        elif broadcastable:
            merged = _broadcast(sizes, bound)
            if merged is not None and merged == bound:
                return None
        elif sizes == bound:
            return None
        start, stop, _ = window.indices(rank)
        at = f"shape[{start}:{stop}]"
        how = " (and they do not broadcast)" if broadcastable or was_broadcastable else ""
        return Mismatch(f"{{where}}.{at} is {key}={shape_text(sizes)}, but {{origin}} bound "
                        f"{key}={shape_text(bound)}{how}", at, key)

    def _rank_mismatch(self, rank: int) -> Mismatch:
        wanted = f"{self.rank}" if self.rank is not None else f"at least {self.min_rank}"
        return Mismatch(f"{{where}} has {rank} dimension{'s' * (rank != 1)}, but {self.label} needs "
                        f"{wanted}")


def fits(spec: TensorSpec, value: str, prefix: str) -> tuple[str, dict[str, Any]]:
    """`spec.explain(value) is None` as one Python expression without the reasons, for generated code.

    Straight-line code is faster than `explain`'s loops (no tuple unpacking per axis, constants instead of
    attribute loads) with a budget of a few microseconds for a whole call. Returns the expression and the
    names it needs besides the host's `_sc_Tensor`, `_sc_memo` and `_sc_bind` (= `_sc_memo.setdefault`); their
    names start with `prefix`. When it is False, `explain` re-checks from the same memo (bindings the value
    already made agree with it) and says why. `others` axes (variadic, broadcastable, symbolic) run
    `explain`'s own loop.
    """
    # Builtins by their `_sc_` names: a parameter may be called `len` or `isinstance`.
    terms = [f"_sc_isinstance({value}, _sc_Tensor)"]
    rank = f"_sc_len(_sc_s := {value}.shape)"
    terms.append(f"{rank} == {spec.rank}" if spec.rank is not None else f"{rank} >= {spec.min_rank}")
    names: dict[str, Any] = {}
    if spec.dtypes is not None:
        names[prefix + "dtypes"] = spec.dtypes
        terms.append(f"{value}.dtype in {prefix}dtypes")
    terms += [f"_sc_s[{axis}] == {size}" for axis, size in spec.fixed]
    terms += [f"(_sc_d := _sc_s[{axis}]) == _sc_bind({name!r}, _sc_d)" for axis, name in spec.named]
    if spec.others:
        names[prefix + "others"] = spec._check_others
        terms.append(f"{prefix}others(_sc_s, _sc_len(_sc_s), _sc_memo) is None")
    return " and ".join(terms), names


@functools.lru_cache(maxsize=4096)
def compiled(source: str, filename: str) -> types.CodeType:
    """Generated source, compiled once: a function defined inside another is decorated on every call of its
    parent (the import hook does that), and compiling is most of what decorating costs."""
    return compile(source, filename, "exec")


# The builtins generated code calls, under names no parameter can take.
BUILTINS = {"_sc_isinstance": isinstance, "_sc_len": len}


def _fast_check(spec: TensorSpec) -> Any:
    """`spec.explain` as a generated function around `fits`, for specs inside containers and unions."""
    condition, namespace = fits(spec, "_sc_value", "_sc_")
    source = ("def check(_sc_value, _sc_memo):\n"
              "    _sc_bind = _sc_memo.setdefault\n"
              "    try:\n"
              f"        if {condition}:\n"
              "            return None\n"
              "    except RuntimeError:  # a nested tensor has no .shape: explain says so\n"
              "        pass\n"
              "    return _sc_explain(_sc_value, _sc_memo)\n")
    namespace.update(BUILTINS, _sc_Tensor=torch.Tensor, _sc_explain=spec.explain)
    exec(compiled(source, f"<shapecheck {spec.label}>"), namespace)  # noqa: S102
    return namespace["check"]


def _conflict(axis: int, rank: int, name: str, size: int, bound: Any) -> Mismatch:
    at = f"shape[{axis % rank}]"
    return Mismatch(f"{{where}}.{at} is {name}={size}, but {{origin}} bound {name}={bound}", at, name)


class _Symbolic:
    """A symbolic dimension such as `T*2` or `{n}+1`, compiled once into a function of the names it uses.

    jaxtyping `eval`s the string on every check; a compiled function instead lets dynamo trace the arithmetic.
    `{arg}` substitutes the value of argument `arg` (jaxtyping's f-string form); other names are dimensions
    bound earlier in the same call, except Python builtins such as `min`.
    """

    __slots__ = ("text", "keys", "arg_names", "function")

    def __init__(self, text: str):
        self.text = text
        pieces, arg_names = [], []
        for literal, field, _, _ in string.Formatter().parse(text):
            pieces.append(literal)
            if field is not None:
                if not field.isidentifier():
                    raise ValueError(f"shapecheck: in symbolic dimension {text!r}, `{{{field}}}` must name an "
                                     "argument")
                arg_names.append(field)
                pieces.append(f"__arg_{field}")
        expression = "".join(pieces)
        tree = ast.parse(expression, mode="eval")
        names = sorted({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} - set(dir(builtins)))
        self.arg_names = frozenset(arg_names)
        self.keys = tuple("{" + name[6:] + "}" if name.startswith("__arg_") else name for name in names)
        self.function = eval(f"lambda {', '.join(names)}: ({expression})", {"__builtins__": builtins})  # noqa: S307

    def check(self, size: int, axis: int, memo: dict) -> Mismatch | None:
        values = []
        for key in self.keys:
            value = memo.get(key, _UNBOUND)
            if value is _UNBOUND:
                return Mismatch(f"{{where}}.shape[{axis}] is {self.text}, but {key} is not bound by any "
                                f"earlier argument", f"shape[{axis}]")
            values.append(value)
        try:
            expected = self.function(*values)
        except Exception as error:  # noqa: BLE001 - `{n}+1` with n=None: the caller's mistake, explained
            bindings = ", ".join(f"{key}={value!r}" for key, value in zip(self.keys, values))
            return Mismatch(f"{{where}}.shape[{axis}] is {self.text}, which cannot be computed with {bindings} "
                            f"({type(error).__name__}: {error})", f"shape[{axis}]")
        if size != expected:
            bindings = ", ".join(f"{key}={value}" for key, value in zip(self.keys, values))
            return Mismatch(f"{{where}}.shape[{axis}] is {size}, but {self.text} = {expected} "
                            f"(with {bindings})", f"shape[{axis}]")
        return None


_UNBOUND = object()


def _broadcast(first: tuple, second: tuple) -> tuple | None:
    """numpy's broadcast_shapes for two shapes, or None when they do not broadcast."""
    if len(first) < len(second):
        first, second = second, first
    merged = list(first)
    offset = len(first) - len(second)
    for index, size in enumerate(second):
        mine = merged[offset + index]
        if mine == 1:
            merged[offset + index] = size
        elif size != 1 and size != mine:
            return None
    return tuple(merged)


def _torch_dtypes(jaxtyping_dtypes: Any) -> frozenset[torch.dtype] | None:
    """The torch dtypes an annotation admits, using jaxtyping's own naming (`repr(dtype)` after the last dot)
    and its string-or-regex dtype entries, so every dtype family means exactly what it means to jaxtyping."""
    if jaxtyping_dtypes is jt._any_dtype:
        return None
    allowed = set()
    for dtype, name in _TORCH_DTYPE_NAMES.items():
        for wanted in jaxtyping_dtypes:
            if (wanted == name) if isinstance(wanted, str) else wanted.match(name):
                allowed.add(dtype)
                break
    return frozenset(allowed)


_TORCH_DTYPE_NAMES = {value: repr(value).rsplit(".", 1)[-1]
                      for value in vars(torch).values() if isinstance(value, torch.dtype)}


def _dtype_choice(annotation: Any) -> str:
    family = annotation.dtype.__name__
    names = list(annotation.dtypes)
    return names[0] if len(names) == 1 else f"a {family} dtype"


def _type_name(value: Any) -> str:
    return "None" if value is None else type(value).__name__
