"""`torch.einsum` (and `einops.einsum`, its operands first and the pattern last, axes named by words): the
subscripts read against the operands. Each letter is one size wherever it appears (a size 1 broadcasts), each
operand has as many dims as its subscripts name (more with `...`, which broadcasts like an elementwise op), and the
output takes its letters' sizes: those after `->`, or without an arrow the letters named once, in alphabetical
order, after the `...` dims."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.records import record
from shapecheck.objects.dims import Dim, same
from shapecheck.objects.values import Const
from shapecheck.shapes.args import Args
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.positions import opaque
from shapecheck.shapes.shape import Shape

if TYPE_CHECKING:
    from shapecheck.shapes.evaluator import ShapeEvaluator

ELLIPSIS = "."


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Contraction:
    """What the equation says about these operands: the result (None when a size is unknown) or why it fails."""

    result: Shape | None
    conflict: str | None = None


def _subscripts(text: str) -> list[str] | None:
    """"b...ij" -> ["b", ".", "i", "j"]; None for subscripts torch rejects or this reading doesn't model."""
    if text.count("...") > 1 or text.replace("...", "").count("."):
        return None
    letters = list(text.replace("...", ELLIPSIS))
    return letters if all(c.isalpha() or c == ELLIPSIS for c in letters) else None


def _named_axes(text: str) -> list[str] | None:
    """einops's "batch head ... dim" -> ["batch", "head", ".", "dim"]: axis names are words (no parentheses: its
    einsum composes none)."""
    words = [ELLIPSIS if word == "..." else word for word in text.split()]
    if words.count(ELLIPSIS) > 1 or not all(word == ELLIPSIS or word.isidentifier() for word in words):
        return None
    return words


def _equation(ev: ShapeEvaluator, node: cst.Call, before: int) -> tuple[list[list[str]], list[str] | None,
                                                                         list[cst.BaseExpression]] | None:
    args = Args(node, 0)
    named = ev.ctx.qualname(node.func) == "einops.einsum"  # `einsum(q, k, "b h i d, b h j d -> b h i j")`
    positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
    if named and (len(positional) != len(node.args) or len(positional) < 2):
        return None
    # written out, or held in a name (`EQ = "bhqd,bhkd->bhqk"`)
    spec = ev.object(positional[-1] if named else args.get(0, "equation"), before)
    if not isinstance(spec, Const) or not isinstance(spec.value, str):
        return None
    if named:
        inputs_text, arrow, output_text = spec.value.partition("->")
        if not arrow:
            return None
        inputs = [_named_axes(text) for text in inputs_text.split(",")]
        output = _named_axes(output_text)
        if any(i is None for i in inputs) or output is None:
            return None
        return inputs, output, positional[:-1]  # type: ignore[return-value]
    equation = spec.value.replace(" ", "")
    inputs_text, arrow, output_text = equation.partition("->")
    operands = args.rest(1)
    if len(operands) == 1 and type(operands[0]) in (cst.List, cst.Tuple):
        if any(type(e) is cst.StarredElement for e in operands[0].elements):  # type: ignore[attr-defined]
            return None
        operands = [e.value for e in operands[0].elements]  # type: ignore[attr-defined]
    inputs = [_subscripts(text) for text in inputs_text.split(",")]
    output = _subscripts(output_text) if arrow else None
    if any(i is None for i in inputs) or arrow and output is None:
        return None
    return inputs, output, operands  # type: ignore[return-value]


def _miscounted(ev: ShapeEvaluator, inputs: list[list[str]], operands: list[cst.BaseExpression],
                before: int) -> str | None:
    """Why the equation names another count of operands than the call passes ("einsum(): fewer operands were
    provided than specified in the equation"); one operand counts only as a tensor of known rank (it may be a
    list of them)."""
    if len(inputs) == len(operands):
        return None
    if len(operands) == 1:
        single = ev.tensor(operands[0], before)
        if single is None or single.rank is None:  # a parameter read on its own may hold a list
            return None
    return f"the equation names {len(inputs)} operands, but the call passes {len(operands)}"


def contraction(ev: ShapeEvaluator, node: cst.Call, before: int) -> Contraction | None:
    found = _equation(ev, node, before)
    if found is None:
        return None
    inputs, output, operands = found
    miscounted = _miscounted(ev, inputs, operands, before)
    if miscounted is not None or len(inputs) != len(operands):
        return Contraction(None, miscounted) if miscounted is not None else None
    code = ev.ctx.code
    sizes: dict[str, tuple[Dim, int]] = {}
    spread: Shape | None = Shape(())  # the `...` dims, broadcast over the operands
    complete = True
    for index, (subscripts, operand) in enumerate(zip(inputs, operands)):
        shape = ev.tensor(operand, before)
        if shape is None:
            complete = False
            continue
        named = [s for s in subscripts if s != ELLIPSIS]
        has_ellipsis = len(named) != len(subscripts)
        rank = shape.rank
        if rank is not None and (rank < len(named) if has_ellipsis else rank != len(named)):
            spelled = "".join("..." if s == ELLIPSIS else s for s in subscripts)
            return Contraction(None, f"`{code(node)}`: the equation gives operand {index} ({spelled}) "
                                     f"{len(named)} dims{' or more' if has_ellipsis else ''}, but {code(operand)} is "
                                     f"{shape.render()}")
        cut = subscripts.index(ELLIPSIS) if has_ellipsis else len(subscripts)
        placed = [(s, shape.size(i)) for i, s in enumerate(subscripts[:cut])] + \
            [(s, shape.size(i - len(subscripts))) for i, s in enumerate(subscripts[cut + 1:], cut + 1)] \
            if has_ellipsis else [(s, shape.size(i) if rank is not None else None) for i, s in enumerate(subscripts)]
        for letter, dim in placed:
            if dim is None:
                complete = False
                continue
            seen = sizes.get(letter)
            if seen is None or seen[0].literal == 1:
                sizes[letter] = (dim, index)
            elif dim.literal != 1 and same(seen[0], dim) is False:
                return Contraction(None, f"`{code(node)}`: subscript {letter} is {dim} in operand {index} "
                                         f"({code(operand)} is {shape.render()}) but {seen[0]} in operand {seen[1]}")
        if has_ellipsis:
            if rank is None or spread is None:
                spread = None
                continue
            middle = Shape(shape.dims[cut:rank - (len(subscripts) - cut - 1)])
            joined = broadcast(spread, middle)
            spread = joined.shape if joined.mismatch is None else None
    if output is None:
        output = ([ELLIPSIS] if any(ELLIPSIS in s for s in inputs) else []) + subscripts_once(inputs)
    named = {letter for subscripts in inputs for letter in subscripts}
    if ELLIPSIS in output and (not complete or spread is None or spread.variadic is not None) \
            or any(letter not in named for letter in output):
        return Contraction(None)
    dims: list[Dim] = []
    for letter in output:
        dims.extend(spread.dims if letter == ELLIPSIS  # type: ignore[union-attr]
                    else (_size(node, letter, sizes, complete),))
    return Contraction(Shape(tuple(dims), layout=None))


def _size(node: cst.Call, letter: str, sizes: dict[str, tuple[Dim, int]], complete: bool) -> Dim:
    """The output's size for `letter`: what an operand states, unless an operand of unknown shape may give it
    another (a stated 1 broadcasts to it); else a size of its own. Where the equation names every output dim, the
    result has that many dims whatever the operands are (`einsum("nk,nck->nc", w, f)` is (n, c) or it raises)."""
    seen = sizes.get(letter)
    if seen is not None and (complete or seen[0].literal != 1):
        return seen[0]
    return opaque(("einsum", id(node), letter), letter)


def subscripts_once(inputs: list[list[str]]) -> list[str]:
    """The letters an implicit output keeps: those named exactly once, in alphabetical order."""
    counts: dict[str, int] = {}
    for subscripts in inputs:
        for letter in subscripts:
            if letter != ELLIPSIS:
                counts[letter] = counts.get(letter, 0) + 1
    return sorted(letter for letter, count in counts.items() if count == 1)


def einsum(ev: ShapeEvaluator, node: cst.Call, before: int) -> Shape | None:
    """The result's shape; its layout is unknown (einsum may hand back a permuted view)."""
    found = contraction(ev, node, before)
    return found.result if found is not None else None


FUNCTIONS = {"torch.einsum": einsum, "einops.einsum": einsum}
