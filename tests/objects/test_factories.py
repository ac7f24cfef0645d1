"""Names unpacked from a same-file factory's returned tuple, and where that stays unknown."""

from __future__ import annotations

import textwrap

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context, Point
from shapecheck.objects.factories import returned_by_factory, unpacked_from_factory


def element(source: str, name: str) -> str | None:
    """The code of what `name`, unpacked at module level, holds, read in the factory: its value there."""
    ctx = Context(cst.parse_module(textwrap.dedent(source)), "train.py")
    traverse(ctx, [])
    binding = ctx.binding(name)
    assert binding is not None
    return read_there(ctx, unpacked_from_factory(ctx, binding))


def read_there(ctx: Context, found: tuple[cst.BaseExpression, Point] | None) -> str | None:
    """The code of what the expression found holds, read at its point."""
    if found is None:
        return None
    expr, point = found
    with ctx.at(point):
        value, _ = ctx.value_of(expr)
    return ctx.code(value)


def test_each_name_takes_its_element_read_with_the_factorys_names() -> None:
    source = """
        def build(args):
            model = Net(args.width).cuda()
            optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
            return model, optimizer
        model, optimizer = build(args)
    """
    assert element(source, "model") == "Net(args.width).cuda()"
    assert element(source, "optimizer") == "torch.optim.SGD(model.parameters(), lr=args.lr)"


def test_factories_with_several_returns_a_starred_element_or_a_method_stay_unknown() -> None:
    assert element("""
        def build(big):
            if big:
                return Big(), 1
            return Small(), 2
        model, size = build(True)
    """, "model") is None
    assert element("""
        def build():
            return Net(), *rest
        model, opt = build()
    """, "model") is None
    assert element("""
        class Factory:
            def build(self):
                return Net(), 1
        model, n = Factory().build()
    """, "model") is None


def returned_in_method(source: str, caller: str) -> str | None:
    """What the first `self.<method>()` call in the method `caller` returns, read in that method: its value there."""
    ctx = Context(cst.parse_module(textwrap.dedent(source)), "data.py")
    traverse(ctx, [])
    method = ctx.functions[caller][-1]
    scope = next(scope for _, _, scope in ctx.closed_functions if scope.node is method)
    call = next(node for node in ctx.walk(method.body) if type(node) is cst.Call and type(node.func) is cst.Attribute
                and type(node.func.value) is cst.Name and node.func.value.value == "self")
    with ctx.at(Point(scope, 10_000, (ctx.class_of_method(method),), (method,))):
        found = returned_by_factory(ctx, call, methods=True)
    return read_there(ctx, found)


TABLE = """
    class Table:
        def standardized(self):
            x = np.loadtxt(self.path)
            return x
        def tensors(self):
            return torch.from_numpy(self.standardized())
    %s
"""


def test_a_method_called_on_self_returns_what_its_body_returns() -> None:
    assert returned_in_method(TABLE % "", "tensors") == "np.loadtxt(self.path)"


def test_a_method_a_subclass_overrides_returns_nothing_certain() -> None:
    override = "class Scaled(Table):\n    def standardized(self):\n        return np.ones(3, dtype=np.float32)"
    assert returned_in_method(textwrap.dedent(TABLE) % override, "tensors") is None
