"""Python's own values as the objects floor reads them: literals of lists, tuples and dicts, their subscripts and
methods, int arithmetic, comparisons and truth, and the builtins construction code uses (`range`, `len`, `list`,
`enumerate`, `zip`, `min`, `max`, `sum`, `getattr`, `super`).

Each answers UNKNOWN where the code does not state the value: a `range` whose bound is a symbol has elements the
analysis does not know (`Seq((), complete=False)`), a comparison of two symbols has no known outcome.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute
from shapecheck.engine.walker import walk
from shapecheck.objects import registries
from shapecheck.objects.command_line import attribute_size, option_default
from shapecheck.objects.dims import Atom, Dim, at_defaults, at_least, option_size, per_item
from shapecheck.objects.ini_files import entry_keys, ini_option
from shapecheck.objects.values import (
    FALSE, NONE, TRUE, UNKNOWN, ClassValue, Const, FunctionValue, Imported, Instance, Mapping, Opaque, Seq,
    TorchObject, number_kind, truth,
)

if TYPE_CHECKING:
    from shapecheck.objects.evaluator import Evaluator

MAX_ITEMS = 1024  # longer sequences (a `range(100_000)`) are not spelled out

_BUILTINS = frozenset({"range", "len", "list", "tuple", "dict", "enumerate", "zip", "int", "float", "str", "bool",
                       "min", "max", "sum", "sorted", "reversed", "getattr", "super", "print", "abs", "round",
                       "isinstance", "hasattr", "set", "map", "filter", "type", "iter", "next", "any", "all",
                       "object", "id", "repr", "setattr", "delattr", "callable", "divmod", "pow", "open", "complex",
                       "ord"})
# builtins that return a number for whatever argument they accept
_TO_NUMBER = frozenset({"ord", "len", "int", "float"})


ORDERED_DICT = frozenset({"collections.OrderedDict", "typing.OrderedDict"})


def named(name: str) -> object:
    """A name with no binding in the file: a builtin, else unknown (a star import, a global set elsewhere)."""
    return Imported("builtins." + name) if name in _BUILTINS else UNKNOWN


def key_of(value: object) -> Hashable | None:
    """A dict key the code states: a string, an int, a bool or None."""
    if isinstance(value, Const):
        return value.value
    if isinstance(value, Dim):
        return value.literal
    return None


def as_key_value(key: Hashable) -> object:
    return Dim.of(key) if type(key) is int else Const(key)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ literals


def sequence(ev: Evaluator, expr: cst.Tuple | cst.List, before: int) -> object:
    items: list[object] = []
    complete = True
    for element in expr.elements:
        if type(element) is cst.StarredElement:
            inner = ev.object(element.value, before)
            if isinstance(inner, Seq):
                items.extend(inner.items)
                complete = complete and inner.complete
            else:
                complete = False
            if not complete:
                break
        else:
            items.append(ev.object(element.value, before))
    return Seq(tuple(items), "tuple" if type(expr) is cst.Tuple else "list", complete)


def mapping(ev: Evaluator, expr: cst.Dict, before: int) -> object:
    items: dict[Hashable, object] = {}
    for element in expr.elements:
        if type(element) is cst.StarredDictElement:
            inner = ev.object(element.value, before)
            if not isinstance(inner, Mapping) or not inner.complete:
                return Mapping(tuple(items.items()), complete=False)
            items.update(inner.items)
            continue
        key = key_of(ev.object(element.key, before))
        if key is None:
            return Mapping(tuple(items.items()), complete=False)
        items[key] = ev.object(element.value, before)
    return Mapping(tuple(items.items()))


def arguments(ev: Evaluator, call: cst.Call, before: int) -> Seq | None:
    """A call's positional arguments as one sequence, `*xs` expanded where `xs` is known; None when a keyword or
    `**kwargs` is passed."""
    items: list[object] = []
    for arg in call.args:
        if arg.keyword is not None or arg.star == "**":
            return None
        if arg.star == "*":
            inner = ev.object(arg.value, before)
            if not isinstance(inner, Seq):
                return Seq(tuple(items), complete=False)
            items.extend(inner.items)
            if not inner.complete:
                # the last one (`nn.Sequential(*[nn.Linear(a, b) for a, b in zip(dims, dims[1:])])`): what every
                # element it may still hold is, is what every argument past `items` is
                last = arg is call.args[-1]
                return Seq(tuple(items), complete=False, each=inner.each if last else None,
                           least=inner.least if last else 0)
        else:
            items.append(ev.object(arg.value, before))
    return Seq(tuple(items))


# ----------------------------------------------------------------------------------------------- subscripts


def subscript(ev: Evaluator, expr: cst.Subscript, before: int) -> object:
    if len(expr.slice) != 1:
        return UNKNOWN
    container = ev.object(expr.value, before)
    items = container_items(container)
    piece = expr.slice[0].slice
    if type(piece) is cst.Index:
        key = ev.object(piece.value, before)
        # `MODELS["gru_lm"]` of a registry a decorator fills: the class decorated with that name (for a command-line
        # option, `MODELS[args.model]`, the one of its default: the run with no flags)
        name = key.value if isinstance(key, Const) and type(key.value) is str else \
            key.choice if isinstance(key, Opaque) else None
        if name is not None and (items is None or isinstance(items, Mapping) and not items.items
                                 and items.each is None):
            found = registries.registered(ev.ctx, expr.value, name)
            if found is not UNKNOWN:
                return found
        if isinstance(items, Mapping):
            if not items.items and items.each is not None:
                return items.each  # `stoi[c]` of `{c: i for i, c in enumerate(chars)}`: any value is what all are
            if key_of(key) is None and not isinstance(key, Const) and items.complete and items.items:
                # `MODELS[cfg.arch](...)` of a registry: the key the code doesn't state is one of the keys (any
                # other raises), so the value is what every value agrees on (one model class registered), else, for
                # a command-line option (`LOSSES[args.loss]`), the entry of its default: the run with no flags
                values = [value for _, value in items.items]
                joined = ev.join_values(values)
                if joined is UNKNOWN and isinstance(key, Opaque) and key.choice is not None:
                    return items.get(key.choice)
                if joined is UNKNOWN and all(number_kind(value) is not None for value in values):
                    # `tag2id[t]` of `{t: i for i, t in enumerate(TAGS)}`, `class_weight[int(label)]` of
                    # `{0: 1.0, 1: n_neg / n_pos}`: a number, whichever entry
                    return number(expr)
                return joined
            found = items.get(key_of(key))
            return found if found is not UNKNOWN or items.complete else UNKNOWN
        if isinstance(items, Seq) and isinstance(key, Dim) and key.literal is not None:
            if not items.complete and items.each is not None and key.literal >= len(items.items):
                return items.each  # `waves[0]` of a comprehension of unknown length: what every element is
            return item(items, key.literal)
        if isinstance(items, Seq) and not items.items and items.each is not None and isinstance(key, Dim):
            return items.each  # `self.labels[idx]` of `[float(v) for v in rows]`: any element is what all are
        if isinstance(items, Seq) and items.complete and items.items and isinstance(key, Dim):
            # `self.clips[idx]` of a list a loop of known length filled with one shape: what every item agrees on
            # (`(mel, i % n_keywords)` samples: a mel of that shape and some label)
            joined = ev.join_values(list(items.items))
            if joined is not UNKNOWN:
                return joined
        if isinstance(items, Seq) and isinstance(key, Dim):
            found = some_int(items, key, ev.ctx.code(expr))
            return found if found is not None else UNKNOWN
        return UNKNOWN
    if type(piece) is cst.Slice and isinstance(items, Seq) and not items.complete and type(container) is Seq:
        return _cut(ev, piece, items, before)
    if type(piece) is cst.Slice and isinstance(items, Seq) and items.complete:
        bounds = []
        for part in (piece.lower, piece.upper, piece.step):
            if part is None:
                bounds.append(None)
                continue
            value = ev.object(part, before)
            if not isinstance(value, Dim) or value.literal is None:
                return UNKNOWN
            bounds.append(value.literal)
        sliced = Seq(items.items[slice(*bounds)], items.kind)
        if isinstance(container, TorchObject):
            return TorchObject(container.qualname, None, None, sliced)
        return sliced
    return UNKNOWN


def _cut(ev: Evaluator, piece: cst.Slice, items: Seq, before: int) -> object:
    """`ids[:max_len]` of a list of unstated length: at most `max_len` of its elements, each what all are.
    `out[::-1]` (discounted returns appended backwards, put back in order) and `out[:]` hold every element: as
    many as the list, the same count where a loop grew it (see `Seq.grown`)."""
    if piece.lower is None and piece.upper is None:
        step = ev.object(piece.step, before) if piece.step is not None else Dim.of(1)
        if not isinstance(step, Dim) or step.literal not in (1, -1):
            return UNKNOWN
        if step.literal == 1:
            return items
        # reversed: the elements known to come first would come last, so only a list known by what all are
        return items if not items.items and items.each is not None else UNKNOWN
    if piece.lower is not None or piece.step is not None or piece.upper is None:
        return UNKNOWN
    upper = ev.object(piece.upper, before)
    if not isinstance(upper, Dim) or upper.literal is None or upper.literal < 0:
        return UNKNOWN
    most = upper.literal if items.most is None else min(upper.literal, items.most)
    return Seq(items.items[:most], items.kind, complete=False, each=items.each, most=most)


def padded(ev: Evaluator, expr: cst.BinaryOperation, before: int) -> Seq | None:
    """`ids + [pad] * (max_len - len(ids))` (or the padding first) of a list known to hold at most `max_len`
    elements (cut with `[:max_len]`): exactly `max_len` of them, each an element of `ids` or the pad. None where
    the expression is not that idiom or the count is not known."""
    for listed, padding in ((expr.left, expr.right), (expr.right, expr.left)):
        if type(padding) is not cst.BinaryOperation or type(padding.operator) is not cst.Multiply \
                or type(padding.left) is not cst.List or len(padding.left.elements) != 1:
            continue
        count = padding.right
        if type(count) is not cst.BinaryOperation or type(count.operator) is not cst.Subtract \
                or not _is_len_of(count.right, listed):
            continue
        seq, length = ev.object(listed, before), ev.object(count.left, before)
        if not isinstance(seq, Seq) or seq.complete or seq.most is None or not isinstance(length, Dim) \
                or length.literal is None or not seq.most <= length.literal <= MAX_ITEMS:
            return None
        pad = ev.object(padding.left.elements[0].value, before)
        element = seq.each if seq.each == pad else Opaque(("padded", id(expr)), "x", maybe_tensor=False, number=True) \
            if number_kind(seq.each) and number_kind(pad) else UNKNOWN
        return Seq((element,) * length.literal, seq.kind)
    return None


def _any_of(ev: Evaluator, expr: cst.BinaryOperation, elements: list[object]) -> object:
    """What any one of `elements` is, an element of a list `expr` joins or repeats a count of times not known: what
    they agree on, a number where they are numbers of different values (ids after their padding); None else."""
    joined = ev.join_values(elements)
    if joined is not UNKNOWN:
        return joined
    if all(number_kind(element) is not None for element in elements):
        return Opaque(("element", id(expr)), "x", maybe_tensor=False, number=True)
    return None


def _project_length(ev: Evaluator, instance: Instance) -> object:
    """`len(ds)` of an object of a project class: the size its `__len__` returns on the object the code built
    (`len(self.series) - self.window` of a windowed dataset), which sizes the splits made of it
    (`Subset(ds, range(int(0.8 * len(ds))))`)."""
    length = ev.attribute_of(instance, "__len__")
    if instance.tainted or not isinstance(length, FunctionValue):
        return UNKNOWN
    value = ev.calls.run(length, ev.calls.generic_arguments(length)).value
    # a size the run names (`len(self.rows)` of rows it does not know) is the same symbol for every object of the
    # class: only a literal tells this object's length
    return value if isinstance(value, Dim) and value.literal is not None else UNKNOWN


def _is_len_of(expr: cst.BaseExpression, listed: cst.BaseExpression) -> bool:
    return type(expr) is cst.Call and type(expr.func) is cst.Name and expr.func.value == "len" \
        and len(expr.args) == 1 and expr.args[0].value.deep_equals(listed)


def grown_count(items: Seq) -> Dim | None:
    """How many elements a list a loop grew holds (see `Seq.grown`): the passes the code states, or as many as
    another list grown on the same passes; None for a list not grown that way."""
    if items.grown is None:
        return None
    if isinstance(items.grown, Dim):  # the passes of `range(n)`, the samples of a batch of `args.batch_size`
        return items.grown
    if items.most is not None and items.least == items.most:
        return Dim.of(items.most)
    return Dim.symbol(("passes", items.grown), "n")


def some_int(items: Seq, key: Hashable, name: str) -> Dim | None:
    """One of the ints a list holds, not told which (`self.starts[idx]`, a pass of a loop over more of them than are
    run one by one): the least of them plus an int at least 0 and below the span up to the largest, so a window
    `signal[start:start + window]` at starts `list(range(0, len(signal) - window, stride))`, or one that ends there,
    `series[end - lookback:end]` for `end` in `range(lookback, len(series), stride)`, stays inside the signal; None
    unless every element is an int the code states, none negative."""
    values = [value.literal if isinstance(value, Dim) else None for value in items.items]
    if not items.complete or not values or None in values or min(values) < 0:  # type: ignore[type-var]
        return None
    least = min(values)  # type: ignore[type-var]
    offset = Dim.symbol(("element", items, key), f"{name} - {least}" if least else name,
                        below=Dim.of(max(values) + 1 - least))  # type: ignore[type-var, operator]
    return offset + Dim.of(least)


def item(items: Seq, index: int) -> object:
    if -len(items.items) <= index < len(items.items) and (items.complete or index >= 0):
        return items.items[index]
    return UNKNOWN


def container_items(value: object) -> Seq | Mapping | None:
    """The elements of a list, tuple or dict, or the layers of a module container."""
    if isinstance(value, (Seq, Mapping)):
        return value
    if isinstance(value, (TorchObject, Instance)):
        return value.items
    return None


def container_method(receiver: Seq | Mapping, method: str, ev: Evaluator, call: cst.Call, before: int) -> object:
    """`d.items()`, `d.keys()`, `d.values()`, `d.get(k, default)`, `d.pop(k, default)`, `xs.copy()`,
    `xs.index(v)`."""
    if isinstance(receiver, Mapping):
        if method == "items":
            return Seq(tuple(Seq((as_key_value(k), v), "tuple") for k, v in receiver.items), complete=receiver.complete)
        if method == "keys":
            return Seq(tuple(as_key_value(k) for k, _ in receiver.items), complete=receiver.complete)
        if method == "values":
            return Seq(tuple(v for _, v in receiver.items), complete=receiver.complete, each=receiver.each)
        if method in ("get", "pop") and call.args:
            key = key_of(ev.object(call.args[0].value, before))
            found = receiver.get(key)
            if found is not UNKNOWN:
                return found  # `labels = batch.pop("labels")` too: the entry it takes out
            if not receiver.complete and len(call.args) > 1 and number_kind(receiver.each) is not None \
                    and number_kind(ev.object(call.args[1].value, before)) is not None:
                # `stoi.get(w, unk)` of a vocabulary built as `{w: i for i, w in enumerate(words)}`: an id either way
                return number(call)
            if not receiver.complete or key is None:
                return UNKNOWN
            return ev.object(call.args[1].value, before) if len(call.args) > 1 else NONE
        if method == "copy":
            return receiver
        return UNKNOWN
    if method == "copy":
        return receiver
    if method == "pop" and receiver.complete and receiver.kind == "list" and receiver.items and len(call.args) <= 1:
        # the element a pop gives, of the list as it is where it is read (the executor takes it off the list after
        # the statement, see `executor._popped`)
        position = ev.integer(call.args[0].value, before) if call.args else -1
        if position is not None and -len(receiver.items) <= position < len(receiver.items):
            return receiver.items[position]
    return UNKNOWN


# A text the code writes out, cut into words (`"the cat sat".split()`, a toy vocabulary or sentence): the words
# are known, so a tensor of one index per word has a known length.
_STRING_METHODS = frozenset({"split", "lower", "upper", "strip", "format"})


def string_method(text: str, method: str, ev: Evaluator, call: cst.Call, before: int) -> object:
    """`"a b".split()` (or with a separator the code states), `.lower()`, `.upper()`, `.strip()` of a string
    constant."""
    if method not in _STRING_METHODS or any(arg.star or arg.keyword is not None for arg in call.args):
        return UNKNOWN
    if method == "format":  # `"conv_{}".format(i)`: a module's name in a darknet-style builder
        values = [literal_of(ev.object(arg.value, before)) for arg in call.args]
        if any(type(value) not in (str, int) for value in values):
            return UNKNOWN
        try:
            return Const(text.format(*values))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):  # a field the arguments don't fill
            return UNKNOWN
    if method != "split":
        return Const(getattr(text, method)()) if not call.args else UNKNOWN
    if len(call.args) > 1:
        return UNKNOWN
    separator = ev.object(call.args[0].value, before) if call.args else NONE
    if not isinstance(separator, Const) or not (separator.value is None or type(separator.value) is str) \
            or separator.value == "":
        return UNKNOWN
    return Seq(tuple(Const(word) for word in text.split(separator.value)), "list")


def formatted(ev: Evaluator, expr: cst.FormattedString, before: int) -> object:
    """An f-string whose every part the code states (`f"conv_{i}"` on a pass of a loop over a list the code
    writes out), without conversions or format specs."""
    pieces = []
    for part in expr.parts:
        if isinstance(part, cst.FormattedStringText):
            if "\\" in part.value:  # the source's text, escapes not yet made characters
                return UNKNOWN
            pieces.append(part.value.replace("{{", "{").replace("}}", "}"))
            continue
        value = literal_of(ev.object(part.expression, before))
        if part.conversion is not None or part.format_spec is not None or part.equal is not None \
                or type(value) not in (str, int):
            return UNKNOWN
        pieces.append(str(value))
    return Const("".join(pieces))


# ----------------------------------------------------------------------------------------------- operators


def arithmetic(ev: Evaluator, expr: cst.BinaryOperation | cst.UnaryOperation, before: int) -> object:
    if type(expr) is cst.UnaryOperation:
        if type(expr.operator) is cst.Not:
            known = truth(ev.object(expr.expression, before))
            return UNKNOWN if known is None else Const(not known)
        size = ev.size(expr, before)
        if size is None and type(expr.operator) is cst.Minus:  # `-0.5`, an exponent or a fill value
            value = literal_of(ev.object(expr.expression, before))
            return Const(-value) if type(value) is float else UNKNOWN
        return size if size is not None else UNKNOWN
    operator = type(expr.operator)
    if operator in (cst.Add, cst.Multiply):
        left, right = ev.object(expr.left, before), ev.object(expr.right, before)
        if isinstance(left, Seq) and isinstance(right, Seq) and operator is cst.Add:
            found = padded(ev, expr, before)
            if found is not None:
                return found
            if left.complete:
                return Seq(left.items + right.items, left.kind, right.complete, right.each)
            # the elements after the ones `left` lists: any of its own, then all of `right`'s
            rest = [*((left.each,) if left.each is not None else ()), *right.items,
                    *((right.each,) if right.each is not None else ())]
            each = _any_of(ev, expr, rest) if left.each is not None and (right.complete or right.each is not None) \
                else None
            return Seq(left.items, left.kind, complete=False, each=each)
        if operator is cst.Multiply and isinstance(left, Seq) and isinstance(right, Dim) or \
                operator is cst.Multiply and isinstance(right, Seq) and isinstance(left, Dim):
            seq, count = (left, right) if isinstance(left, Seq) else (right, left)
            assert isinstance(seq, Seq) and isinstance(count, Dim)
            if count.literal is None or not seq.complete or count.literal * len(seq.items) > MAX_ITEMS:
                # `[0] * (max_len - len(ids))`, a padding of a count not known: each element one of the list's
                listed = [*seq.items, *((seq.each,) if seq.each is not None else ())]
                each = _any_of(ev, expr, listed) if listed and (seq.complete or seq.each is not None) else None
                return Seq((), seq.kind, complete=False, each=each)
            return Seq(seq.items * max(count.literal, 0), seq.kind)
        if isinstance(left, Const) and isinstance(right, Const) and type(left.value) is type(right.value) is str \
                and operator is cst.Add:
            return Const(left.value + right.value)  # type: ignore[operator]
        a, b = literal_of(left), literal_of(right)
        if operator is cst.Multiply and float in (type(a), type(b)) and {type(a), type(b)} <= {int, float}:
            return Const(a * b)  # type: ignore[operator]  # `0.8 * len(ds)`, a split's share: `int(...)` counts it
    if operator is cst.Power:  # `head_dim ** -0.5`, an attention's scale: a float, where no size is
        size = ev.size(expr, before)
        if size is not None:
            return size
        a, b = literal_of(ev.object(expr.left, before)), literal_of(ev.object(expr.right, before))
        if type(a) in (int, float) and type(b) in (int, float) and a > 0 and abs(b) <= 8:  # type: ignore
            return Const(float(a) ** b)  # type: ignore[operator]
        return UNKNOWN
    if operator is cst.Modulo and type(expr.left) in (cst.SimpleString, cst.ConcatenatedString, cst.Name):
        text = ev.object(expr.left, before)  # `"denselayer%d" % (i + 1)`: a layer's name in DenseNet's blocks
        if isinstance(text, Const) and type(text.value) is str:
            right = ev.object(expr.right, before)
            parts = right.items if isinstance(right, Seq) and right.kind == "tuple" and right.complete else (right,)
            values = tuple(literal_of(part) for part in parts)
            if any(type(value) not in (str, int) for value in values):
                return UNKNOWN
            try:
                return Const(text.value % values)
            except (KeyError, TypeError, ValueError):  # a conversion the values don't fit
                return UNKNOWN
    if operator is cst.Divide:  # `len(data) / batch_size`, which `int(...)` makes a count again
        a, b = literal_of(ev.object(expr.left, before)), literal_of(ev.object(expr.right, before))
        if type(a) in (int, float) and type(b) in (int, float) and b:
            return Const(a / b)  # type: ignore[operator]
    if operator in _FLOAT_OPERATIONS:  # `sample_rate * seconds`, `0.8 * 1000`: a float, `int(...)` makes a count
        left, right = ev.object(expr.left, before), ev.object(expr.right, before)
        a, b = literal_of(left), literal_of(right)
        if float in (type(a), type(b)) and type(a) in (int, float) and type(b) in (int, float):
            return Const(float(_FLOAT_OPERATIONS[operator](a, b)))
        # `r + gamma * running`, a return a loop carries: a number the code does not state, where one side is
        # (a `float(...)`, an `.item()`, a `gamma: float`), not a size the names would read as on their own; a count
        # drawn at random (`50 + rng.integers(0, 30)`) stays a size
        found = _float_of_numbers(expr, left, right)
        if found is not None:
            return found
    size = ev.size(expr, before)
    if size is None and operator is cst.Divide:
        # `min(life - end, max_rul) / max_rul`, a capped label scaled by a float: a float, where each side is a
        # number and one a float (no size: a quotient of sizes is one where `size` reads it)
        found = _float_of_numbers(expr, ev.object(expr.left, before), ev.object(expr.right, before))
        if found is not None:
            return found
    return size if size is not None else UNKNOWN


def _float_of_numbers(expr: cst.BaseExpression, left: object, right: object) -> Opaque | None:
    """A float the code does not state: both sides numbers, one of them a float."""
    if None not in (number_kind(left), number_kind(right)) and (_a_float(left) or _a_float(right)):
        return Opaque((FLOAT_ARITHMETIC, id(expr)), "float", maybe_tensor=False, number=True)
    return None


def _a_float(value: object) -> bool:
    """A float: one the code states, a parameter annotated `float`, numbers that paths or a loop's passes join
    (`running = r + gamma * running`), or arithmetic on one of those. Ints of unstated value (`int(x)`, a count
    drawn) are not: they are sizes."""
    if isinstance(value, Const):
        return type(value.value) is float
    return isinstance(value, Opaque) and value.number and type(value.key) is tuple \
        and value.key[0] in (FLOAT_ARITHMETIC, JOINED_NUMBER, "param")


FLOAT_ARITHMETIC = "float arithmetic"
JOINED_NUMBER = "joined number"

_FLOAT_OPERATIONS = {cst.Add: lambda a, b: a + b, cst.Subtract: lambda a, b: a - b, cst.Multiply: lambda a, b: a * b}

_COMPARE = {
    cst.Equal: lambda a, b: a == b, cst.NotEqual: lambda a, b: a != b, cst.LessThan: lambda a, b: a < b,
    cst.LessThanEqual: lambda a, b: a <= b, cst.GreaterThan: lambda a, b: a > b,
    cst.GreaterThanEqual: lambda a, b: a >= b,
}


def comparison(ev: Evaluator, expr: cst.Comparison, before: int) -> object:
    if len(expr.comparisons) != 1:
        return UNKNOWN
    target = expr.comparisons[0]
    operator = type(target.operator)
    left, right = ev.object(expr.left, before), ev.object(target.comparator, before)
    if operator in (cst.Is, cst.IsNot):
        same = identical(ev, left, right)
        if same is None:
            return UNKNOWN
        return Const(same if operator is cst.Is else not same)
    if operator in (cst.In, cst.NotIn):
        items = container_items(right)
        key = key_of(left)
        if items is None or key is None or not items.complete:
            return UNKNOWN
        found = any(key == (k if isinstance(items, Mapping) else key_of(k)) for k in
                    ((k for k, _ in items.items) if isinstance(items, Mapping) else items.items))
        return Const(found if operator is cst.In else not found)
    compare = _COMPARE.get(operator)
    if compare is None:
        return UNKNOWN
    if operator in (cst.Equal, cst.NotEqual) and isinstance(left, Imported) and isinstance(right, Imported) \
            and _builtin_type(left) and _builtin_type(right):  # `type(v) == int`
        return Const((left.qualname == right.qualname) is (operator is cst.Equal))
    a, b = literal_of(left), literal_of(right)
    if a is None or b is None:
        return UNKNOWN
    try:
        return Const(bool(compare(a, b)))
    except TypeError:
        return UNKNOWN


def literal_of(value: object) -> object:
    """The plain Python value of an int or constant the code states; None when it has none."""
    if isinstance(value, Dim):
        return value.literal
    if isinstance(value, Const) and value.value is not None:
        return value.value
    return None


def _builtin_type(value: Imported) -> bool:
    return value.qualname.startswith("builtins.") and value.qualname[len("builtins."):] in (*_KNOWN_TYPES, "NoneType")


def identical(ev: Evaluator, a: object, b: object) -> bool | None:
    """`a is b`, when known: None against None, None against an object the code built, a builtin type against
    another (`type(v) is int`)."""
    if a is NONE and b is NONE:
        return True
    if isinstance(a, Imported) and isinstance(b, Imported) and _builtin_type(a) and _builtin_type(b):
        return a.qualname == b.qualname
    for x, y in ((a, b), (b, a)):
        if x is NONE and y is not UNKNOWN and not isinstance(y, Opaque) and ev.is_object(y):
            return False
    return None


def definite(value: object) -> bool:
    return isinstance(value, (Dim, Seq, Mapping, TorchObject, Instance, ClassValue, Imported)) or \
        isinstance(value, Const)


def boolean(ev: Evaluator, expr: cst.BooleanOperation, before: int) -> object:
    left = ev.object(expr.left, before)
    known = truth(left)
    if known is None:
        return UNKNOWN
    is_and = type(expr.operator) is cst.And
    if is_and and not known or not is_and and known:
        return left
    return ev.object(expr.right, before)


# ------------------------------------------------------------------------------------------------ builtins


def call(name: str, ev: Evaluator, node: cst.Call, before: int) -> object:
    """A call of a builtin, with what the code states of its arguments."""
    args = arguments(ev, node, before)
    positional = args.items if args is not None and args.complete else None
    if name == "range":
        return _range(_option_counts(ev, node, before, positional), node)
    if name == "len":
        if positional is None or len(positional) != 1:
            return UNKNOWN
        if isinstance(positional[0], Const) and type(positional[0].value) is str:
            return Dim.of(len(positional[0].value))  # a charset's size: `nn.Linear(h, len(VOCAB) + 1)`
        if isinstance(positional[0], Instance):
            return _project_length(ev, positional[0])
        items = container_items(positional[0])
        if isinstance(items, (Seq, Mapping)) and items.complete:
            return Dim.of(len(items.items))
        # a list a loop grew by one element a pass (`self.rows.append(...)` over `range(n_rows)` in a dataset's
        # `__init__`): as many as the passes, the count `torch.stack` of it has too
        counted = grown_count(items) if isinstance(items, Seq) else None
        if counted is not None:
            return counted
        # a list of a length the code does not state (`len(tokens)` of a sentence cut at random) is an int all the
        # same: `max(len(t) for t in batch)` pads to one
        return number(node, ev.ctx.code(node)) if isinstance(items, Seq) else UNKNOWN
    if name in ("list", "tuple"):
        if positional == ():
            return Seq((), name)
        if positional is None or len(positional) != 1:
            return UNKNOWN
        # what a loop over it goes through: a tensor's rows too (`tuple(views[i])` in a dataset's `__getitem__`)
        items = ev.iterated(positional[0])
        if isinstance(items, Mapping):
            return Seq(tuple(as_key_value(k) for k, _ in items.items), name, items.complete)
        if isinstance(items, Seq):
            # what every element is stays known: `tuple(nn.Linear(d, d) for _ in range(n))`
            return replace(items, kind=name)
        return UNKNOWN
    if name == "dict":
        if any(arg.keyword is None for arg in node.args):
            return UNKNOWN
        return Mapping(tuple((arg.keyword.value, ev.object(arg.value, before)) for arg in node.args
                             if arg.keyword is not None))
    if name == "enumerate":
        seq = ev.iterated(positional[0]) if positional is not None and len(positional) == 1 else None
        index = Opaque(("enumerate", id(node)), "i", maybe_tensor=False, number=True)
        if not isinstance(seq, Seq):
            if positional is None or len(positional) != 1:
                return UNKNOWN
            # `{c: i for i, c in enumerate(sorted(set(text)))}`: whatever it goes through, the count is an int
            element = Opaque(("enumerate element", id(node)), "x")
            return Seq((), complete=False, each=Seq((index, element), "tuple"))
        each = None
        if not seq.items and seq.each is not None:  # `enumerate(loader)`: an unknown count, a known element
            each = Seq((index, seq.each), "tuple")
        return Seq(tuple(Seq((Dim.of(i), v), "tuple") for i, v in enumerate(seq.items)), complete=seq.complete,
                   each=each, least=seq.least, grown=seq.grown if each is not None else None,
                   most=seq.most if each is not None else None)
    if name == "zip":
        if positional is None and len(node.args) == 1 and node.args[0].star == "*":
            return _columns(ev.iterated(ev.object(node.args[0].value, before)))
        seqs = [ev.iterated(p) for p in positional] if positional else []
        if not seqs or not all(isinstance(s, Seq) for s in seqs):
            return UNKNOWN
        marks = {s.grown for s in seqs}
        # lists grown on the same passes (`zip(rewards, dones)` of a rollout) pair up all their elements, whatever
        # they are
        together = len(marks) == 1 and None not in marks and all(not s.items for s in seqs)
        if together or all(not s.items and s.each is not None for s in seqs):  # loaders of an unknown count
            return Seq((), complete=False, each=Seq(tuple(UNKNOWN if s.each is None else s.each for s in seqs), "tuple"),
                       least=min(s.least for s in seqs), grown=marks.pop() if together else None,
                       most=seqs[0].most if together else None)
        counted = [len(s.items) for s in seqs if s.items or s.complete]  # type: ignore[union-attr]
        count = min(counted) if counted else 0
        # an iterable of an unknown count stops no sooner than the others when it has at least as many elements
        # (`zip(logits, labels)`: 3 heads' logits against the 4 rows of a (4, 3, T) tensor: 3 pairs, each row)
        if not counted or any(not s.items and not s.complete and (s.each is None or s.least < count) for s in seqs):
            return UNKNOWN
        complete = all(s.complete or len(s.items) > count or not s.items for s in seqs)  # type: ignore[union-attr]
        return Seq(tuple(Seq(tuple(s.items[i] if s.items else s.each for s in seqs), "tuple")  # type: ignore
                         for i in range(count)), complete=complete)
    if name == "int" and positional is not None and len(positional) == 1:
        argument = node.args[0].value
        drawn = drawn_count(ev, argument, before, converted=True) if type(argument) is cst.Call else None
        if drawn is not None:
            return drawn
        value = positional[0]
        if isinstance(value, Const) and type(value.value) is float:
            return Dim.of(int(value.value))
        if isinstance(value, Opaque) and drawn_value(value):  # `int(rng.integers(4, 12))`: a count drawn
            return drawn_number(ev, node)
        if value is UNKNOWN and type(argument) is cst.Subscript:
            option = _ini_entry(ev, argument, before)  # `int(config["model"]["hidden"])`
            if option is not None:
                return option
        return value if isinstance(value, Dim) else number(node)
    if name == "float" and positional is not None and len(positional) == 1:
        value = positional[0]
        literal = value.literal if isinstance(value, Dim) else value.value if isinstance(value, Const) else None
        return Const(float(literal)) if type(literal) in (int, float) else number(node)  # type: ignore[arg-type]
    if name in ("min", "max") and positional:
        values = positional[0].items if len(positional) == 1 and isinstance(positional[0], Seq) else positional
        literals = [literal_of(v) for v in values]
        if values and all(type(v) is int for v in literals):
            return Dim.of((min if name == "min" else max)(literals))  # type: ignore[type-var]
        # `min(life - end, 125)`, a label capped, and `max(len(t) for t in batch)`: a number, where each argument
        # (each element of the one argument) is one
        if len(positional) > 1 and all(number_kind(v) is not None for v in positional):
            capped = [v for v in literals if type(v) is int]
            if name == "min" and capped and min(capped) > 1 and not any(type(v) is float for v in literals):
                # `min(bptt, len(source) - 1 - i)`, a chunk's length: a count the code bounds by its int (it may
                # be 1, the last chunk's, so it broadcasts as an unknown size does)
                return Dim(((((Atom(("min", id(node)), ev.ctx.code(node), compound=True, placeholder=True,
                                    at_most=min(capped)),), 1),)))
            return number(node, ev.ctx.code(node))
        if len(positional) == 1 and isinstance(positional[0], Seq) and _numbers(positional[0]):
            return number(node, ev.ctx.code(node))
        return UNKNOWN
    if name == "sum" and positional and isinstance(positional[0], Seq) and positional[0].complete:
        total = Dim.of(0)
        for value in positional[0].items:
            if not isinstance(value, Dim):
                return UNKNOWN
            total = total + value
        return total
    if name == "sum" and positional is not None and len(positional) == 1:
        # `sum(map(ord, word))`, a word hashed to an id: numbers of a count the code does not state add up to one
        items = ev.iterated(positional[0])
        return number(node) if isinstance(items, Seq) and _numbers(items) else UNKNOWN
    if name == "ord":
        return number(node)
    if name == "map" and positional is not None and len(positional) == 2 and isinstance(positional[0], Imported) \
            and positional[0].qualname[len("builtins."):] in _TO_NUMBER:
        return Seq((), complete=False, each=number(node))
    if name == "reversed" and positional and isinstance(positional[0], Seq) and positional[0].complete:
        return Seq(tuple(reversed(positional[0].items)), positional[0].kind)
    if name == "reversed" and positional and isinstance(positional[0], Seq) and not positional[0].items \
            and (positional[0].each is not None or positional[0].grown is not None):
        return replace(positional[0], kind="list")  # a list a loop grew, backwards: as many elements, each alike
    if name == "getattr" and positional is not None and len(positional) >= 2 and isinstance(positional[1], Const) \
            and isinstance(positional[1].value, str):
        found = ev.attribute_of(positional[0], positional[1].value)
        if found is UNKNOWN and len(positional) == 3:
            return UNKNOWN
        return found
    if name == "iter" and positional is not None and len(positional) == 1:
        # an iterator: as many items as its source, each what they all are; a generator as far as a call that may
        # change it is concerned (`next(batches)` takes an item, and every item left is still `each`)
        each = ev.element(positional[0])
        return Seq((), "generator", complete=False, each=each) if each is not UNKNOWN else UNKNOWN
    if name == "next" and positional is not None and len(positional) == 1:
        return ev.element(positional[0])  # `next(iter(loader))`, `next(model.parameters())`: any one of them
    if name == "super":
        return ev.calls.super_value(node, before)
    if name == "print":
        return NONE
    if name == "bool" and positional is not None and len(positional) == 1:
        known = truth(positional[0])
        return UNKNOWN if known is None else (TRUE if known else FALSE)
    if name == "type" and positional is not None and len(positional) == 1:
        kind = python_type(positional[0])
        return Imported("builtins." + kind) if kind is not None else UNKNOWN
    if name == "isinstance" and positional is not None and len(positional) == 2:
        return _isinstance(ev.kind_of(positional[0]), positional[1])
    return UNKNOWN


def _numbers(seq: Seq) -> bool:
    """Whether every element of `seq` is a number, however many there are."""
    return (seq.each is not None or seq.complete) and all(
        number_kind(item) is not None for item in (*seq.items, *(() if seq.each is None else (seq.each,))))


def number(call: cst.BaseExpression, name: str = "number") -> Opaque:
    """What `float(t)`, `math.sqrt(d)` or `t.item()` returns: a Python number the code does not state (`name`d as
    the code spells it where it is a count: `max(len(t) for t in batch)`)."""
    return Opaque(("number", id(call)), name, maybe_tensor=False, number=True)


# numpy's draws, as `numpy.random` functions and as a `Generator`'s methods, by the position of `size` among their
# arguments: without `size`, one number
_NUMPY_DRAWS = {"beta": 2, "uniform": 2, "normal": 2, "gamma": 2, "lognormal": 2, "randint": 2, "integers": 2,
                "exponential": 1, "poisson": 1, "random": 0, "standard_normal": 0}
# Python's `random` functions that return a number
_PYTHON_DRAWS = frozenset({"random", "uniform", "betavariate", "gauss", "normalvariate", "expovariate", "triangular"})


# What a count drawn at random is keyed by, with the call that draws it.
DRAW = "draw"
# random integers by qualname: whether the high bound can be drawn too
_INTEGER_DRAWS = {"torch.randint": False, "numpy.random.randint": False, "random.randrange": False,
                  "random.randint": True}
_DRAW_NAMES = frozenset({"randint", "randrange", "item"})
# every draw's name, as the code spells it
_SPELLED_DRAWS = _DRAW_NAMES | _PYTHON_DRAWS | frozenset(_NUMPY_DRAWS)


def drawn_count(ev: Evaluator, node: cst.Call, before: int, converted: bool = False) -> Dim | None:
    """A count drawn at random below a bound the code states (`random.randint(5, 12)`, `np.random.randint(3, 9)`,
    `.item()` of `torch.randint(10, 21, (1,))`, or that tensor `converted` by `int(...)`): a size of its own, at
    most the largest value the draw can give. One size for the call, whichever value a run draws."""
    func = node.func
    spelled = _spelled(func)
    if spelled not in _DRAW_NAMES:  # asked of every call a size is read from: no qualname looked up for most
        return None
    if spelled == "item" and not node.args and type(func.value) is cst.Call:  # type: ignore[union-attr]
        node, converted = func.value, True  # type: ignore[union-attr]
    qualname = ev.ctx.qualname(node.func)
    if qualname is None and type(node.func) is cst.Attribute and _python_generator(ev, node.func.value, before):
        qualname = f"random.{spelled}"  # `rng.randrange(n)` of `rng = random.Random(seed)`: the module's function
    if qualname not in _INTEGER_DRAWS or any(arg.star for arg in node.args):
        return None
    positional = [arg.value for arg in node.args if arg.keyword is None]
    keywords = {arg.keyword.value: arg.value for arg in node.args if arg.keyword is not None}
    tensor = qualname == "torch.randint"
    # a tensor of draws is a count only made one; numpy's with a `size` is an array
    if tensor and not converted or qualname == "numpy.random.randint" and not numpy_scalar_draw("randint", node):
        return None
    # one bound alone is the high one (`randint(high, size)`, `randrange(stop)`), the low one being 0
    alone = len(positional) == (2 if tensor else 1) and "high" not in keywords
    high = positional[0] if alone else keywords.get("high", positional[1] if len(positional) > 1 else None)
    bound = ev.integer(high, before) if high is not None else None
    if bound is None or qualname == "random.randint" and alone:
        return None
    most = bound if _INTEGER_DRAWS[qualname] else bound - 1
    return Dim((((Atom((DRAW, id(node)), ev.ctx.code(node), compound=True, at_most=most),), 1),))


def _python_generator(ev: Evaluator, expr: cst.BaseExpression, before: int) -> bool:
    """Whether `expr` holds a `random.Random(seed)`, whose methods draw as the `random` module's functions do."""
    held = ev.object(expr, before)
    return isinstance(held, TorchObject) and held.qualname == "random.Random"


def drawn_number(ev: Evaluator, call: cst.Call) -> Opaque:
    """A number drawn at random (`rng.uniform(0.4, 1.0)`, `random.random()`): no size the code states, and another
    on each call."""
    return Opaque((DRAW, id(call)), ev.ctx.code(call), maybe_tensor=False, number=True)


def may_draw(ev: Evaluator, code: cst.CSTNode) -> bool:
    """Whether `code` calls anything spelled as a draw (`random.randint`, `rng.uniform`, `t.item()`): the cheap
    question before looking for draws in the values it makes."""
    key = ("may draw", id(code))
    found = ev._memo.get(key)
    if found is None:
        found = ev._memo[key] = any(type(node) is cst.Call and _spelled(node.func) in _SPELLED_DRAWS
                                    for node in walk(code))
    return found  # type: ignore[return-value]


def _spelled(func: cst.BaseExpression) -> str | None:
    return func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else None


def draws_in(ev: Evaluator, values: Sequence[object], known: Sequence[object] = ()) -> set[Atom]:
    """The draws (see `drawn`) in the sizes `values` hold, but those `known` hold too (drawn once, before)."""
    found = _draws(ev, values)
    return found - _draws(ev, known) if found and known else found


def _draws(ev: Evaluator, values: Sequence[object]) -> set[Atom]:
    found: set[Atom] = set()

    def collect(size: Dim) -> Dim:
        found.update(atom for atom in size.atoms if drawn(atom))
        return size
    for value in values:
        ev.with_sizes(value, collect)
    return found


def per_item_draws(ev: Evaluator, value: object, draws: set[Atom]) -> object:
    """`value` with the sizes of `draws` varying per item (`dims.per_item`): each item of a collection was drawn
    anew."""
    sizes = {atom: Dim((((per_item(atom),), 1),)) for atom in draws}

    def change(size: Dim) -> Dim:
        return size.substitute(sizes)
    return ev.with_sizes(value, change)


def drawn_value(value: Opaque) -> bool:
    """Whether `value` is a number drawn at random (see `drawn_number`)."""
    key = value.key
    return type(key) is tuple and len(key) == 2 and key[0] == DRAW


def drawn(atom: Atom) -> bool:
    """Whether `atom` is a draw (`random.randint(5, 9)`), or a number drawn (`rng.uniform(0.4, 1.0)`) made a size
    (`int(duration * sample_rate)`)."""
    return drawn_by(atom) is not None


def drawn_by(atom: Atom) -> int | None:
    """The id of the call that drew `atom` (see `drawn`); None for a size not drawn."""
    key = atom.key
    if type(key) is not tuple or len(key) != 2:
        return None
    if key[0] == "opaque" and type(key[1]) is tuple and len(key[1]) == 2:
        key = key[1]
    return key[1] if key[0] == DRAW else None  # type: ignore[return-value]


def scalar_draw(qualname: str, call: cst.Call) -> bool:
    """A random number drawn one at a time: `random.random()`, `np.random.beta(a, a)` (no `size`)."""
    module, _, name = qualname.rpartition(".")
    if module == "random":
        return name in _PYTHON_DRAWS
    return module == "numpy.random" and numpy_scalar_draw(name, call)


def _ini_entry(ev: Evaluator, node: cst.Subscript, before: int) -> Dim | None:
    """`config["model"]["hidden"]` of a `configparser` parser (or a name holding nothing the analysis knows), where
    the module reads one ini file holding an int there: the option's size, as `config.getint("model", "hidden")`
    is, with the file's value (see `ini_files`)."""
    found = entry_keys(node)
    if found is None or not (type(found[1]) is cst.Name or is_self_attribute(found[1])):
        return None
    config = ev.object(found[1], before)
    if not (config is UNKNOWN or isinstance(config, TorchObject) and config.qualname.startswith("configparser.")):
        return None
    keys, container = found
    shipped = ini_option(ev.ctx, *keys)
    if shipped is None:
        return None
    binding = ev.binding(container, before)
    owner = id(binding) if binding is not None else ev.ctx.code(container)
    return option_size(("option", owner, keys), ev.ctx.code(node), shipped)


def python_draw(ev: Evaluator, call: cst.Call, name: str, before: int) -> object:
    """What the `random` module's function `name` returns, or a `random.Random`'s method of that name (`rng =
    random.Random(seed)`): a count below a bound the code states (`drawn_count`), else an int all the same
    (`rng.randrange(n_classes)`, a label: no size the code states, which may be 1); a number (`rng.random()`);
    UNKNOWN for any other (`choice`, `shuffle`)."""
    if name in ("randrange", "randint"):
        return drawn_count(ev, call, before) or Dim.symbol(("int", id(call)), ev.ctx.code(call), placeholder=True)
    return drawn_number(ev, call) if name in _PYTHON_DRAWS else UNKNOWN


def numpy_scalar_draw(name: str, call: cst.Call) -> bool:
    """`np.random.randint(0, 5)`, a generator's `rng.integers(0, 20)` or `rng.random()`: one number, no `size`."""
    size_at = _NUMPY_DRAWS.get(name)
    if size_at is None or any(arg.star for arg in call.args):
        return False
    positional = sum(1 for arg in call.args if arg.keyword is None)
    return positional <= size_at and all(arg.keyword is None or arg.keyword.value != "size" for arg in call.args)


def python_type(value: object) -> str | None:
    """The builtin type of a value the code states (`int` for a literal size, `list` for a list), None when
    unknown; a loop over a config list (`for v in [64, "M", 128]`) tests it with `type(v) == int` or
    `isinstance(v, int)`."""
    if isinstance(value, Dim):
        return "int" if value.literal is not None else None
    if isinstance(value, Const):
        return "NoneType" if value.value is None else type(value.value).__name__
    if isinstance(value, Seq):
        return value.kind
    if isinstance(value, Mapping):
        return "dict"
    return None


# The types whose instances `Evaluator.kind_of` tells apart (a bool is an int too), by what names them.
_KNOWN_TYPES = {"int": {"int", "bool"}, "float": {"float"}, "str": {"str"}, "bool": {"bool"}, "list": {"list"},
                "tuple": {"tuple"}, "dict": {"dict"}, "torch.Tensor": {"torch.Tensor"}}


def _isinstance(kind: str | None, classes: object) -> object:
    """`isinstance(x, classes)` for an `x` of `kind`: known when every class named is one of `_KNOWN_TYPES`
    (`isinstance(h, torch.Tensor)` in a helper that detaches an RNN's state or each of its parts)."""
    wanted = classes.items if isinstance(classes, Seq) and classes.kind == "tuple" and classes.complete else (classes,)
    names = [c.qualname.removeprefix("builtins.") if isinstance(c, Imported) else None for c in wanted]
    if kind is None or any(name not in _KNOWN_TYPES for name in names):
        return UNKNOWN
    return TRUE if any(kind in _KNOWN_TYPES[name] for name in names) else FALSE  # type: ignore[index]


def ordered_dict(ev: Evaluator, node: cst.Call, before: int) -> object:
    """`OrderedDict([("conv", nn.Conv2d(...)), ...])`, `OrderedDict(conv=...)`, `OrderedDict()`."""
    if not node.args:
        return Mapping(())
    if any(arg.keyword is not None for arg in node.args):
        if any(arg.keyword is None or arg.star for arg in node.args):
            return UNKNOWN
        return Mapping(tuple((arg.keyword.value, ev.object(arg.value, before)) for arg in node.args
                             if arg.keyword is not None))
    if len(node.args) != 1 or node.args[0].star:
        return UNKNOWN
    pairs = container_items(ev.object(node.args[0].value, before))
    if isinstance(pairs, Mapping):
        return pairs
    if not isinstance(pairs, Seq):
        return UNKNOWN
    items: list[tuple[Hashable, object]] = []
    for pair in pairs.items:
        key = key_of(pair.items[0]) if isinstance(pair, Seq) and len(pair.items) == 2 else None
        if key is None:
            return Mapping(tuple(items), complete=False)
        items.append((key, pair.items[1]))  # type: ignore[union-attr]
    return Mapping(tuple(items), complete=pairs.complete)


def _columns(rows: object) -> object:
    """`zip(*batch)` over rows of an unknown count that are all one tuple (a `collate_fn`'s samples, a replay
    buffer's sampled transitions): one column per field, each as many elements as there are rows, all alike."""
    if not isinstance(rows, Seq) or rows.items or not isinstance(rows.each, Seq) or rows.each.kind != "tuple" \
            or not rows.each.complete or not rows.each.items:
        return UNKNOWN
    return Seq(tuple(Seq((), "tuple", complete=False, each=field, least=rows.least, grown=rows.grown,
                         most=rows.most) for field in rows.each.items))


def _option_counts(ev: Evaluator, node: cst.Call, before: int,
                   positional: tuple[object, ...] | None) -> tuple[object, ...] | None:
    """`range(args.epochs)` in the script that parses the command line: the option's size, its default kept, where
    the value is not stated (the run with no flags takes the loop's first pass, as a count handed to a trainer
    does)."""
    if positional is None or len(positional) != len(node.args):
        return positional
    counts = []
    for arg, value in zip(node.args, positional):
        if value is UNKNOWN and type(arg.value) is cst.Attribute and option_default(ev, arg.value, before) is not None:
            value = attribute_size(ev, arg.value, before) or UNKNOWN
        counts.append(value)
    return tuple(counts)


def sampled(ev: Evaluator, call: cst.Call, before: int) -> object:
    """`random.sample(population, k)`: `k` of the population's elements, each one of them (the transitions a replay
    buffer's batch draws, a batch of node ids); UNKNOWN where `k` is not a size."""
    args = call.args
    if not args or args[0].keyword is not None or args[0].star:
        return UNKNOWN
    counted = next((arg.value for arg in args[1:] if not arg.star and (arg.keyword is None or arg.keyword.value == "k")),
                   None)
    count = ev.size(counted, before)
    if count is None:
        return UNKNOWN
    element = ev.element(ev.object(args[0].value, before))
    return Seq((), complete=False, each=None if element is UNKNOWN else element, least=count.literal or 0,
               grown=count, most=count.literal)


def _range(positional: tuple[object, ...] | None, node: cst.Call) -> object:
    if positional is None or not 1 <= len(positional) <= 3:
        return UNKNOWN
    # a count a caller hands on (`train(model, loader, args.epochs)`) is the option's size
    positional = tuple(v.as_size() if isinstance(v, Opaque) and v.default is not None else v for v in positional)
    literals = [literal_of(v) for v in positional]
    if any(type(v) is not int for v in literals):
        return Seq((), complete=False, each=_index_below(positional, node), least=_passes_at_defaults(positional))
    bounds = literals if len(literals) > 1 else [0, literals[0]]
    numbers = range(*bounds)  # type: ignore[arg-type]
    if len(numbers) > MAX_ITEMS:
        return Seq((), complete=False, each=_index_below(positional, node))
    return Seq(tuple(Dim.of(n) for n in numbers))


def _passes_at_defaults(positional: tuple[object, ...]) -> int:
    """At least one number where `range(n)` counts to a command-line option's positive default (`range(args.epochs)`,
    `default=10`), or `range(a, b, k)` starts below its end and steps up in the run with no flags (the batches of a
    data set's rows, `range(0, len(self), args.batch_size)`): that run takes the loop's first pass (see
    `dims.at_defaults`)."""
    start, end = (Dim.of(0), positional[0]) if len(positional) == 1 else positional[:2]
    step = positional[2] if len(positional) == 3 else Dim.of(1)
    if not (isinstance(start, Dim) and isinstance(end, Dim) and isinstance(step, Dim)):
        return 0
    first, last, stride = at_defaults(start), at_defaults(end), at_defaults(step)
    return 1 if first is not None and last is not None and stride is not None and first < last and stride > 0 else 0


def _index_below(positional: tuple[object, ...], node: cst.Call) -> Dim | None:
    """What every number of `range(n)` (or `range(0, n)`) is when they are too many to list or `n` is not stated:
    an int at least 0 and below `n` (a window `series[s:s + w]` for `s` in `range(len(series) - w)` stays inside the
    series). From another start or with a positive step the code states, `range(a, b, k)`: `a` plus an int at least 0
    and below `b - a` (a window `sensors[end - w:end]` for `end` in `range(w, len(sensors) + 1, stride)`, the sliding
    windows of a time-series dataset, is `w` rows), a symbol of its own kind, as it counts no passes; None for other
    steps; a step the code does not state is a size (`args.batch_size`), at least 1 where the range has a number."""
    end = positional[-1] if len(positional) == 1 else positional[1]
    start = positional[0] if len(positional) > 1 else Dim.of(0)
    step = positional[2] if len(positional) == 3 else Dim.of(1)
    least = at_least(step) if isinstance(step, Dim) else None
    if not isinstance(end, Dim) or not isinstance(start, Dim) or least is None or least < 0 \
            or step.literal is not None and step.literal < 1:  # type: ignore[union-attr]
        return None  # a step that may be negative (`-stride`) counts down from the start
    if start.literal == 0 and step.literal == 1:
        return Dim.symbol(("range index", id(node), end), "i", below=end)
    return start + Dim.symbol(("range offset", id(node), end - start), "i", below=end - start)

