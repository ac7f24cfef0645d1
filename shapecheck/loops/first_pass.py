"""Whether an `if` inside a training loop lets the loop's first pass through: `if i % k == 0:` with `i` at 0 then.

A schedule stepped "once every k iterations" under `if iteration % k == 0:` is stepped on the very first pass
when the counter starts at 0, before any optimizer step. The counter is at 0 on the first pass when it is the
index `enumerate(...)` gives (without a start) or the target of `range(n)`, or an attribute of the trainer that
its `__init__` sets to 0 and that only `+=` changes after that, none of them before the point in the method the
test is read from (for a callback, the trainer's call that runs it, with the trainer itself handed over:
`for hook in self.hooks: hook.pre_step(self)` and `trainer.iteration` in the hook). Anything else is unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.syntax import dotted_name, last_name
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.executor import target_names

if TYPE_CHECKING:
    from shapecheck.engine.context import Context
    from shapecheck.loops.training_loop import TrainingLoop


def runs_first_pass(training: TrainingLoop, test: cst.BaseExpression, function: cst.FunctionDef | None,
                    loops: tuple[cst.CSTNode, ...]) -> bool:
    """`test` (of an `if` in `function`, inside `loops`) is `counter % k == 0` and `counter` is 0 on the first
    pass of the innermost loop (see the module's docstring)."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) is not cst.Equal:
        return False
    zero, remainder = test.comparisons[0].comparator, test.left
    if type(zero) is not cst.Integer or zero.value != "0" or type(remainder) is not cst.BinaryOperation \
            or type(remainder.operator) is not cst.Modulo:
        return False
    counter = remainder.left
    if type(counter) is cst.Name:
        return bool(loops) and _counts_from_zero(loops[-1], counter.value)
    if type(counter) is not cst.Attribute or type(counter.value) is not cst.Name or function is None:
        return False
    owner, attribute = counter.value.value, counter.attr.value
    ctx = training.ctx
    if owner == "self":
        class_def = ctx.class_of_method(function)
        return class_def is not None and _starts_at_zero(ctx, class_def, attribute, None)
    if not any(param.name.value == owner for param in function.params.params):
        return False
    # a callback handed the trainer: at 0 in every trainer that runs it, as of that call
    runs = training.runs_of(function)
    return bool(runs) and all(_hands_trainer_at_zero(record, site.node, site.function, function, owner, attribute)
                              for record, site in runs)


def _hands_trainer_at_zero(record: TrainingLoop, call: cst.Call, caller: cst.FunctionDef | None,
                           callback: cst.FunctionDef, parameter: str, attribute: str) -> bool:
    handed = passed_argument(callback, call, parameter)
    if caller is None or type(handed) is not cst.Name or handed.value != "self":
        return False
    class_def = record.ctx.class_of_method(caller)
    return class_def is not None and _starts_at_zero(record.ctx, class_def, attribute, (caller, call))


def _counts_from_zero(loop: cst.CSTNode, name: str) -> bool:
    """`for name, x in enumerate(xs)` (no start, or 0) or `for name in range(n)`: `name` is 0 on the first pass."""
    if type(loop) is not cst.For or type(loop.iter) is not cst.Call:
        return False
    source, target = loop.iter, loop.target
    kind = last_name(source.func)
    if kind == "enumerate" and type(target) is cst.Tuple and target.elements:
        first = target.elements[0].value
        start = source.args[1].value if len(source.args) > 1 else None
        return dotted_name(first) == name \
            and (start is None or type(start) is cst.Integer and start.value == "0")
    return kind == "range" and len(source.args) == 1 and dotted_name(target) == name


def _starts_at_zero(ctx: Context, class_def: cst.ClassDef, attribute: str,
                    before: tuple[cst.FunctionDef, cst.Call] | None) -> bool:
    """The class's `__init__` sets `self.attribute = 0` and its methods change it only with `+=` after that, or
    loop over it from 0 (`for self.iteration in range(n)`); none of them in `before`'s method ahead of its call."""
    spelled = f"self.{attribute}"
    set_to_zero = False
    for statement in class_def.body.body:
        if type(statement) is not cst.FunctionDef:
            continue
        ahead = before is not None and statement is before[0]
        for node in ctx.walk(statement.body):
            if ahead and node is before[1]:
                ahead = False
            if type(node) is cst.For and spelled in _targets(node.target):
                if ahead or not _counts_from_zero(node, spelled):
                    return False
            elif type(node) is cst.AugAssign and dotted_name(node.target) == spelled:
                if ahead or type(node.operator) is not cst.AddAssign:
                    return False
            elif type(node) in (cst.Assign, cst.AnnAssign) and spelled in _assigned(node):
                value = node.value
                if statement.name.value != "__init__" or type(value) is not cst.Integer or value.value != "0":
                    return False
                set_to_zero = True
    return set_to_zero


def _targets(target: cst.BaseExpression) -> set[str]:
    return {dotted_name(target) or ""} | set(target_names(target))


def _assigned(node: cst.Assign | cst.AnnAssign) -> set[str]:
    targets = [node.target] if type(node) is cst.AnnAssign else [target.target for target in node.targets]
    found: set[str] = set()
    for target in targets:
        found |= _targets(target)
    return found
