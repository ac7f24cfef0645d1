"""Whether a value the objects floor knows is an `nn.Module` instance.

A rule about modules (hooks skipped by `.forward(x)`) must know the receiver is one: many objects have a `forward`
of their own (estimators, RPC proxies, a plain class's method), and a parameter with no annotation could be any of
them. So the answer is yes only on positive knowledge: an object a `torch.nn` class built, an instance of a project
class (this file's or a first-party import's) deriving from `nn.Module` or a Lightning module, which covers `self`
inside such a class and a parameter annotated with one, and what a model builder of another package returns
(`torchvision.models.resnet18()`, `timm.create_model(...)`, `AutoModel.from_pretrained(...)`). Anything else,
unknown values included, is no.
"""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.syntax import dotted_name
from shapecheck.objects.values import Instance, TorchObject

# nn.Module methods that return the module itself: `Net().to(device).eval()` is the `Net()` it was called on. The one
# list; a question that must stop at some of them (a move to another device, a switch to eval) takes those out.
RETURNS_SELF = frozenset({"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "train", "eval",
                          "requires_grad_", "to_empty", "share_memory", "apply", "type"})


def returned_self(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The module a chain of those methods is called on: `Net(cfg)` for `Net(cfg).to(device).eval()`."""
    while type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value in RETURNS_SELF:
        expr = expr.func.value
    return expr

# `torch.nn.` covers `Module`, `Sequential`, `ModuleList` and the layers; Lightning's module is one too.
_MODULE_CLASSES = ("torch.nn.", "torch.jit.ScriptModule")
_LIGHTNING = ("pytorch_lightning.", "lightning.")
# Constructors under `torch.nn` whose objects are no modules: their `.forward` is no module call.
_NOT_MODULES = ("torch.nn.Parameter", "torch.nn.parameter.", "torch.nn.utils.", "torch.nn.init.",
                "torch.nn.functional.", "torch.nn.attention.")


# torchvision's weights API lives beside its builders and returns no module.
_TORCHVISION_NOT_BUILDERS = frozenset({"get_weight", "get_model_weights", "list_models", "get_model_builder",
                                       "get_graph_node_names"})
_TRANSFORMERS_LOADERS = frozenset({"from_pretrained", "from_config"})


def builds_module(qualname: str) -> bool:
    """`qualname` is a function of another package that always returns an `nn.Module`: a torchvision model builder,
    `timm.create_model`, or a transformers PyTorch model class's loader (`AutoModelForCausalLM.from_pretrained`;
    the `TF` and `Flax` classes build Keras and Flax models, tokenizers and configs are no models)."""
    if qualname.startswith("torchvision.models."):
        last = qualname.rsplit(".", 1)[-1]
        return last[:1].islower() and last not in _TORCHVISION_NOT_BUILDERS
    if qualname in ("timm.create_model", "timm.models.create_model"):
        return True
    if qualname.startswith("transformers."):
        parts = qualname.split(".")
        cls = parts[-2]
        return parts[-1] in _TRANSFORMERS_LOADERS and not cls.startswith(("TF", "Flax")) \
            and (cls.endswith("Model") or cls.startswith("AutoModel") or "For" in cls)
    return False


# What an annotation names that no `nn.Module` is: Python's own types, `typing`'s containers, callables and
# iterators, and tensors (the last part of the name: `typing.Callable`, `torch.Tensor`, `Generator[Tensor, ...]`).
_NOT_MODULE_TYPES = frozenset({
    "int", "float", "complex", "str", "bytes", "bool", "list", "dict", "tuple", "set", "frozenset", "List", "Dict",
    "Tuple", "Set", "FrozenSet", "Callable", "Generator", "Iterator", "Iterable", "AsyncGenerator", "AsyncIterator",
    "Sequence", "Mapping", "MutableMapping", "MutableSequence", "Tensor", "ndarray"})


def annotation_excludes_module(annotation: cst.BaseExpression) -> bool:
    """The annotation states a type no `nn.Module` is (`noise: Generator[Tensor, None, None]`, `fn: Callable`);
    a union, an `Optional`, a string or a class it does not list says nothing."""
    if type(annotation) is cst.Subscript:
        annotation = annotation.value
    name = dotted_name(annotation)
    return name is not None and name.rsplit(".", 1)[-1] in _NOT_MODULE_TYPES


def is_module(value: object) -> bool:
    """`value` is certainly an `nn.Module` instance."""
    if isinstance(value, TorchObject):
        return _is_module_class(value.qualname) or builds_module(value.qualname)
    if isinstance(value, Instance):
        return any(_is_module_class(base) for base in value.bases)
    return False


def _is_module_class(qualname: str) -> bool:
    if qualname.startswith(_LIGHTNING):
        return qualname.endswith("LightningModule")
    return qualname.startswith(_MODULE_CLASSES) and not qualname.startswith(_NOT_MODULES)
