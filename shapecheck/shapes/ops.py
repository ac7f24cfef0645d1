"""Transfer functions: the shape each torch function, tensor method, operator and subscript gives, from the shapes
of its inputs. Each returns None when the inputs or arguments aren't known well enough: never a guess.

This module dispatches a call to its transfer function; the functions themselves live by kind: `elementwise`,
`matmul`, `einsum`, `einops`, `transposes`, `reshaping`, `indexing`, `reductions`, `joins`, `creation`, `spectral` (torch.fft),
`functional` (convolutions, pooling, padding, interpolation, attention) and `losses`; `sizes` reads sizes,
`positions` does the shape surgery they share.

Layout follows PyTorch's strides: transpose/permute/`.T`/`.mT`/movedim reorder it, `.contiguous()`, matmul and
fresh tensors are row-major, elementwise ops and dtype/device moves keep it (`preserve_format`), and a `view` of a
permuted tensor is left unknown (its strides depend on which dims it splits).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute
from shapecheck.objects.values import UNKNOWN, ClassValue, FunctionValue, Imported, Instance, Mapping, Seq, TorchObject
from shapecheck.shapes import (creation, distributions, einops, einsum, elementwise, functional, indexing, joins,
                               layers, losses, matmul, packing, reductions, reshaping, spectral, transposes, value_bounds,
                               vision_transforms)
from shapecheck.shapes.args import Args, Hidden, as_function, torch_name
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.signature import annotated_result, contradiction
from shapecheck.shapes.transposes import arguments_spelled
from shapecheck.shapes.values import Array, Items

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator


def call(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    result = _dispatch(ev, node, before, FUNCTIONS, METHODS)
    return result if isinstance(result, Shape) else None


def _dispatch(ev: ShapeEvaluator, node: cst.Call, before: int, functions: dict, methods: dict):
    """A torch function from `functions` by its qualname, a tensor method from `methods` (given the receiver's
    shape), else a module or a project function."""
    ctx = ev.ctx
    func = node.func
    try:
        qualname = ctx.qualname(func)
        if qualname is not None:
            name = torch_name(qualname)
            handler = functions.get(name)
            if handler is None:  # a function of the project, imported (`from model import pool`), is run
                callee = ev.object(func, before)
                return _module_call(ev, node, before, fresh=False) if isinstance(callee, FunctionValue) else None
            result = handler(ev, node, before)
            if name not in value_bounds.PRODUCERS:
                result = value_bounds.bounded_like(result, _values_source(ev, node, name, before))
            if isinstance(result, Shape) and name in transposes.FUNCTIONS:
                result = replace(result, permuted_by=f"{ctx.code(func)}(...)")
            return result
        if type(func) is cst.Attribute and func.attr.value in _CLASS_FUNCTION_NAMES:
            name = _class_function(ev, func, before)
            if name in functions:
                return functions[name](ev, node, before)
        if type(func) is cst.Attribute and not is_self_attribute(func):
            handler = methods.get(func.attr.value)
            if handler is None and func.attr.value == "pop":  # an element a list gives up (`skips.pop()`)
                popped = ev.object(node, before)
                return popped if isinstance(popped, Shape) else None
            if handler is None:  # not a tensor method: a distribution's, a module or method of an object
                drawn = distributions.method(ev, node, before)
                return drawn if drawn is not None else _module_call(ev, node, before, fresh=False)
            shape = ev.tensor(func.value, before)
            if shape is None:
                return None
            result = value_bounds.bounded_like(handler(ev, shape, Args(node), before),
                                               shape if func.attr.value in value_bounds.KEEPING_METHODS else None)
            if isinstance(result, Shape) and func.attr.value in transposes.METHODS:
                result = replace(result, permuted_by=f".{func.attr.value}({arguments_spelled(ctx, node)})")
            return result
    except Hidden:
        return None
    return _module_call(ev, node, before)


def _class_function(ev: ShapeEvaluator, func: cst.Attribute, before: int) -> str | None:
    """The name of a function of a torch class called through an instance the code built
    (`self.transformer.generate_square_subsequent_mask(n)` is `nn.Transformer.generate_square_subsequent_mask(n)`):
    the class functions the tables list are static methods, which an instance reaches with the same arguments."""
    owner = ev.object(func.value, before)
    return torch_name(f"{owner.qualname}.{func.attr.value}") if isinstance(owner, TorchObject) else None


def _values_source(ev: ShapeEvaluator, node: cst.Call, name: str, before: int) -> Shape | None:
    """The tensor whose values the result of torch function `name` holds, if it only moves or selects them."""
    if name in value_bounds.KEEPING_FUNCTIONS:
        return ev.tensor(Args(node).get(0, "input"), before)
    if name in value_bounds.JOINING_FUNCTIONS:
        return value_bounds.common(ev.items(Args(node).get(0, "tensors"), before))
    return None


def _module_call(ev: ShapeEvaluator, node: cst.Call, before: int, fresh: bool = True):
    """A call of a module or a function of the project (`self.fc(x)`, `model(x)`, `block(x)`, `head.loss(y, t)`):
    what layers.py knows about the module, or what running the function gives; else (with `fresh`) a fresh
    row-major tensor of unknown rank unless the callee is a class (a constructor), a foreign function or one of
    torch's modules that hand back transposed views."""
    inputs = tuple(ev.tensor(arg.value, before) if arg.keyword is None and not arg.star else None
                   for arg in node.args)
    known = losses.loss_result(ev, node, before)
    if known is None:
        known = layers.call_result(ev, node, inputs, before)
    if known is None:
        known = vision_transforms.applied(ev, node, before)
    if known is not None and not (isinstance(known, Shape) and known.variadic is not None):
        return known
    callee = ev.object(node.func, before)
    model = layers.model_of(ev, callee)
    if model is not None:
        # a model whose forward's run leaves the rank open: what its return annotation promises, if that fits
        promised = annotated_result(ev, model.forward, node, before)
        if promised is not None and (known is None or contradiction(known, promised) is None):
            return promised
    if known is not None:
        return known
    callee = ev.called(callee)
    if isinstance(callee, FunctionValue):
        result = ev.calls.call(callee, node, before)
        if isinstance(result, Array):
            return None  # a numpy array, which is no tensor (`shapes.numpy_arrays`)
        if isinstance(result, Seq):
            result = ev.as_want(result, "items")
        if isinstance(result, Items) or isinstance(result, Shape) and result.dims:
            return result
        promised = annotated_result(ev, callee, node, before)
        if promised is not None:
            return promised
        if isinstance(result, Shape):
            return result
    if callee == _SUM:
        summed = _summed(ev, node, before)
        if summed is not None:
            return summed
    if isinstance(callee, Imported) and callee.qualname.startswith("builtins."):
        # what the object floor knows a builtin gives: `next(iter(loader))` is a batch, `next(model.parameters())`
        # a tensor
        value = ev.object(node, before)
        return value if isinstance(value, Shape | Items) else ev.as_want(value, "items")
    if not fresh:
        return None
    func = node.func
    if type(func) is cst.Name or is_self_attribute(func):
        if isinstance(callee, (ClassValue, Imported)) or callee is UNKNOWN and \
                type(func) is cst.Name and ev.binding(func, before) is None and before >= 0:
            return None  # a builtin, a constructor or a foreign function
        if layers.returns_views(callee):
            return None
    return Shape.unknown_rank()


_SUM = Imported("builtins.sum")


def _summed(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """`sum(weights[k] * losses[k] for k in losses)`: tensors added up, the broadcast of them all (a per-clip loss
    among scalar ones stays per clip); None unless every element is a tensor of known shape and the start, if
    any, a number."""
    try:
        args = Args(node)
    except Hidden:  # `sum(**parts)`: which argument is which can't be told
        return None
    listed, start = args.get(0, "iterable"), args.get(1, "start")
    if listed is None or start is not None and not elementwise.is_number(ev, start, before):
        return None
    found = ev.items(listed, before)
    if found is None or not found.items or not all(isinstance(item, Shape) for item in found.items):
        return None
    total = found.items[0]
    for item in found.items[1:]:
        total = broadcast(total, item).shape  # type: ignore[arg-type]
        if total is None:
            return None
    return total  # type: ignore[return-value]


def items(ev: ShapeEvaluator, node: cst.BaseExpression, before: int) -> Items | None:
    kind = type(node)
    if kind in (cst.Tuple, cst.List):
        if any(type(e) is cst.StarredElement for e in node.elements):
            return None
        return Items(tuple(ev.tensor(e.value, before) for e in node.elements))
    if kind is cst.Name:
        value = ev.follow(node, before, "items")
        return value if isinstance(value, Items) else None
    if kind in (cst.ListComp, cst.GeneratorExp):  # `[torch.randn(n, 40) for n in LENGTHS]`: its elements, unrolled
        value = ev.as_want(ev.object(node, before), "items")
        return value if isinstance(value, Items) else None
    if kind is not cst.Call:
        return None
    result = _dispatch(ev, node, before, TUPLE_FUNCTIONS, TUPLE_METHODS)
    return result if isinstance(result, Items) else None


def returned_object(ev: ShapeEvaluator, node: cst.Call, before: int) -> Mapping | TorchObject | Seq | Instance | None:
    """The dict of tensors (`{"logits": ..., "features": ...}`) or the distribution (`Categorical(logits=...)`) a
    model or a function of the project returns, a tuple holding a distribution (`return dist, value`), or a record of
    the project holding tensors (`return TaggerOutput(logits=...)`, a dataclass or a NamedTuple: `out.logits`)."""
    result = _module_call(ev, node, before, fresh=False)
    return result if isinstance(result, (Mapping, TorchObject, Seq, Instance)) else None


# ------------------------------------------------------------------------------------------------ tables

_BY_KIND = (elementwise, matmul, einsum, einops, transposes, reshaping, indexing, reductions, joins, creation, spectral)
METHODS = {name: handler for kind in _BY_KIND for name, handler in getattr(kind, "METHODS", {}).items()}
FUNCTIONS = {**{name: handler for kind in _BY_KIND for name, handler in getattr(kind, "FUNCTIONS", {}).items()},
             **functional.FUNCTIONS, **losses.FUNCTIONS}
TUPLE_METHODS = {**reductions.TUPLE_METHODS, **joins.TUPLE_METHODS}
# the names of the functions of torch classes (`Transformer.generate_square_subsequent_mask`), asked of instances
_CLASS_FUNCTION_NAMES = frozenset(name.rsplit(".", 1)[1] for name in FUNCTIONS
                                  if name.count(".") > 1 and name.rsplit(".", 2)[1][:1].isupper())
TUPLE_FUNCTIONS = {**{f"torch.{name}": as_function(handler) for name, handler in TUPLE_METHODS.items()},
                   **creation.TUPLE_FUNCTIONS, packing.PAD: packing.padded}
