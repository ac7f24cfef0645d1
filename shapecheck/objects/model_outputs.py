"""What each class of the file returns from `forward` and its other methods, kept so that a rule can read a model
call's output, or what `model.score(x)` gives.

`ForwardReturns` is one of the engine's visitors: the traversal shows it every `return` of a `forward` method, and it
keeps the value with the point it was at (the scope, the enclosing class and function, how far the bindings went). A
rule that meets `model(x)` asks `forward_returns(ctx).of(class_def)` for the class's returns and reads each one with
`ctx.at(returned.point)`, where the method's local names resolve as they did at the `return`: `return
F.softmax(self.fc(x), dim=1)` or `probs = ...; return probs`. A model defined after its use is not seen (the
traversal has not reached it yet). The other methods' returns are kept the same way (`of_method(class_def,
"score")`): a model's `score(x)` returning `logits, torch.sigmoid(logits)` hands its caller the graph as `forward`
does.
"""

from __future__ import annotations


import libcst as cst

from shapecheck.engine.context import Context, Point
from shapecheck.engine.records import record
from shapecheck.objects.project import PROJECT


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class ForwardReturn:
    """One `return` of a method (`forward` or another): its value and the point to read it at. `settled`: read at
    the point, the value is what the `return` returns on every path to it; not so for a name that a branch binds
    again (`y = self.fc(x)`, then `if apply_softmax: y = F.softmax(y, 1)`, `return y`): a point keeps how far the
    bindings went, not which branch the `return` is in, so reading it there would take the branch's binding for the
    only one."""

    value: cst.BaseExpression
    class_def: cst.ClassDef
    point: Point
    settled: bool = True


class ForwardReturns:
    """The `return`s of every class's methods seen so far, by class and method name."""

    title = "model-output analysis"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._by_method: dict[tuple[int, str], list[ForwardReturn]] = {}

    def visit_Return(self, node: cst.Return) -> None:
        found = method_return(self.ctx.ancestors, node)
        if found is not None:
            class_def, name = found
            ctx = self.ctx
            point = ctx.point()
            value = node.value
            settled = True  # `value_of` follows names alone: anything else is itself, at the point as here
            if type(value) is cst.Name or type(value) is cst.Attribute:
                here = ctx.value_of(value)[0]  # type: ignore[arg-type]  # not None here
                with ctx.at(point):
                    settled = ctx.value_of(value)[0] is here  # type: ignore[arg-type]
            self._by_method.setdefault((id(class_def), name), []).append(
                ForwardReturn(value, class_def, point, settled))  # type: ignore[arg-type]

    def of(self, class_def: cst.ClassDef) -> list[ForwardReturn]:
        return self.of_method(class_def, "forward")

    def of_method(self, class_def: cst.ClassDef, name: str) -> list[ForwardReturn]:
        return self._by_method.get((id(class_def), name), [])


def forward_returns(ctx: Context) -> ForwardReturns:
    return ctx.analysis(ForwardReturns)


PROJECT.record_with(ForwardReturns)


def method_return(ancestors: list[cst.CSTNode], node: cst.Return) -> tuple[cst.ClassDef, str] | None:
    """The class and the name of the method (directly, not a function nested in it) `node` returns a value from."""
    for i in range(len(ancestors) - 1, 1, -1):
        ancestor = ancestors[i]
        if type(ancestor) is cst.FunctionDef:
            if i < 2 or node.value is None:
                return None
            owner = ancestors[i - 2]  # ClassDef > IndentedBlock > FunctionDef
            return (owner, ancestor.name.value) if type(owner) is cst.ClassDef else None
        if type(ancestor) in (cst.Lambda, cst.ClassDef):
            return None
    return None
