"""Which operations certainly raise for shape reasons: the `Conflict`s the shapes the evaluator knows prove."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.syntax import is_self_attribute
from shapecheck.objects.values import FunctionValue
from shapecheck.shapes import (dim_range, einops, einsum, expansion, functional, last_batch, layers, loaders, losses,
                              masks, ops, runs)
from shapecheck.shapes.signature import argument_shapes, call_contradiction
from shapecheck.shapes.args import Args, Hidden, dtype_of, shape_arguments, torch_name
from shapecheck.shapes.elementwise import BROADCASTING, is_number
from shapecheck.shapes.joins import UNCOUNTED, joined, sections_conflict
from shapecheck.shapes.matmul import batch_mismatch, matmul, strict_product
from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import same, varies
from shapecheck.shapes.sizes import measured
from shapecheck.shapes.views import WILDCARD, count_mismatch, layout_verdict
from shapecheck.shapes.values import Conflict


def find(ev, node: cst.CSTNode, before: int | None = None) -> Conflict | None:
    """The conflict `node` certainly raises, if the shapes the evaluator knows prove one, read as of `before`
    (default: the node being visited)."""
    before = ev.now() if before is None else before
    code = ev.ctx.code
    kind = type(node)
    if kind is cst.BinaryOperation:
        if type(node.operator) is cst.MatrixMultiply:
            return _matmul(ev, node, node.left, node.right, before)
        return _broadcast(ev, node, node.left, node.right, before)
    if kind is cst.Assign:
        return _unpacking(ev, node, before)
    if kind is cst.AugAssign:
        return _broadcast(ev, node, node.target, node.value, before) if type(node.operator) in _IN_PLACE else None
    if kind is cst.Subscript:
        return dim_range.index_out_of_range(ev, node, before)
    if kind is cst.For:
        found = loaders.collation_conflict(ev, node, before)
        if found is None:
            return None
        return Conflict("collate", node, (), f"`for {code(node.target)} in {code(node.iter)}`: {found[0]}", found[1])
    if kind is not cst.Call:
        return None
    try:
        qualname = ev.ctx.qualname(node.func)
        name = torch_name(qualname) if qualname is not None else None
        if name in _MATMUL_FUNCTIONS:
            args = Args(node)
            return _matmul(ev, node, args.get(0, "input"), args.get(1, "other", "mat2"), before, name[6:])
        if name in _JOIN_FUNCTIONS:
            return _joined(ev, node, before, name == "torch.stack")
        if name in einsum.FUNCTIONS:
            found = einsum.contraction(ev, node, before)
            return Conflict("einsum", node, (), found.conflict) if found is not None and found.conflict else None
        if name in einops.FUNCTIONS:
            found = einops.rearranged(ev, node, name[len("einops."):], before)
            return Conflict("einops", node, (), found.conflict) if found is not None and found.conflict else None
        if name in _INTERPOLATIONS:
            found = functional.interpolation_mismatch(ev, node, before)
            if found is None:
                return None
            tensor = ev.ctx.code(Args(node).get(0, "input"))
            return Conflict("interpolate", node, (found[0],),
                            f"`{code(node)}`: {tensor} is {found[0].render()}: {found[1]}")
        if name == "F.scaled_dot_product_attention":
            return masks.attention_mask_conflict(ev, node, before)
        if name in losses.FUNCTIONS:
            return _loss(ev, node, before)
        if name in masks.FUNCTIONS:
            return masks.mask_conflict(ev, node, before)
        if name in _GATHER_FUNCTIONS:
            args = Args(node)
            return _gather(ev, node, args.get(0, "input"), args.get(2, "index"), before)
        if name in dim_range.FUNCTIONS:
            found = dim_range.out_of_range(ev, node, dim_range.FUNCTIONS[name], None, before)
            return found if found is not None or name != "torch.split" else sections_conflict(ev, node, None, before)
        if qualname is None and type(node.func) is cst.Attribute and not is_self_attribute(node.func):
            method = node.func.attr.value
            if method in _GATHER_METHODS:
                return _gather(ev, node, node.func.value, Args(node).get(1, "index"), before)
            if method in masks.MASKED_FILL:
                return masks.mask_conflict(ev, node, before)
            if method in _MATMUL_METHODS:
                return _matmul(ev, node, node.func.value, Args(node).get(0, "other", "mat2"), before, method)
            if method in expansion.METHODS:
                return expansion.expand_conflict(ev, node, before)
            if method in _VIEW_METHODS:
                shape = ev.tensor(node.func.value, before)
                sizes = shape_arguments(ev, Args(node), 0, "size" if method == "view" else "shape", before)
                if sizes is not None and sizes.dims.count(WILDCARD) > 1:
                    return Conflict("view-count", node, (), f"`{code(node)}`: only one size can be -1 (inferred), "
                                                            f"but {sizes.render()} has {sizes.dims.count(WILDCARD)}")
                if shape is None or sizes is None:
                    return None
                mismatch = count_mismatch(shape, sizes)
                if mismatch is None:
                    return None
                return Conflict("view-count", node, (shape,),
                                f"`{code(node)}`: a {shape.render()} tensor has {mismatch[0]} elements, which "
                                f"can't be viewed as {sizes.render()}")
            if method in BROADCASTING:  # `x.add(y)`, `x.pow(p)`: like `x + y`, `x ** p`
                other = Args(node).get(0, BROADCASTING[method])
                return _broadcast(ev, node, node.func.value, other, before) if other is not None else None
            if method in dim_range.DIM_ARGUMENTS:
                found = dim_range.out_of_range(ev, node, method, node.func.value, before)
                return found if found is not None or method != "split" else \
                    sections_conflict(ev, node, node.func.value, before)
            if method in ops.METHODS or method in ops.TUPLE_METHODS:
                return None  # a tensor method: no module is called
        if qualname is not None and not qualname.startswith(_LIBRARIES):
            return _call_conflict(ev, node, before)  # a function another module of the project defines, perhaps
        if qualname is None:
            if losses.computes_loss(ev.object(node.func, before)):  # `criterion(pred, y)`
                return _loss(ev, node, before)
            # Most such calls are not layers: ask that first, before the (costlier) shapes of the arguments.
            if layers.module_of(ev, node.func, before) is None:
                return _call_conflict(ev, node, before)
            inputs = tuple(ev.tensor(arg.value, before) if arg.keyword is None and not arg.star else None
                           for arg in node.args)
            return layers.call_conflict(ev, node, inputs, before)
    except Hidden:
        return None
    return None


def settled(ev, node: cst.CSTNode) -> bool:
    """Whether the bindings already rule out any conflict `find` could see at `node` in a run of its function: an
    operand it needs as a tensor (a callee it needs as a function of the project or a layer) reads no name a run
    knows better than the bindings, and is none as of the node. Such a name-free operand holds in every run what
    it holds here (see `objects.carried`), so the run of the function, the costliest question, is not made for
    `node`."""
    kind = type(node)
    if kind is cst.BinaryOperation:
        return _no_tensor(ev, node.left) or _no_tensor(ev, node.right)
    if kind is cst.Assign:
        tensor = measured(node.value)
        return tensor is not None and _no_tensor(ev, tensor)
    if kind is cst.Subscript:
        return _no_tensor(ev, node.value)
    if kind is not cst.Call or ev.ctx.qualname(node.func) is not None:
        return False
    func = node.func
    if type(func) is cst.Attribute and not is_self_attribute(func):
        method = func.attr.value
        if method in _CHECKED_METHODS or method in masks.MASKED_FILL or method in BROADCASTING \
                or method in dim_range.DIM_ARGUMENTS:
            return False
    # what is left calls a function of the project or a layer, or finds nothing
    if ev.read_in_runs(func):
        return False
    callee = ev.object(func, ev.now())
    return not isinstance(callee, FunctionValue) and layers.layer_of(ev, callee) is None \
        and not losses.computes_loss(callee)


def _no_tensor(ev, expr: cst.BaseExpression) -> bool:
    return not ev.read_in_runs(expr) and ev.tensor(expr, ev.now()) is None


def checked(ctx, node: cst.CSTNode) -> bool:
    """Whether `node` is an operation `find` checks at all, whatever the shapes (`find` is None for the others, so
    no question about the node needs the values a run would give): the same dispatch, without reading a shape."""
    kind = type(node)
    if kind is cst.BinaryOperation:
        return True
    if kind is cst.AugAssign:
        return type(node.operator) in _IN_PLACE
    if kind is cst.Assign:
        return measured(node.value) is not None
    if kind is cst.Subscript:
        return dim_range.literal_index(node) is not None
    if kind is not cst.Call:
        return False
    qualname = ctx.qualname(node.func)
    if qualname is not None:
        name = torch_name(qualname)
        return name in _CHECKED_FUNCTIONS or name in dim_range.FUNCTIONS or name in losses.FUNCTIONS
    func = node.func
    if type(func) is cst.Attribute and not is_self_attribute(func):
        method = func.attr.value
        if method in _CHECKED_METHODS or method in BROADCASTING or method in dim_range.DIM_ARGUMENTS:
            return True
        return method not in ops.METHODS and method not in ops.TUPLE_METHODS
    return True


# Qualified names that are never the project's own functions (the others may be: `from utils import evaluate`).
_LIBRARIES = ("torch.", "builtins.", "numpy.", "math.", "typing.", "functools.", "itertools.", "collections.")
_MATMUL_FUNCTIONS = frozenset({"torch.matmul", "torch.mm", "torch.bmm"})
_JOIN_FUNCTIONS = frozenset({"torch.cat", "torch.concat", "torch.concatenate", "torch.stack"})
_MATMUL_METHODS = frozenset({"matmul", "mm", "bmm"})
_VIEW_METHODS = frozenset({"view", "reshape"})
# gather and scatter: the index has as many dims as the tensor it picks from or writes into
_GATHER_FUNCTIONS = frozenset({"torch.gather", "torch.scatter", "torch.scatter_add", "torch.scatter_reduce"})
_GATHER_METHODS = frozenset({"gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "scatter_reduce",
                             "scatter_reduce_"})
# `F.upsample` is `F.interpolate`'s deprecated name, same parameters in the same order (older projects still call it)
_INTERPOLATIONS = frozenset({"F.interpolate", "F.upsample"})
_CHECKED_FUNCTIONS = _MATMUL_FUNCTIONS | _JOIN_FUNCTIONS | _GATHER_FUNCTIONS | frozenset(einsum.FUNCTIONS) \
    | _INTERPOLATIONS | frozenset(einops.FUNCTIONS)
_CHECKED_METHODS = _MATMUL_METHODS | _VIEW_METHODS | _GATHER_METHODS | expansion.METHODS


def _gather(ev, node: cst.Call, tensor: cst.BaseExpression | None, index: cst.BaseExpression | None,
            before: int) -> Conflict | None:
    """`q.gather(1, actions)` with an index of another rank than the tensor ("Index tensor must have the same
    number of dimensions as input tensor"): a DQN's (B,) actions into (B, A) values, unsqueezed nowhere; or
    `out.scatter_add_(0, batch, h)`, a graph readout's (N,) node-to-graph vector as the index into (G, D) sums. A
    0-dim index counts as one dim, as torch counts it."""
    if tensor is None or index is None:
        return None
    shape, picked = ev.tensor(tensor, before), ev.tensor(index, before)
    if shape is None or picked is None or shape.rank is None or picked.rank is None \
            or max(shape.rank, 1) == max(picked.rank, 1):
        return None
    code = ev.ctx.code
    return Conflict("gather", node, (shape, picked),
                    f"`{code(node)}`: {code(tensor)} is {shape.render()} but the index {code(index)} is "
                    f"{picked.render()}: the index must have as many dims ({shape.rank}); unsqueeze it")


def _unpacking(ev, node: cst.Assign, before: int) -> Conflict | None:
    """`B, C, H, W = x.shape` on a tensor of another rank: "not enough values to unpack" (or too many)."""
    tensor = measured(node.value)
    if tensor is None:
        return None
    for target in node.targets:
        elements = getattr(target.target, "elements", None)
        if elements is None or any(type(e) is cst.StarredElement for e in elements):
            continue
        shape = ev.tensor(tensor, before)
        if shape is None or shape.rank is None or shape.rank == len(elements):
            return None
        code = ev.ctx.code
        return Conflict("unpack", node, (shape,),
                        f"`{code(target.target)} = {code(node.value)}`: {code(tensor)} is {shape.render()}, "
                        f"{shape.rank} sizes for {len(elements)} names")
    return None


# `out += residual`: the elementwise ops an augmented assignment runs in place (they broadcast as `out + residual`)
_IN_PLACE = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign)


def _broadcast(ev, node: cst.CSTNode, left_expr: cst.BaseExpression, right_expr: cst.BaseExpression,
               before: int) -> Conflict | None:
    """Two operands of an elementwise op whose dims can't broadcast."""
    if is_number(ev, left_expr, before) or is_number(ev, right_expr, before):
        return None
    left, right = ev.tensor(left_expr, before), ev.tensor(right_expr, before)
    if left is None or right is None:
        return None
    result = broadcast(left, right)
    if result.mismatch is None:
        return None
    _, a, b = result.mismatch
    code = ev.ctx.code
    return Conflict("broadcast", node, (left, right),
                    f"`{code(node)}`: {code(left_expr)} is {left.render()} and {code(right_expr)} is "
                    f"{right.render()}: {a} and {b} don't broadcast")


def _loss(ev, node: cst.Call, before: int) -> Conflict | None:
    """An element-wise loss (`F.mse_loss`, `nn.L1Loss()(...)`) whose input and target can't broadcast: it raises as
    `input - target` does. Shapes that broadcast into another shape only warn: a silent broadcast, SC104's."""
    loss = losses.loss_call(ev, node, before)
    if loss is None or loss.kind != "elementwise":
        return None
    return _broadcast(ev, node, loss.input, loss.target, before)


def _call_conflict(ev, node: cst.Call, before: int) -> Conflict | None:
    """A call of a function or method of the project that certainly fails inside, on these arguments (those it
    fails on whatever the arguments are reported inside it)."""
    callee = ev.called(ev.object(node.func, before))
    if not isinstance(callee, FunctionValue):
        for stepped in runs.lightning_steps(ev, node, before):  # `trainer.fit(model, loader)`: `training_step`
            found = runs.first_conflict(ev, *stepped)
            if found is not None:
                return Conflict("call", node, (), runs.at_call(ev, node, before, found.text), found.path)
        return None
    args = ev.calls.arguments(callee, node, before)
    if args is None or not (runs.brings_facts(ev, args) or _closes_over_a_run(callee)):
        return None  # whatever fails fails inside, on its own
    if call_contradiction(argument_shapes(ev, callee, node, before)) is not None:
        return None  # the arguments contradict the callee's jaxtyping annotations: SC108 says so, at the call
    found = runs.first_conflict(ev, callee, ev.calls.run(callee, args))
    if found is None:
        return None
    return Conflict("call", node, (), runs.at_call(ev, node, before, found.text), found.path)


def _closes_over_a_run(callee: FunctionValue) -> bool:
    """A function defined in a call being run (`def propagate(): return torch.bmm(adj, x)` inside `graph_conv`):
    the names it reads from there hold that call's values, facts its own signature can't bring."""
    closure = callee.closure
    return closure is not None and closure.outer is None and bool(closure.env)


def _matmul(ev, node: cst.CSTNode, left_expr, right_expr, before: int, kind: str = "matmul") -> Conflict | None:
    """`@`, `matmul`, `mm` or `bmm` (`kind`) on operands whose inner dims differ, or of a rank or batch size
    `mm`/`bmm` does not take (they don't broadcast)."""
    if left_expr is None or right_expr is None:
        return None
    left, right = ev.tensor(left_expr, before), ev.tensor(right_expr, before)
    if left is None or right is None:
        return None
    code = ev.ctx.code
    a, b = code(left_expr), code(right_expr)
    strict = strict_product(kind, left, right, a, b)
    if strict is not None:
        return Conflict("matmul", node, (left, right), strict)
    _, inner = matmul(left, right)
    if inner is None:
        batch = batch_mismatch(left, right)
        if batch is None:
            return None
        return Conflict("matmul", node, (left, right), f"batch dims don't broadcast: {a} is {left.render()}, {b} "
                        f"is {right.render()}: {batch[0]} and {batch[1]} (the dims before the last two broadcast)")
    message = f"inner dims differ: {a} is {left.render()}, {b} is {right.render()}"
    last = right.size(-1)
    if right.rank is not None and right.rank >= 2 and last is not None and inner[0] == last:
        message += f"; did you mean `{b}.T`?" if right.rank == 2 else f"; did you mean `{b}.mT`?"
    return Conflict("matmul", node, (left, right), message)


def _joined(ev, node: cst.Call, before: int, stack: bool) -> Conflict | None:

    shapes, dim = joined(ev, node, before, stack)
    if shapes is None or dim is None:
        return None
    if shapes[-1] is UNCOUNTED:
        return _batches_joined(ev, node, before, shapes[0], dim, stack)
    first = shapes[0]
    listed = ", ".join(shape.render() for shape in shapes)
    for other in shapes[1:]:
        if first.rank is None or other.rank is None:
            continue
        if first.rank != other.rank:
            return Conflict("stack" if stack else "cat", node, tuple(shapes),
                            f"tensors of different ranks: {listed}")
        position = first.index(dim)
        for i, (a, b) in enumerate(zip(first.dims, other.dims)):
            if (stack or i != position) and same(a, b) is False:
                what = "every dim" if stack else f"every dim but dim {dim}"
                # the items of a batch, each of a size of its own
                per_item = f", but dim {i} varies per item" if varies(a) and varies(b) else ""
                return Conflict("stack" if stack else "cat", node, tuple(shapes),
                                f"{'stack' if stack else 'cat'} needs {what} equal{per_item}: {listed}")
    return None


def _batches_joined(ev, node: cst.Call, before: int, full, dim: int, stack: bool) -> Conflict | None:
    """A list of a tensor from each batch of a loader whose last batch is short, joined where the batch is not
    the dim joined along: the full batches' tensors and the last one's differ there."""
    last = last_batch.grown_per_batch(ev, Args(node, 0).get(0, "tensors"), node, before)
    if last is None or full.rank is None:
        return None
    position = None if stack else full.index(dim)
    differ = [i for i, (a, b) in enumerate(zip(full.dims, last.dims)) if a != b]
    if not differ or not stack and (position is None or differ == [position]):
        return None
    what = "every dim" if stack else f"every dim but dim {dim}"
    return Conflict("stack" if stack else "cat", node, (full, last),
                    f"{'stack' if stack else 'cat'} needs {what} equal, but the list holds a tensor of each batch of "
                    f"a loader whose last batch is short: {full.render()} of the full batches, {last.render()} of "
                    f"the last")


def view_layout(ev, call: cst.Call, before: int | None = None) -> Conflict | None:
    """`t.view(...)` that must merge dims a transpose/permute left out of memory order, as of `before`."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "view" or ev.ctx.qualname(func) is not None:
        return None
    before = ev.now() if before is None else before
    shape = ev.tensor(func.value, before)
    if shape is None or shape.layout is None or shape.contiguous:
        return None
    try:
        args = Args(call)
    except Hidden:
        return None
    if args.starred is None and args.count() == 1 and dtype_of(ev, args.get(0)) is not None:
        return None
    sizes = shape_arguments(ev, args, 0, "size", before)
    if sizes is None or sizes.variadic is not None:
        return None
    verdict = layout_verdict(shape, sizes.dims)
    if verdict is None:
        return None
    return Conflict("layout", call, (shape,), verdict)
