"""Where a same-file helper or class is called from, and the names each caller's arguments are read with."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Context, Point
from shapecheck.objects.callers import (callers, every_call_passes, helper_callers, imported_method_callers,
                                       method_callers, project_callers)
from shapecheck.objects.stored import every_construction_passes
from tests.cli_helpers import write


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
                             lambda _, passed: seen.append(assigned_call(ctx, passed)) is None)
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


def test_a_call_from_a_nested_function_leaves_every_caller_unread() -> None:
    ctx = analysed("""
        def fit(model):
            pass
        def outer():
            def inner():
                fit(m)
        fit(net)
    """)
    assert callers(ctx, "fit") is None
    assert not every_call_passes(ctx, function(ctx, "fit"), "model", lambda _, passed: True)


def test_a_call_in_a_method_of_another_class_reads_that_method_and_its_class() -> None:
    """A model builds its layers in its own constructor (`self.conv1 = Conv4d(1, width, 3)`), a runner hands its
    model on: the method's names, `self` as its class holds it, are read at the end of the method."""
    ctx = analysed("""
        def fit(model, epochs):
            pass
        class Runner:
            def __init__(self):
                self.net = Net()
            def run(self, epochs):
                fit(self.net, epochs)
        fit(Net(), 3)
    """)
    seen: list[str | None] = []
    assert every_call_passes(ctx, function(ctx, "fit"), "model",
                             lambda _, passed: seen.append(assigned_call(ctx, passed) or ctx.code(passed)) is None)
    assert sorted(seen) == ["Net()", "Net()"]
    # the method's own parameter is what its callers pass, not known here
    assert not every_call_passes(ctx, function(ctx, "fit"), "epochs", lambda _, passed: type(passed) is cst.Integer)


def test_a_call_that_passes_nothing_for_the_parameter_is_not_every_call() -> None:
    ctx = analysed("""
        def fit(model=None):
            pass
        def main():
            fit()
    """)
    assert not every_call_passes(ctx, function(ctx, "fit"), "model", lambda _, passed: True)


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
        assert every_call_passes(ctx, train, "X", lambda _, passed: seen.append(assigned_call(ctx, passed)) is None)
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
                                     lambda _, passed: seen.append(assigned_call(ctx, passed) or ctx.code(passed))
                                     is None)
    assert seen == ["Net()", "Other()"]
    assert not every_construction_passes(ctx, trainer, init, "model", lambda _, passed: ctx.code(passed) == "net")


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
                             lambda _, passed: seen.append(ctx.binding(passed).kind) is None, methods=True)
    assert seen == ["param"]  # read inside `fit`, where `data` is fit's own parameter
    assert not every_call_passes(ctx, method(ctx, "train_epoch"), "data", lambda _, passed: True)  # plain only


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


def analysed_file(path: Path) -> Context:
    ctx = Context(cst.parse_module(path.read_text()), str(path))
    traverse(ctx, [])
    return ctx


ENGINE = """\
def train_one_epoch(model, loader, optimizer, criterion=None):
    pass
"""


def test_the_calls_of_a_helper_in_the_modules_that_import_it(tmp_path: Path) -> None:
    """`train.py` builds the model and calls `engine.py`'s helper: its call is read with `train.py`'s names, in its
    own context; a call of another module's function of the same name is none of the helper's."""
    (tmp_path / "pyproject.toml").write_text("")
    engine = write(tmp_path / "engine.py", ENGINE)
    write(tmp_path / "train.py", "from engine import train_one_epoch\n\ndef main():\n    net = Net()\n"
                                 "    train_one_epoch(net, loader, opt)\n")
    write(tmp_path / "tune.py", "import engine\n\nengine.train_one_epoch(Other(), loader, opt)\n")
    write(tmp_path / "other.py", "from trainer import train_one_epoch\n\ntrain_one_epoch(Third(), loader, opt)\n")
    ctx = analysed_file(engine)
    found = project_callers(ctx, function(ctx, "train_one_epoch")) or []
    assert sorted((Path(caller.ctx.filename).name, caller.ctx.code(caller.site.node)) for caller in found) == [
        ("train.py", "train_one_epoch(net, loader, opt)"), ("tune.py", "engine.train_one_epoch(Other(), loader, opt)")]
    seen: list[str | None] = []
    assert every_call_passes(ctx, function(ctx, "train_one_epoch"), "model",
                             lambda reader, passed: seen.append(assigned_call(reader, passed)) is None)
    assert sorted(map(str, seen)) == ["Net()", "None"]  # `net` in `main()`; `Other()` is passed as written


def test_a_construction_through_a_package_that_re_exports_the_class(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    predictor = write(tmp_path / "pkg" / "predictor.py", "class Predictor:\n    def __init__(self, model):\n"
                                                         "        self.model = model\n")
    write(tmp_path / "pkg" / "__init__.py", "from .predictor import Predictor\n")
    write(tmp_path / "run.py", "from pkg import Predictor\n\nPredictor(Net())\n")
    ctx = analysed_file(predictor)
    trainer = next(node for node in ctx.module.body if type(node) is cst.ClassDef)
    seen: list[str] = []
    assert every_construction_passes(ctx, trainer, trainer.body.body[0], "model",
                                     lambda reader, passed: seen.append(reader.code(passed)) is None)
    assert seen == ["Net()"]


def test_a_method_s_calls_through_a_package_that_re_exports_its_class(tmp_path: Path) -> None:
    """A meter written in one module and fed in another, imported through the package's `__init__` (which names the
    class, not the method): the call on an instance certainly built from it is the method's."""
    (tmp_path / "pyproject.toml").write_text("")
    meters = write(tmp_path / "pkg" / "meters.py", "class AucMeter:\n    def update(self, scores):\n"
                                                   "        self.scores = scores\n")
    write(tmp_path / "pkg" / "__init__.py", "from .meters import AucMeter\n")
    write(tmp_path / "train.py", "from pkg import AucMeter\n\nmeter = AucMeter()\nmeter.update(net(x))\n"
                                 "other.update(net(x))\n")
    ctx = analysed_file(meters)
    update = next(node for node in ctx.walk(ctx.module) if type(node) is cst.FunctionDef)
    found = imported_method_callers(ctx, update)
    assert [(Path(caller.ctx.filename).name, caller.ctx.code(caller.site.node)) for caller in found] == [
        ("train.py", "meter.update(net(x))")]


def test_an_importer_whose_call_cannot_be_read_leaves_the_callers_unknown(tmp_path: Path) -> None:
    """A call in a nested function of `train.py` (its names need a closure): what the helper is handed is not
    known, though this file's own call is read."""
    (tmp_path / "pyproject.toml").write_text("")
    engine = write(tmp_path / "engine.py", ENGINE + "\ntrain_one_epoch(Net(), loader, opt)\n")
    write(tmp_path / "train.py", "from engine import train_one_epoch\n\ndef main():\n    def go():\n"
                                 "        train_one_epoch(m, loader, opt)\n")
    ctx = analysed_file(engine)
    assert project_callers(ctx, function(ctx, "train_one_epoch")) is None
    assert not every_call_passes(ctx, function(ctx, "train_one_epoch"), "model", lambda _, passed: True)


def test_a_file_nothing_imports_has_only_its_own_callers(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    engine = write(tmp_path / "engine.py", ENGINE + "\ntrain_one_epoch(Net(), loader, opt)\n")
    write(tmp_path / "train.py", "def train_one_epoch(model):\n    pass\n\ntrain_one_epoch(Other())\n")
    ctx = analysed_file(engine)
    found = project_callers(ctx, function(ctx, "train_one_epoch")) or []
    assert [(caller.ctx is ctx, ctx.code(caller.site.node)) for caller in found] == [
        (True, "train_one_epoch(Net(), loader, opt)")]


def test_a_nested_function_of_the_same_name_is_not_what_an_importer_calls(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    engine = write(tmp_path / "engine.py", ENGINE + "\ndef main():\n    def train_one_epoch(model):\n        pass\n"
                                                    "    train_one_epoch(Net())\n")
    write(tmp_path / "train.py", "from engine import train_one_epoch\n\ntrain_one_epoch(Other(), loader, opt)\n")
    ctx = analysed_file(engine)
    nested = next(node for node in ctx.walk(ctx.module) if type(node) is cst.FunctionDef
                  and node.name.value == "train_one_epoch" and node is not ctx.module.body[0])
    found = project_callers(ctx, nested) or []
    assert [ctx.code(caller.site.node) for caller in found] == ["train_one_epoch(Net())"]
    top = project_callers(ctx, ctx.module.body[0]) or []
    assert [caller.ctx.code(caller.site.node) for caller in top if caller.ctx is not ctx] == [
        "train_one_epoch(Other(), loader, opt)"]
