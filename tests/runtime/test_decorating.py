"""What `@shapecheck.check` can decorate: functions, methods, classmethods, staticmethods, properties, classes,
nn.Modules and dataclasses; and that it never stacks two wrappers."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
import torch
from jaxtyping import Float
from torch import Tensor, nn

import shapecheck


def t(*shape: int) -> Tensor:
    return torch.zeros(shape)


class Ops:
    def __init__(self, width: int) -> None:
        self.width = width

    @shapecheck.check
    def method(self, x: Float[Tensor, "N D"]) -> Float[Tensor, "D"]:
        return x.sum(0)

    @shapecheck.check
    @classmethod
    def above_classmethod(cls, x: Float[Tensor, "N 2"]) -> Float[Tensor, "N"]:
        return x.sum(1)

    @classmethod
    @shapecheck.check
    def below_classmethod(cls, x: Float[Tensor, "N 2"]) -> Float[Tensor, "N"]:
        return x.sum(1)

    @shapecheck.check
    @staticmethod
    def static(x: Float[Tensor, "N 2"]) -> Float[Tensor, "N"]:
        return x.sum(1)


def test_methods_classmethods_and_staticmethods():
    ops = Ops(2)
    assert ops.method(t(3, 2)).shape == (2,)
    for function in (ops.above_classmethod, Ops.below_classmethod, Ops.static, ops.static):
        assert function(t(3, 2)).shape == (3,)
        with pytest.raises(shapecheck.ShapeError, match=r"x.shape\[1\] is 3"):
            function(t(3, 3))
    assert isinstance(inspect.getattr_static(Ops, "above_classmethod"), classmethod)
    assert isinstance(inspect.getattr_static(Ops, "static"), staticmethod)


@shapecheck.check
class Model(nn.Module):
    def __init__(self, width: int = 4) -> None:
        super().__init__()
        self.fc = nn.Linear(width, 2)

    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x)

    def embed(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:
        return x

    def untyped(self, x):
        return x

    @property
    def weight_t(self) -> Float[Tensor, "4 2"]:
        return self.fc.weight.T

    @staticmethod
    def helper(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        return x


def test_class_decoration_wraps_forward_and_every_annotated_method():
    model = Model()
    assert model(t(3, 4)).shape == (3, 2)
    with pytest.raises(shapecheck.ShapeError, match=r"Model.forward\(\) argument 'x'"):
        model(t(3, 5))
    with pytest.raises(shapecheck.ShapeError, match=r"Model.embed\(\)"):
        model.embed(t(3, 5))
    assert model.weight_t.shape == (4, 2)
    with pytest.raises(shapecheck.ShapeError, match="Model.helper"):
        Model.helper(t(2, 2))
    assert Model.untyped is Model.__dict__["untyped"] and not hasattr(Model.untyped, "__wrapped__")


def test_subclass_keeps_the_checked_forward_and_can_be_decorated_itself():
    class Child(Model):
        def extra(self, x: Float[Tensor, "B 9"]) -> None:
            pass

    with pytest.raises(shapecheck.ShapeError):
        Child()(t(3, 5))
    Child.extra(None, t(1, 1))  # not decorated yet
    shapecheck.check(Child)
    with pytest.raises(shapecheck.ShapeError):
        Child.extra(None, t(1, 1))
    assert Child.forward is Model.forward


def test_dataclass_fields_are_checked_at_construction():
    @shapecheck.check
    @dataclasses.dataclass
    class Batch:
        tokens: Float[Tensor, "B T"]
        lengths: Float[Tensor, "B"]

    Batch(t(2, 5), t(2))
    with pytest.raises(shapecheck.ShapeError, match=r"lengths.shape\[0\] is B=3, but tokens.shape\[0\] bound B=2"):
        Batch(t(2, 5), t(3))


def test_decorating_twice_never_stacks_wrappers_and_the_outer_options_win():
    def f(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        return x

    once = shapecheck.check(f)
    twice = shapecheck.check(first=1)(once)
    assert twice.__wrapped__ is f
    twice(t(2))
    twice(t(2, 2))  # first=1: the second call is no longer checked
    with pytest.raises(shapecheck.ShapeError):
        once(t(2, 2))
    assert shapecheck.check(Model) is Model


def test_class_decoration_keeps_the_options_of_an_explicitly_checked_forward():
    @shapecheck.check
    class Sampled(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.ones(2))

        @shapecheck.check(first=1)
        def forward(self, x: Float[Tensor, "2"]) -> Float[Tensor, "2"]:
            return x

    model = Sampled()
    with pytest.raises(shapecheck.DeviceError, match="weight"):  # the class added the parameters...
        model(torch.zeros(2, device="meta"))
    model(torch.zeros(2, device="meta"))  # ...and forward kept first=1


def test_wrapper_looks_like_the_function():
    def attend(q: Float[Tensor, "B D"], k: Float[Tensor, "B D"], /, *, scale: float = 1.0) -> Float[Tensor, "B"]:
        """Docs."""
        return (q * k).sum(-1) * scale

    checked = shapecheck.check(attend)
    assert checked.__name__ == "attend" and checked.__doc__ == "Docs." and checked.__wrapped__ is attend
    assert inspect.signature(checked) == inspect.signature(attend)
    assert checked.__kwdefaults__ == {"scale": 1.0}
    assert torch.equal(checked(t(2, 3), t(2, 3), scale=2.0), attend(t(2, 3), t(2, 3), scale=2.0))
    with pytest.raises(TypeError, match="positional"):
        checked(q=t(2, 3), k=t(2, 3))


def test_forward_references_compile_on_first_call():
    namespace: dict = {}
    exec("from __future__ import annotations\n"
         "import shapecheck, torch\n"
         "from jaxtyping import Float\n"
         "from torch import Tensor\n"
         "@shapecheck.check\n"
         "class Node:\n"
         "    def merge(self, other: Node, x: Float[Tensor, 'N']) -> Float[Tensor, 'N']:\n"
         "        return x\n", namespace)
    node = namespace["Node"]()
    node.merge(node, t(3))
    with pytest.raises(shapecheck.ShapeError):
        node.merge(node, t(3, 1))


def test_rejects_what_it_cannot_decorate():
    with pytest.raises(TypeError, match="decorates functions, methods and classes"):
        shapecheck.check(42)
    with pytest.raises(ValueError, match="first"):
        shapecheck.check(first=-1)


def test_types_true_checks_non_tensor_hints_with_beartype():
    def f(x: Float[Tensor, "N"], n: int) -> Float[Tensor, "N"]:
        return x

    loose, strict = shapecheck.check(f), shapecheck.check(types=True)(f)
    loose(t(3), "three")
    strict(t(3), 3)
    with pytest.raises(shapecheck.CheckError, match="parameter n='three' violates type hint <class 'int'>"):
        strict(t(3), "three")
    with pytest.raises(shapecheck.ShapeError):
        strict(t(3, 1), 3)
