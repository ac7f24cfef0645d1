"""Sizes as values: `x.shape`, `x.size()`, `x.size(i)`, `x.shape[-1]`, `len(x)`, tuples and slices of sizes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import dotted_name, is_self_attribute
from shapecheck.engine.walker import walk
from shapecheck.objects.changes import in_place_changes
from shapecheck.objects.command_line import attribute_size
from shapecheck.objects.builtins import drawn_count
from shapecheck.objects.dims import Dim, option_size
from shapecheck.objects.evaluator import named
from shapecheck.objects.ini_files import ini_read
from shapecheck.objects.values import UNKNOWN, Imported, Opaque, Seq, TorchObject
from shapecheck.shapes.loaders import dataset_length
from shapecheck.shapes.numpy_arrays import array_shape
from shapecheck.shapes.views import product
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.values import Array, Items, Sizes

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def size_sequence(ev: ShapeEvaluator, node: cst.BaseExpression, before: int) -> Shape | None:
    """A sequence of sizes: `x.shape`, `x.size()`, `(B, T, C)`, `x.shape[:-1]`, `a + (n,)`, `torch.Size([...])`."""
    kind = type(node)
    if kind is cst.Attribute and node.attr.value == "shape" or kind is cst.Call and type(node.func) is cst.Attribute \
            and node.func.attr.value == "size" and not node.args:
        tensor = node.value if kind is cst.Attribute else node.func.value
        return ev.tensor(tensor, before)
    if kind in (cst.Tuple, cst.List):
        dims: list[Dim] = []
        variadic = None
        for element in node.elements:
            if type(element) is cst.StarredElement:
                inner = ev.sizes(element.value, before)
                if inner is None or inner.variadic is not None and variadic is not None:
                    return None
                if inner.variadic is not None:
                    variadic = len(dims) + inner.variadic
                dims.extend(inner.dims)
                continue
            dim = ev.size(element.value, before)
            if dim is None:
                return None
            dims.append(dim)
        return Shape(tuple(dims), variadic)
    if kind is cst.Subscript and len(node.slice) == 1 and type(node.slice[0].slice) is cst.Slice:
        whole = ev.sizes(node.value, before)
        return None if whole is None else _sliced_sizes(ev, whole, node.slice[0].slice, before)
    if kind is cst.BinaryOperation and type(node.operator) is cst.Add:
        left, right = ev.sizes(node.left, before), ev.sizes(node.right, before)
        if left is None or right is None or left.variadic is not None and right.variadic is not None:
            return None
        variadic = left.variadic if left.variadic is not None else (
            None if right.variadic is None else len(left.dims) + right.variadic)
        return Shape(left.dims + right.dims, variadic)
    if kind is cst.Name:
        value = ev.follow(node, before, "sizes")
        return value.shape if isinstance(value, Sizes) else None
    if kind is cst.Call and ev.ctx.qualname(node.func) == "torch.Size" and len(node.args) == 1:
        return ev.sizes(node.args[0].value, before)
    if kind is cst.Subscript or is_self_attribute(node):
        # a tuple of sizes a config entry or the instance holds (`cfg["out_size"]`, `self.size = size`)
        value = ev.as_want(ev.object(node, before), "sizes")
        return value.shape if isinstance(value, Sizes) else None
    return None


def _sliced_sizes(ev: ShapeEvaluator, whole: Shape, piece: cst.Slice, before: int) -> Shape | None:
    if piece.step is not None:
        return None
    lower = ev.integer(piece.lower, before) if piece.lower is not None else None
    upper = ev.integer(piece.upper, before) if piece.upper is not None else None
    if piece.lower is not None and lower is None or piece.upper is not None and upper is None:
        return None
    if whole.variadic is None:
        return Shape(whole.dims[lower:upper])
    # an unknown run: `[:k]` and `[-k:]` are fine when they stay on one side of it; `[:-k]` keeps the run
    v = whole.variadic
    if lower is None and upper is not None and upper < 0:
        if -upper <= len(whole.dims) - v:
            return Shape(whole.dims[:upper], v, whole.variadic_name)
        return Shape(whole.dims[:v], v, whole.variadic_name)  # what the unknown run leaves is unknown too
    if upper is None and lower is not None and lower < 0 and -lower <= len(whole.dims) - v:
        return Shape(whole.dims[lower:])
    if lower is None and upper is not None and 0 <= upper <= v:
        return Shape(whole.dims[:upper])
    if upper is None and lower is not None and 0 <= lower <= v:
        return Shape(whole.dims[lower:], v - lower, whole.variadic_name)
    return None


def size_attribute(ev: ShapeEvaluator, node: cst.Attribute, before: int) -> Dim | None:
    if node.attr.value == "ndim":
        shape = ev.tensor(node.value, before) or array_shape(ev, node.value, before)
        return Dim.of(shape.rank) if shape is not None and shape.rank is not None else None
    if ev.ctx.qualname(node) is not None:
        return None
    # what the object holds (an attribute `__init__` set, a config's field: the same size its layers were built
    # with), else what the class's assignments say, else a size of its own for each spelling
    value = ev.object(node, before)
    if isinstance(value, Opaque):
        value = value.as_size()
    if isinstance(value, Dim):
        return named(value, ev.ctx.code(node))
    if is_self_attribute(node):
        return ev.size_of_name(node, before)
    return attribute_size(ev, node, before)


def size_call(ev: ShapeEvaluator, node: cst.Call, before: int) -> Dim | None:
    func = node.func
    drawn = drawn_count(ev, node, before)
    if drawn is not None:
        return drawn
    if type(func) is cst.Attribute and func.attr.value == "getint":
        # an ini config's option, of a parser made here or imported from the project's config module
        # (`from settings import CONFIG`)
        return _config_option(ev, node, before)
    if type(func) is cst.Attribute and ev.ctx.qualname(func) is None:
        name = func.attr.value
        if name == "size" and len(node.args) == 1:
            index = ev.integer(node.args[0].value, before)
            return ev.dim_of_tensor(func.value, index, before) if index is not None else None
        if name in ("dim", "ndimension") and not node.args:
            shape = ev.tensor(func.value, before)
            return Dim.of(shape.rank) if shape is not None and shape.rank is not None else None
        if name in ("numel", "nelement") and not node.args:
            shape = ev.tensor(func.value, before)
            return product(shape.dims) if shape is not None and shape.rank is not None else None
        return None
    if type(func) is cst.Name and len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None:
        builtin = ev.object(func, before)
        if builtin == Imported("builtins.int"):
            # `int(sample_rate * seconds)`: a float the code states, made a count, else the size the argument is
            value = ev.object(node, before)
            if isinstance(value, Dim) and value.literal is not None:
                return value
            argument = node.args[0].value
            drawn = drawn_count(ev, argument, before, converted=True) if type(argument) is cst.Call else None
            return drawn if drawn is not None else ev.size(argument, before)
        if builtin == Imported("builtins.len"):  # a tensor's (or an array's) length is its first dim
            shape = ev.tensor(node.args[0].value, before) or array_shape(ev, node.args[0].value, before)
            if shape is not None:
                return shape.size(0)
            # the feature maps a `forward` collected and returned (`feats.append(x)` over its stages)
            values = ev.object(node.args[0].value, before)
            if isinstance(values, Items):
                return Dim.of(len(values.items)) if values.items is not None else values.count
            if isinstance(values, TorchObject):
                return dataset_length(values)
    return None


def size_subscript(ev: ShapeEvaluator, node: cst.Subscript, before: int) -> Dim | None:
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return None
    key = node.slice[0].slice.value
    index = ev.integer(key, before)
    container = node.value
    if index is None:
        return _config_item(ev, node, key, before)
    measured_tensor = measured(container)
    if measured_tensor is not None:
        return ev.dim_of_tensor(measured_tensor, index, before)
    whole = ev.sizes(container, before)
    if whole is not None:
        return whole.size(index)
    if (type(container) is cst.Name or is_self_attribute(container)) \
            and not isinstance(ev.object(container, before), (Shape, Array)) \
            and not _holds_tensors(ev.object(container, before)):
        # a tensor's row (`h_n[0]` of a recurrent layer's final state) is a tensor, never a size: read as one, the
        # arithmetic a run returns (`h_n[0] + h_n[1]`, directions summed) would be taken for an int
        binding = ev.binding(container, before)
        owner = id(binding) if binding is not None else ev.ctx.code(container)
        # named by the analysis, as an attribute's size is: an item of a container the code never explains may be
        # an int or a whole shape (`torch.rand(shapes[1])` with `shapes = [(10,), ()]`)
        return Dim.symbol(("item", owner, index), ev.ctx.code(node), placeholder=True)
    return None


def _holds_tensors(held: object) -> bool:
    """Whether a list the code states holds tensors (`rewards = [torch.tensor([r]) for r in rs]`): its item is a
    tensor, never a size (read as one, `rewards[t] * gamma` appended to a list would be taken for an int)."""
    if isinstance(held, Seq):
        parts = (*held.items, held.each)
    elif isinstance(held, Items):
        parts = (*(held.items or ()), held.each)
    else:
        return False
    return any(isinstance(part, Shape) for part in parts)


def _config_item(ev: ShapeEvaluator, node: cst.Subscript, key: cst.BaseExpression, before: int) -> Dim | None:
    """`cfg["hidden"]` of a dict the code never explains (a parameter, a loaded config): a size of its own, the same
    for every read of that key of that binding, as an attribute's (`args.hidden`) is."""
    container = node.value
    if type(key) is not cst.SimpleString or not (type(container) is cst.Name or is_self_attribute(container)):
        return None
    held = ev.object(container, before)
    if held is not UNKNOWN and not isinstance(held, Opaque):
        return None  # a dict, list or object the code states: its item is what it holds, or unknown
    if dotted_name(container) in _changed_in_place(ev):
        return None  # `cfg["hidden"] = cfg["hidden"] * 2`: two reads of the key need not be one size
    binding = ev.binding(container, before)
    owner = id(binding) if binding is not None else ev.ctx.code(container)
    return Dim.symbol(("item", owner, key.evaluated_value), ev.ctx.code(node), placeholder=True)


def _config_option(ev: ShapeEvaluator, node: cst.Call, before: int) -> Dim | None:
    """`config.getint("model", "hidden")` of an ini config (a `configparser` parser or one of its sections,
    `cfg["model"].getint("hidden")`) the code never explains: a size of its own, the same for every read of that
    option of that binding, as a dict's item is; a fresh one at each read where the module may change the config
    (`config.set(...)`, handed to a call), so that a read stays a size without being equal to another."""
    keys = [arg.value.evaluated_value for arg in node.args if type(arg.value) is cst.SimpleString]
    if not keys or len(keys) != len([arg for arg in node.args if arg.keyword is None]):
        return None
    container = node.func.value  # type: ignore[attr-defined]
    while type(container) is cst.Subscript and len(container.slice) == 1 \
            and type(container.slice[0].slice) is cst.Index \
            and type(container.slice[0].slice.value) is cst.SimpleString:
        keys.insert(0, container.slice[0].slice.value.evaluated_value)
        container = container.value
    if not (type(container) is cst.Name or is_self_attribute(container)):
        return None
    if isinstance(ev.object(container, before), (Shape, Array, Items, Sizes)):
        return None
    section = _section_held(ev, container, before) if len(keys) == 1 else None
    if section is not None:  # `model_cfg = config["model"]`, then `model_cfg.getint("hidden")`
        keys.insert(0, section[0])
        container = section[1]
    # the value the project's ini file holds: the size of a run that reads that file, as an option's default is
    # (a call handed the config is not looked into: it may set an option, but the file's run is the one shipped)
    shipped = ini_read(ev.ctx, node, section[0] if section is not None else None)
    if dotted_name(container) in _changed_in_place(ev):
        return option_size(("option", id(node)), ev.ctx.code(node), shipped)
    binding = ev.binding(container, before)
    owner = id(binding) if binding is not None else ev.ctx.code(container)
    return option_size(("option", owner, tuple(keys)), ev.ctx.code(node), shipped)


def _section_held(ev: ShapeEvaluator, name: cst.BaseExpression, before: int) -> tuple[str, cst.Name] | None:
    """The section a name holds and the config it is of, where its one binding is `config["model"]` of a name."""
    if type(name) is not cst.Name:
        return None
    binding = ev.binding(name, before)
    value = binding.value if binding is not None and binding.kind == "assign" and binding.index is None else None
    if type(value) is not cst.Subscript or len(value.slice) != 1 or type(value.slice[0].slice) is not cst.Index \
            or type(value.slice[0].slice.value) is not cst.SimpleString or type(value.value) is not cst.Name:
        return None
    section = value.slice[0].slice.value.evaluated_value
    return (section, value.value) if isinstance(section, str) else None


_CHANGED_IN_PLACE = "containers changed in place"  # the module fact's kind
_CONFIG_SETTERS = frozenset({"set", "remove_option", "remove_section", "read_dict", "read_string"})


def _changed_in_place(ev: ShapeEvaluator) -> frozenset[str]:
    """The containers (as spelled: `cfg`, `self.cfg`) the module sets or deletes an item of, calls a changing
    method of (`cfg.update(...)`, an ini config's `config.set(...)`) or hands to a call that may change them,
    anywhere: the binding an unknown dict's item is keyed by does not see those changes, so such a dict's items are
    no sizes of their own. A module fact (the editor server keeps each statement's part); a call's callee is not
    looked into, so any call counts."""
    return ev.ctx.module_fact(_CHANGED_IN_PLACE, _changed_in)


def _changed_in(statement: cst.CSTNode) -> frozenset[str]:
    """One statement's part, read from the statement alone: the editor server works it out for an edited statement
    with the function it was first given, after the lint that gave it is over (a part that asked that lint's
    context for a spelling failed there)."""
    changed: set[str | None] = set()
    for node in walk(statement):  # an ini config's option set again after it was read (`config.set(s, o, v)`)
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _CONFIG_SETTERS:
            changed.add(dotted_name(node.func.value))
    for change in in_place_changes(statement):
        through = change.through
        if change.kind != "target":
            changed.add(dotted_name(through))
        elif type(through) is cst.Subscript:  # `cfg["hidden"] = ...` changes `cfg`; `w.n = ...` no item
            changed.add(dotted_name(through.value))
    changed.discard(None)
    return frozenset(changed)  # type: ignore[arg-type]


def measured(expr: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """`x` for `x.shape` and `x.size()`."""
    if type(expr) is cst.Attribute and expr.attr.value == "shape":
        return expr.value
    if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "size" \
            and not expr.args:
        return expr.func.value
    return None
