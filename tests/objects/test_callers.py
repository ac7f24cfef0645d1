"""Where a same-file helper or class is called from, and the names each caller's arguments are read with."""

from __future__ import annotations

import textwrap

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context, Point
from shapecheck.objects.callers import callers, every_call_passes, helper_callers, method_callers
from shapecheck.objects.stored import every_construction_passes


def analysed(source: str) -> Context:
    ctx = Context(cst.parse_module(textwrap.dedent(source)), "train.py")
    traverse(ctx, [])
    return ctx


def function(ctx: Context, name: str) -> cst.FunctionDef:
    return ctx.functions[name][-1]


def assigned_call(ctx: Context, expr: cst.BaseExpression) -> str | None:
    """What the name passed is bound to, read where the caller's names are: the code of its value."""
    value, _ = ctx.value_of(expr)
    return ctx.code(value) if value is not expr else None


def test_a_call_in_main_reads_mains_own_names() -> None:
    ctx = analysed("""
        def train(model, loader):
            pass
        def main():
            model = Net().cuda()
            train(model, loader)
        model = Other()
    """)
    seen: list[str | None] = []
    assert every_call_passes(ctx, function(ctx, "train"), "model",
                             lambda passed: seen.append(assigned_call(ctx, passed)) is None)
    assert seen == ["Net().cuda()"]  # main's local, not the module's `model`


def test_module_level_and_function_calls_are_both_read() -> None:
    ctx = analysed("""
        def evaluate(model):
            pass
        def main():
            evaluate(a)
        evaluate(b)
        class Trainer:
            def __init__(self, model):
                self.model = model
        def build():
            return Trainer(Net())
    """)
    assert [ctx.code(site.node) for site, _ in callers(ctx, "evaluate") or ()] == ["evaluate(a)", "evaluate(b)"]
    assert [ctx.code(site.node) for site, _ in callers(ctx, "Trainer") or ()] == ["Trainer(Net())"]


def test_a_call_from_a_method_or_a_nested_function_leaves_every_caller_unread() -> None:
    ctx = analysed("""
        def fit(model):
            pass
        def outer():
            def inner():
                fit(m)
        class Runner:
            def run(self):
                fit(self.net)
        fit(net)
    """)
    assert callers(ctx, "fit") is None
    assert not every_call_passes(ctx, function(ctx, "fit"), "model", lambda passed: True)


def test_a_call_that_passes_nothing_for_the_parameter_is_not_every_call() -> None:
    ctx = analysed("""
        def fit(model=None):
            pass
        def main():
            fit()
    """)
    assert not every_call_passes(ctx, function(ctx, "fit"), "model", lambda passed: True)


def test_a_module_level_call_reads_module_names_while_the_helpers_body_is_looked_at() -> None:
    ctx = analysed("""
        def train(X):
            y = X
        X = np.random.randn(10, 4)
        train(X)
    """)
    train = function(ctx, "train")
    scope = next(scope for _, _, scope in ctx.closed_functions if scope.node is train)
    seen: list[str | None] = []
    with ctx.at(Point(scope, 10_000, (), (train,))):  # a rule judging the helper's body in `finish()`
        assert every_call_passes(ctx, train, "X", lambda passed: seen.append(assigned_call(ctx, passed)) is None)
    assert seen == ["np.random.randn(10, 4)"]  # the module's `X`, not the helper's parameter


def test_every_construction_of_a_trainer_must_pass_what_holds() -> None:
    ctx = analysed("""
        class Trainer:
            def __init__(self, model, loader):
                self.model = model
        def main():
            net = Net()
            Trainer(net, loader)
        Trainer(Other(), None)
    """)
    trainer = next(node for node in ctx.module.body if type(node) is cst.ClassDef)
    init = trainer.body.body[0]
    seen: list[str | None] = []
    assert every_construction_passes(ctx, trainer, init, "model",
                                     lambda passed: seen.append(assigned_call(ctx, passed) or ctx.code(passed)) is None)
    assert seen == ["Net()", "Other()"]
    assert not every_construction_passes(ctx, trainer, init, "model", lambda passed: ctx.code(passed) == "net")


def test_a_notebook_that_defines_a_helper_again_has_each_definitions_calls_apart() -> None:
    ctx = analysed("""
        def to_tensor(array, device):
            return array
        to_tensor(features, "cpu")
        def to_tensor(array, device):
            return array
        to_tensor(table, "mps")
    """)
    first, second = ctx.functions["to_tensor"]
    assert [ctx.code(site.node) for site, _ in helper_callers(ctx, first) or ()] == ['to_tensor(features, "cpu")']
    assert [ctx.code(site.node) for site, _ in helper_callers(ctx, second) or ()] == ['to_tensor(table, "mps")']


TRAINER = textwrap.dedent("""
    class Trainer:
        def _batch(self, x):
            pass
        def train_epoch(self, data):
            for i in range(0, len(data), 64):
                self._batch(data[i:i + 64])
        def fit(self, data):
            local = Other()
            self.train_epoch(data)
    %s
""")


def method(ctx: Context, name: str) -> cst.FunctionDef:
    return next(node for node in ctx.module.body[0].body.body if node.name.value == name)


def test_a_method_is_followed_from_its_class_and_from_the_script_that_constructs_it() -> None:
    ctx = analysed(TRAINER % ("if __name__ == '__main__':\n    trainer = Trainer()"
                              "\n    trainer.fit(np.random.randn(10, 4))\nTrainer().fit(table)"))
    assert [ctx.code(site.node) for site, _ in method_callers(ctx, method(ctx, "_batch")) or ()] \
        == ["self._batch(data[i:i + 64])"]
    fit_callers = method_callers(ctx, method(ctx, "fit")) or ()
    assert [ctx.code(site.node) for site, _ in fit_callers] == ["trainer.fit(np.random.randn(10, 4))",
                                                                  "Trainer().fit(table)"]
    seen: list[str | None] = []
    assert every_call_passes(ctx, method(ctx, "train_epoch"), "data",
                             lambda passed: seen.append(ctx.binding(passed).kind) is None, methods=True)
    assert seen == ["param"]  # read inside `fit`, where `data` is fit's own parameter
    assert not every_call_passes(ctx, method(ctx, "train_epoch"), "data", lambda passed: True)  # plain only


def test_a_method_called_on_an_object_of_unknown_class_is_not_followed() -> None:
    # `model.fit(X, y)` may be this `fit` or a scikit-learn estimator's: its arguments say nothing either way
    for script in ("model.fit(X)", "trainer = make_trainer()\ntrainer.fit(X)", "super().fit(X)",
                   "trainer = baseline\nif resume:\n    trainer = Trainer()\ntrainer.fit(X)"):
        ctx = analysed(TRAINER % ("Trainer().fit(table)\n" + script))
        assert method_callers(ctx, method(ctx, "fit")) is None


def test_a_call_on_what_a_library_made_is_no_call_of_the_method() -> None:
    ctx = analysed("""
        import torch
        class Trainer:
            def __init__(self, model):
                self.opt = torch.optim.Adam(model.parameters())
            def step(self, xb):
                self.opt.step()
            def fit(self, X):
                self.step(X)
    """)
    step = next(node for node in ctx.module.body[1].body.body if node.name.value == "step")
    assert [ctx.code(site.node) for site, _ in method_callers(ctx, step) or ()] == ["self.step(X)"]
