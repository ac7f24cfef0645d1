"""Which parameter of a function an argument of a call lands in."""

from __future__ import annotations

import libcst as cst

from shapecheck.objects.arguments import passed_argument, receiving_parameter


def parts(definition: str, call: str) -> tuple[cst.FunctionDef, cst.Call]:
    function = cst.parse_statement(definition)
    expression = cst.parse_expression(call)
    assert type(function) is cst.FunctionDef and type(expression) is cst.Call
    return function, expression


def test_an_argument_lands_in_the_parameter_of_its_position_or_keyword() -> None:
    definition, call = parts("def train(args, loader, model): pass", "train(a, make_loader(ds), model=m)")
    assert receiving_parameter(definition, call, call.args[1].value) == "loader"
    assert receiving_parameter(definition, call, call.args[2].value) == "model"
    assert passed_argument(definition, call, "loader") is call.args[1].value


def test_a_method_s_self_takes_no_argument_and_a_star_hides_the_rest() -> None:
    definition, call = parts("def fit(self, loader): pass", "trainer.fit(build(ds))")
    assert receiving_parameter(definition, call, call.args[0].value) == "loader"
    definition, call = parts("def fit(a, loader): pass", "fit(*xs, build(ds))")
    assert receiving_parameter(definition, call, call.args[1].value) is None


def test_an_expression_the_call_does_not_pass_lands_nowhere() -> None:
    definition, call = parts("def fit(loader): pass", "fit(build(ds))")
    assert receiving_parameter(definition, call, cst.parse_expression("build(ds)")) is None
