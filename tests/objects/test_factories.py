"""Names unpacked from a same-file factory's returned tuple, and where that stays unknown."""

from __future__ import annotations

import textwrap

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context
from shapecheck.objects.factories import unpacked_from_factory


def element(source: str, name: str) -> str | None:
    """The code of what `name`, unpacked at module level, holds, read in the factory: its value there."""
    ctx = Context(cst.parse_module(textwrap.dedent(source)), "train.py")
    traverse(ctx, [])
    binding = ctx.binding(name)
    assert binding is not None
    found = unpacked_from_factory(ctx, binding)
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
