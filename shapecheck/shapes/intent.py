"""Whether the code asks for broadcasting: the size-1 dims it spells out on purpose.

`a[:, None]`, `a.unsqueeze(1)`, `a.view(-1, 1)`, `a.sum(1, keepdim=True)`, `a.expand(...)` are how people write an
outer product, a pairwise difference or a reduction broadcast back; a (N, 1) that comes out of `nn.Linear(d, 1)` is
not. Names are followed to what they were assigned (a few steps, as `ctx.value_of` does), and an expression counts
when any part of it spells such a dim, so `(x[:, None] * 2) - y` counts too: a shape rule that reports surprising
broadcasting stays quiet wherever the code shows it meant to broadcast.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Binding, Context
from shapecheck.engine.syntax import keyword_arg
from shapecheck.shapes.losses import is_loss_qualname

_UNIT_METHODS = frozenset({"unsqueeze", "unsqueeze_", "expand", "expand_as", "broadcast_to", "view_as", "reshape_as",
                           "unflatten"})
_UNIT_FUNCTIONS = frozenset({"torch.unsqueeze", "torch.broadcast_to", "torch.broadcast_tensors", "torch.atleast_2d",
                             "torch.atleast_3d", "torch.outer", "torch.cdist", "einops.rearrange", "einops.repeat"})
_RESHAPES = frozenset({"view", "reshape"})
_DEPTH = 4


def operands_spell_broadcast(ctx: Context, operation: cst.CSTNode, operands: tuple[cst.BaseExpression, ...],
                             same_rank: bool = True) -> bool:
    """Whether an operand of `operation` spells a broadcast (see `spells_broadcast`), its names read where the
    operation is: a callee's body that a run looked into resolves its own locals (`softmax_sum = (g * p).sum(-1,
    keepdim=True)` then `g - softmax_sum` in a backward helper), not the caller's.

    `same_rank` False (the operands' ranks differ): a size-1 dim lines up as spelled only against a tensor of its
    own rank, so a `keepdim=True` reduction does not count, and neither does a spelling that a name was assigned
    earlier: `valid = mask.unsqueeze(1)` is a column made for (N, D) offsets, and `dist * valid` with (N,)
    distances multiplies it out to (N, N). Written in the operation itself (`labels[:, None] == labels`), the
    outer product is what the line says."""
    home = ctx.point_within(operation)
    if home is None:
        return _spelled(ctx, operands, same_rank)
    with ctx.at(home):
        return _spelled(ctx, operands, same_rank)


def _spelled(ctx: Context, operands: tuple[cst.BaseExpression, ...], same_rank: bool) -> bool:
    if any(spells_broadcast(ctx, operand, keepdim=same_rank, named=same_rank) for operand in operands):
        return True
    return len(operands) == 2 and any(_column_of(ctx, column, other)
                                      for column, other in (operands, operands[::-1]))


def _column_of(ctx: Context, column: cst.BaseExpression, other: cst.BaseExpression) -> bool:
    """`column` is a name assigned a size-1 spelling of a tensor that `other` reads too (`k = n.view(-1, 1)`, then
    `n * k`): a vector against a column of itself is an outer product on purpose (a DFT matrix, pairwise
    differences), where a column made of another tensor (`valid = mask.unsqueeze(1)` against distances) is not."""
    if type(column) is not cst.Name:
        return False
    binding = ctx.binding(column)
    if binding is None or binding.kind != "assign" or binding.value is None \
            or not spells_broadcast(ctx, binding.value, binding.seq, keepdim=False, named=False):
        return False
    sources = {id(found) for found in _tensor_bindings(ctx, binding.value, binding.seq)}
    return any(id(found) in sources for found in _tensor_bindings(ctx, other, None))


def _tensor_bindings(ctx: Context, expr: cst.BaseExpression, before: int | None) -> list[Binding]:
    """The bindings of the plain names `expr` reads (not imports: `torch` is in both sides of most arithmetic; not an
    attribute's or a keyword's name)."""
    nodes = list(ctx.walk(expr))
    spelled = {id(node.attr) for node in nodes if type(node) is cst.Attribute} \
        | {id(node.keyword) for node in nodes if type(node) is cst.Arg and node.keyword is not None}
    found = []
    for node in nodes:
        if type(node) is cst.Name and id(node) not in spelled:
            binding = ctx.binding(node, before)
            if binding is not None and binding.kind != "import":
                found.append(binding)
    return found


def spells_broadcast(ctx: Context, expr: cst.BaseExpression, before: int | None = None, depth: int = 0,
                     keepdim: bool = True, named: bool = True) -> bool:
    """`expr`, or a name it was built from, spells a size-1 dim or a broadcast on purpose (`keepdim` False: not
    by a `keepdim=True` reduction; `named` False: only `expr` itself, not what its names were assigned)."""
    if depth > _DEPTH:
        return False
    nodes = list(ctx.walk(expr))
    attributes = {id(node.attr) for node in nodes if type(node) is cst.Attribute}
    aligned = {id(inner) for node in nodes if type(node) is cst.Call and _is_loss(ctx, node, before)
               for arg in node.args for inner in ctx.walk(arg.value)}
    for node in nodes:
        if id(node) in aligned:
            continue
        kind = type(node)
        if kind is cst.Subscript and any(_is_none(element) for element in node.slice):
            return True
        if kind is cst.Call and _spells_unit(ctx, node, keepdim):
            return True
        if named and (kind is cst.Name and id(node) not in attributes or kind is cst.Attribute):
            binding = ctx.binding(node, before)
            if binding is not None and binding.kind == "assign" and binding.value is not None \
                    and spells_broadcast(ctx, binding.value, binding.seq, depth + 1, keepdim):
                return True
    return False


def _is_loss(ctx: Context, call: cst.Call, before: int | None) -> bool:
    """Whether `call` computes a loss (`F.bce(logits, y.unsqueeze(1))`, `self.criterion(...)` of an
    `nn.MSELoss()`): a size-1 dim spelled in its arguments lines the target up with the input, whose shape the loss
    needs equal, and asks for no broadcast of the loss against anything else."""
    qualname = ctx.qualname(call.func)
    if qualname is None and type(call.func) in (cst.Name, cst.Attribute):
        binding = ctx.binding(call.func, before)
        value = binding.value if binding is not None and binding.kind == "assign" else None
        qualname = ctx.qualname(value.func) if type(value) is cst.Call else None
    return qualname is not None and is_loss_qualname(qualname)


def _is_none(element: cst.SubscriptElement) -> bool:
    index = element.slice
    return type(index) is cst.Index and type(index.value) is cst.Name and index.value.value == "None"


def _spells_unit(ctx: Context, call: cst.Call, keepdim: bool) -> bool:
    kept = keyword_arg(call, "keepdim")
    if kept is not None and type(kept.value) is cst.Name and kept.value.value == "True":
        return keepdim
    func = call.func
    qualname = ctx.qualname(func)
    if qualname is not None:
        return qualname in _UNIT_FUNCTIONS
    if type(func) is not cst.Attribute:
        return False
    method = func.attr.value
    if method in _UNIT_METHODS:
        return True
    return method in _RESHAPES and any(_is_one(arg.value) for arg in call.args)


def _is_one(expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.Integer:
        return expr.value == "1"
    if type(expr) in (cst.Tuple, cst.List):
        return any(type(element) is cst.Element and _is_one(element.value) for element in expr.elements)
    return False
