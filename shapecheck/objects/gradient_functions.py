"""The names of the project's functions and methods that compute gradients in their own bodies: an LRP layer's
`relprop` calling `torch.autograd.grad` on the forward's graph, an explainer's `generate_LRP` calling
`one_hot.backward()`. Code that calls one of them after a forward pass wants that pass's graph, even in eval mode.

Read by name, from the file and the first-party modules it imports (and those they import, as `first_party_texts`
finds them): which class a receiver is, the name does not say, so a method that wants gradients in any class of the
project makes every call of that name one that may want them (widening: the rules that ask stay quiet).
"""

from __future__ import annotations

import ast

from shapecheck.engine.context import Context
from shapecheck.objects.project import first_party_texts

# What computes gradients: not `requires_grad_(False)` or `set_grad_enabled(...)`, which freeze as often as they thaw
_GRADIENT_METHODS = frozenset({"backward"})
_GRADIENT_FUNCTIONS = frozenset({"grad", "enable_grad"})  # `torch.autograd.grad`, `torch.enable_grad()`
# torch's own methods, which a project's training function of the same name does not stand for: `model.train()` in an
# evaluation helper is no call of the project's `def train(...)`, nor is `optimizer.step()` of an agent's `step`
_TORCH_METHODS = frozenset({"train", "eval", "to", "cuda", "cpu", "zero_grad", "step", "__init__", "state_dict",
                            "load_state_dict", "parameters", "apply", "register_buffer", "add_module"})


class GradientFunctions:
    """Per file (`ctx.analysis(GradientFunctions)`): the file and its imported modules are read once, when first
    asked."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._names: frozenset[str] | None = None

    def names(self) -> frozenset[str]:
        """The names of the functions and methods of the file and its imported first-party modules whose bodies
        compute gradients (`.backward()`, `torch.autograd.grad`, `torch.enable_grad()`), themselves or through a
        function of those modules they call."""
        if self._names is None:
            text = self.ctx.module.code
            imported = list(first_party_texts(text, self.ctx.filename)) if self.ctx.filename else []
            self._names = frozenset(_wanting_gradients([text, *imported]))
        return self._names


def _wanting_gradients(texts: list[str]) -> set[str]:
    """The functions that compute gradients, and those that call one (by name) in turn: LRP's `relprop` calls the
    module's `gradprop`, which calls `torch.autograd.grad`."""
    calls: dict[str, set[str]] = {}
    wanting: set[str] = set()
    for text in texts:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if type(node) is ast.FunctionDef or type(node) is ast.AsyncFunctionDef:
                inner = [call for call in ast.walk(node) if type(call) is ast.Call]
                if any(_computes_gradients(call) for call in inner):
                    wanting.add(node.name)
                calls.setdefault(node.name, set()).update(_called_name(call) for call in inner)
    wanting -= _TORCH_METHODS
    grown = True
    while grown:
        grown = False
        for name, called in calls.items():
            if name not in wanting and name not in _TORCH_METHODS and called & wanting:
                wanting.add(name)
                grown = True
    return wanting


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""


def _computes_gradients(node: ast.AST) -> bool:
    if type(node) is not ast.Call:
        return False
    func = node.func
    if type(func) is ast.Attribute:
        if func.attr in _GRADIENT_METHODS:
            return True
        return func.attr in _GRADIENT_FUNCTIONS and type(func.value) in (ast.Name, ast.Attribute) \
            and ast.unparse(func.value).split(".")[-1] in ("autograd", "torch")
    return False
