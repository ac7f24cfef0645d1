"""What each class of the file returns from `forward`, kept so that a rule can read a model call's output.

The traversal records every `return` of a `forward` method, with the analysis state of that point (the scope, the
enclosing class and function, how far the bindings went). A rule that meets `model(x)` asks `ctx.forward_returns`
for the class's returns and reads each one with `ctx.at(returned)`, where the method's local names resolve as they
did at the `return`: `return F.softmax(self.fc(x), dim=1)` or `probs = ...; return probs`. A model defined after
its use is not seen (the traversal has not reached it yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from shapecheck.engine.context import Scope


@dataclass(frozen=True, slots=True)
class ForwardReturn:
    """One `return` of a `forward` method: its value and the analysis state to read it with."""

    value: cst.BaseExpression
    class_def: cst.ClassDef
    scope: Scope
    seq: int  # bindings made after this point are not seen
    classes: tuple[cst.ClassDef, ...]
    functions: tuple[cst.FunctionDef, ...]


def is_forward_return(ancestors: list[cst.CSTNode], node: cst.Return) -> cst.ClassDef | None:
    """The class whose `forward` method (directly, not a function nested in it) `node` returns from."""
    for i in range(len(ancestors) - 1, 1, -1):
        ancestor = ancestors[i]
        if type(ancestor) is cst.FunctionDef:
            if ancestor.name.value != "forward" or i < 2 or node.value is None:
                return None
            owner = ancestors[i - 2]  # ClassDef > IndentedBlock > FunctionDef
            return owner if type(owner) is cst.ClassDef else None
        if type(ancestor) in (cst.Lambda, cst.ClassDef):
            return None
    return None
