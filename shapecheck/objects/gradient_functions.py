"""The names of the project's functions and methods that compute gradients in their own bodies: an LRP layer's
`relprop` calling `torch.autograd.grad` on the forward's graph, an explainer's `generate_LRP` calling
`one_hot.backward()`. Code that calls one of them after a forward pass wants that pass's graph, even in eval mode.

Read by name, from the file and the first-party modules it imports (and those they import, as `first_party_texts`
finds them): which class a receiver is, the name does not say, so a method that wants gradients in any class of the
project makes every call of that name one that may want them (widening: the rules that ask stay quiet).
"""

from __future__ import annotations

import functools

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.walker import walk, walk_statements
from shapecheck.objects.project import first_party_texts

# What computes gradients: not `requires_grad_(False)` or `set_grad_enabled(...)`, which freeze as often as they thaw
_GRADIENT_METHODS = frozenset({"backward"})
_GRADIENT_FUNCTIONS = frozenset({"grad", "enable_grad"})  # `torch.autograd.grad`, `torch.enable_grad()`
# torch's own methods, which a project's training function of the same name does not stand for: `model.train()` in an
# evaluation helper is no call of the project's `def train(...)`, nor is `optimizer.step()` of an agent's `step`
_TORCH_METHODS = frozenset({"train", "eval", "to", "cuda", "cpu", "zero_grad", "step", "__init__", "state_dict",
                            "load_state_dict", "parameters", "apply", "register_buffer", "add_module"})


# Captum's attributions that take the model's gradients (the perturbation ones, `Occlusion`, `FeatureAblation`,
# `Lime`, `KernelShap`, run it forward only): a module importing one calls its `.attribute(...)` for gradients.
_GRADIENT_ATTRIBUTIONS = frozenset({
    "IntegratedGradients", "Saliency", "DeepLift", "DeepLiftShap", "GradientShap", "InputXGradient",
    "GuidedBackprop", "GuidedGradCam", "Deconvolution", "LRP", "NoiseTunnel", "InternalInfluence",
    "LayerConductance", "LayerIntegratedGradients", "LayerGradientXActivation", "LayerGradCam", "LayerDeepLift",
    "LayerDeepLiftShap", "LayerGradientShap", "LayerLRP", "NeuronConductance", "NeuronGradient",
    "NeuronIntegratedGradients", "NeuronGuidedBackprop", "NeuronDeconvolution", "NeuronDeepLift",
    "NeuronDeepLiftShap", "NeuronGradientShap"})


class GradientFunctions:
    """Per file (`ctx.analysis(GradientFunctions)`): found when first asked, from each top-level statement's part
    (`Context.module_fact`, which the editor server keeps for the statements an edit left alone) and the imported
    modules' texts (each read once)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._names: frozenset[str] | None = None

    def names(self) -> frozenset[str]:
        """The names of the functions and methods of the file and its imported first-party modules whose bodies
        compute gradients (`.backward()`, `torch.autograd.grad`, `torch.enable_grad()`), themselves or through a
        function of those modules they call."""
        if self._names is None:
            functions = self.ctx.module_fact("functions and what they call", _functions_in)
            # Which modules are read, the import lines alone say; sorted, as a module fact has no order
            imports = "\n".join(sorted(self.ctx.module_fact("import lines", _import_lines)))
            if self.ctx.filename:
                texts = list(first_party_texts(imports, self.ctx.filename))
                if texts:
                    functions = functions.union(*map(_functions_in_text, texts))
            # `lig.attribute(x)` of Captum's integrated gradients (Mastering-PyTorch's `interpret_sentence`)
            seeds = frozenset({"attribute"}) if _imports_gradient_attribution(imports) else frozenset()
            self._names = _wanting_gradients(functions, seeds)
        return self._names


# A function as the search reads it: its name, whether its own body computes gradients, the names it calls
Function = tuple[str, bool, frozenset[str]]


def _functions_in(root: cst.CSTNode) -> frozenset[Function]:
    """The functions and methods defined under `root` (a top-level statement: a module fact), nested ones too."""
    found = set()
    for node in walk(root):
        if type(node) is cst.FunctionDef:
            calls = [call.func for call in walk(node) if type(call) is cst.Call]
            found.add((node.name.value, any(map(_computes_gradients, calls)), frozenset(map(_called_name, calls))))
    return frozenset(found)


@functools.lru_cache(maxsize=64)  # an imported module's text is the same from one edit to the next
def _functions_in_text(text: str) -> frozenset[Function]:
    try:
        return _functions_in(cst.parse_module(text))
    except cst.ParserSyntaxError:
        return frozenset()


def _import_lines(statement: cst.CSTNode) -> frozenset[str]:
    """The import statements under a top-level statement, each as a line of source (a module fact)."""
    return frozenset(_SPELLER.code_for_node(small) for line in walk_statements(statement)
                     if type(line) is cst.SimpleStatementLine or type(line) is cst.SimpleStatementSuite
                     for small in line.body if type(small) is cst.Import or type(small) is cst.ImportFrom)


_SPELLER = cst.Module(body=[])  # spells a node with the default formatting


def _imports_gradient_attribution(imports: str) -> bool:
    """The import lines bring a Captum attribution that takes gradients, or the whole of `captum` (which one the
    code builds, they do not say)."""
    if "captum" not in imports:
        return False
    for line in imports.splitlines():
        if "captum" not in line:
            continue
        if line.startswith("import ") or "*" in line or "import attr" in line:
            return True
        imported = {name.split(" as ")[0].strip(" ()") for name in line.split(" import ", 1)[1].split(",")}
        if imported & _GRADIENT_ATTRIBUTIONS:
            return True
    return False


@functools.lru_cache(maxsize=4)  # the editor server's module fact is the same object while no edit changes it
def _wanting_gradients(functions: frozenset[Function], seeds: frozenset[str] = frozenset()) -> frozenset[str]:
    """The functions that compute gradients, and those that call one (by name) in turn: LRP's `relprop` calls the
    module's `gradprop`, which calls `torch.autograd.grad`. `seeds`: names of calls that compute gradients as the
    file's imports tell (Captum's `attribute`)."""
    calls: dict[str, set[str]] = {}
    wanting: set[str] = set(seeds)
    for name, computes, called in functions:
        if computes:
            wanting.add(name)
        calls.setdefault(name, set()).update(called)
    wanting -= _TORCH_METHODS
    grown = True
    while grown:
        grown = False
        for name, called in calls.items():
            if name not in wanting and name not in _TORCH_METHODS and called & wanting:
                wanting.add(name)
                grown = True
    return frozenset(wanting)


def _called_name(func: cst.BaseExpression) -> str:
    return func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""


def _computes_gradients(func: cst.BaseExpression) -> bool:
    """Whether a call of `func` computes gradients: `loss.backward()`, `torch.autograd.grad(...)`,
    `torch.enable_grad()`."""
    if type(func) is not cst.Attribute:
        return False
    if func.attr.value in _GRADIENT_METHODS:
        return True
    return func.attr.value in _GRADIENT_FUNCTIONS and _called_name(func.value) in ("autograd", "torch")
