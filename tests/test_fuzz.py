"""Fuzzing: every rule, with its fixes, over thousands of mutated and generated programs, never crashes (no SC999,
no engine error).

Two sources, both seeded so a failure reproduces (its seed and source are in the assertion message):
- mutations of real-looking files (every rule's VALID and INVALID examples and the fixtures): calls lose their
  arguments or get only `*args` / `**kwargs`, positional arguments become keywords (`input=`), `out=` is added,
  names are swapped for others the rules look for, numbers become names or negatives, statements are shuffled;
- programs generated from a small grammar over the names and methods the rules look for, in every statement
  context (module, function, method, loop, `with`, `try`, comprehension, lambda, `async def`).
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import all_rules
from shapecheck.findings import INTERNAL_ERROR

RULES = all_rules()
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# Whatever a rule looks for, so the inputs reach deep into every rule.
WORDS = sorted({word for rule in RULES for word in rule.triggers if word.isidentifier()} | {
    "log", "softmax", "log_softmax", "sigmoid", "view", "reshape", "transpose", "permute", "contiguous", "cat",
    "stack", "unsqueeze", "squeeze", "zero_grad", "backward", "step", "eval", "train", "no_grad", "load", "Tensor",
    "tensor", "empty", "cuda", "amp", "autocast", "GradScaler", "numpy", "detach", "item", "requires_grad",
    "forward", "to", "float64", "double", "dtype", "device", "cross_entropy", "nll_loss", "BCELoss",
    "binary_cross_entropy", "Sequential", "Linear", "Module", "parameters", "optimizer", "model", "loss", "self",
})
MODULES = ["torch", "F", "nn", "torch.nn", "torch.nn.functional", "torch.cuda.amp", "torch.amp", "np", "th"]
HEADER = "import torch\nimport torch as th\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport numpy as np\n"
# Inputs per source: a few thousand in all, in well under a minute.
MUTANTS_PER_SEED = 40
GENERATED_PER_SEED = 40
SEEDS = range(25)


def assert_survives(source: str, label: str) -> None:
    for fix in (None, "unsafe"):
        result = lint_text(source, "fuzz.py", RULES, fix)
        crashes = [f.message for f in result.findings if f.code == INTERNAL_ERROR]
        assert not crashes and result.error is None, f"{label} (fix={fix}): {crashes or result.error}\n{source}"


# ------------------------------------------------------------------------------------------------ mutation


@functools.cache
def corpus() -> list[cst.Module]:
    sources = [textwrap.dedent(code) for rule in RULES for code in rule.valid_examples()]
    sources += [textwrap.dedent(example.code) for rule in RULES for example in rule.invalid_examples()]
    sources += [path.read_text() for path in sorted(FIXTURES.rglob("*.py"))]
    return [cst.parse_module(source) for source in sources]


class Mutator(cst.CSTTransformer):
    def __init__(self, rng: random.Random, rate: float) -> None:
        self.rng = rng
        self.rate = rate

    def _hit(self) -> bool:
        return self.rng.random() < self.rate

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not self._hit():
            return updated
        rng, args = self.rng, list(updated.args)
        choice = rng.randrange(8)
        if choice == 0:
            args = []
        elif choice == 1:
            args = [cst.Arg(cst.Name("args"), star="*")]
        elif choice == 2:
            args = [cst.Arg(cst.Name("kwargs"), star="**")]
        elif choice == 3 and args and args[0].keyword is None and not args[0].star:
            args[0] = args[0].with_changes(keyword=cst.Name(rng.choice(["input", "dim", "x", "tensors"])),
                                           equal=cst.AssignEqual())
        elif choice == 4:
            args.append(cst.Arg(cst.Name("y"), keyword=cst.Name(rng.choice(["out", "dim", "weights_only"])),
                                equal=cst.AssignEqual()))
        elif choice == 5 and args:
            args.pop(rng.randrange(len(args)))
        elif choice == 6:
            args = [cst.Arg(cst.Name("args"), star="*"), *args, cst.Arg(cst.Name("kwargs"), star="**")]
        else:
            return updated.with_changes(func=_expression(rng, 1))
        args = [arg.with_changes(comma=cst.MaybeSentinel.DEFAULT) for arg in args]
        try:
            return updated.with_changes(args=args)
        except cst.CSTValidationError:  # a positional argument after a keyword one
            return updated

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.rng.choice(WORDS)) if self._hit() else updated

    def leave_Integer(self, original: cst.Integer, updated: cst.Integer) -> cst.BaseExpression:
        if not self._hit():
            return updated
        return self.rng.choice([cst.Name("n"), cst.Integer("0"), cst.Integer("99999"),
                                cst.UnaryOperation(cst.Minus(), cst.Integer("1"))])

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if not self._hit():
            return updated
        body = list(updated.body)
        self.rng.shuffle(body)
        return updated.with_changes(body=body)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = list(updated.body)
        if body and self._hit():
            body.pop(self.rng.randrange(len(body)))  # an import, a definition or a use goes missing
        return updated.with_changes(body=body)


def mutants(seed: int) -> list[str]:
    rng = random.Random(seed)
    modules = corpus()
    found = []
    for _ in range(MUTANTS_PER_SEED):
        module = rng.choice(modules)
        mutated = module.visit(Mutator(rng, rate=rng.choice([0.05, 0.2, 0.5])))
        code = mutated.code
        try:
            cst.parse_module(code)  # a mutation can only make code libcst parses
        except cst.ParserSyntaxError:
            continue
        found.append(code)
    return found


# ---------------------------------------------------------------------------------------------- generation


def _name(rng: random.Random) -> str:
    return rng.choice(WORDS + ["x", "y", "p", "batch", "out"])


def _expression(rng: random.Random, depth: int) -> cst.BaseExpression:
    return cst.parse_expression(_expr(rng, depth))


def _expr(rng: random.Random, depth: int) -> str:
    if depth <= 0:
        return rng.choice([_name(rng), f"{rng.choice(MODULES)}.{_name(rng)}", f"({rng.randint(-2, 4)})", "None",
                           "'mps'", "'cuda'", "torch.float64", "1e-8", "...", "self.model"])
    kind = rng.randrange(9)
    inner = _expr(rng, depth - 1)
    if kind <= 2:
        return f"{rng.choice(MODULES)}.{_name(rng)}({_args(rng, depth - 1)})"
    if kind == 3:
        return f"{inner}.{_name(rng)}({_args(rng, depth - 1)})"
    if kind == 4:
        return f"{inner}[{rng.choice(['0', ':', '..., -1', 'i', '1:, None'])}]"
    if kind == 5:
        return f"({inner} {rng.choice(['+', '-', '*', '/', '@', '**', '==', 'and'])} {_expr(rng, depth - 1)})"
    if kind == 6:
        return f"(lambda *a, **k: {inner})"
    if kind == 7:
        return f"[{inner} for {_name(rng)} in {_expr(rng, depth - 1)} if {_name(rng)}]"
    return f"{inner}.{_name(rng)}"


ARGUMENT_FORMS = ["{keyword}={value}", "*{value}", "**{value}", "{value}", "{value}", "{value}"]
KEYWORDS = ["input", "dim", "out", "weights_only", "device", "dtype"]
SIMPLE_STATEMENTS = ["{name} = {expr}", "{name}, {other} = {expr}", "{expr}", "self.{name} = {expr}",
                     "{name} += {expr}", "del {name}"]


def _args(rng: random.Random, depth: int) -> str:
    parts = [rng.choice(ARGUMENT_FORMS).format(keyword=rng.choice(KEYWORDS), value=_expr(rng, depth))
             for _ in range(rng.randrange(4))]
    positional = [p for p in parts if "=" not in p.split("(")[0] and not p.startswith("**")]
    keywords = [p for p in parts if p not in positional]
    return ", ".join(positional + keywords)


def _statements(rng: random.Random, depth: int, indent: str) -> list[str]:
    lines = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(12 if depth > 0 else 6)
        expr = _expr(rng, rng.randint(0, 3))
        if kind < len(SIMPLE_STATEMENTS):
            lines.append(indent + SIMPLE_STATEMENTS[kind].format(name=_name(rng), other=_name(rng), expr=expr))
        else:
            header = rng.choice([
                f"for {_name(rng)} in {expr}:", f"with {expr}:", f"with {expr} as {_name(rng)}:", f"if {expr}:",
                f"while {expr}:", "try:", f"def {_name(rng)}(self, x, *args, dim=-1, **kwargs):",
                f"async def {_name(rng)}(x):", f"class {_name(rng)}(nn.Module):",
            ])
            lines.append(indent + header)
            lines += _statements(rng, depth - 1, indent + "    ")
            if header == "try:":
                lines.append(indent + "except Exception:")
                lines += _statements(rng, depth - 1, indent + "    ")
            if header.startswith("def"):
                lines.append(f"{indent}    return {_expr(rng, 2)}")
    return lines


def generated(seed: int) -> list[str]:
    rng = random.Random(seed)
    return [HEADER + "\n".join(_statements(rng, 3, "")) + "\n" for _ in range(GENERATED_PER_SEED)]


# ------------------------------------------------------------------------------------------------ the tests


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_real_looking_files(seed: int) -> None:
    for index, source in enumerate(mutants(seed)):
        assert_survives(source, f"mutant {index} of seed {seed}")


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_programs(seed: int) -> None:
    for index, source in enumerate(generated(seed)):
        assert_survives(source, f"program {index} of seed {seed}")


# A tree of fuzzed files linted by the command, as a user runs it (worker processes, the budget, the report): every
# file must come out in the report. Each ends in a line whose noqa comment silences nothing, so SC900 reports any file
# that parses and SC000 any other; a file the report does not name was lost. SHAPECHECK_FUZZ_FILES=10000 for the
# long run (reported in the README).
TREE_FILES = int(os.environ.get("SHAPECHECK_FUZZ_FILES", "160"))
MARKER = "pass  # noqa: SC101\n"


def fuzzed_tree(folder: Path, count: int) -> set[str]:
    written, seed = set(), 0
    while len(written) < count:
        for source in mutants(seed) + generated(seed):
            path = folder / f"s{seed}" / f"f{len(written)}.py"
            path.parent.mkdir(exist_ok=True)
            path.write_text(source.rstrip("\n") + "\n" + MARKER)
            written.add(str(path))
            if len(written) == count:
                break
        seed += 1
    return written


def test_every_file_of_a_fuzzed_tree_is_in_the_report(tmp_path: Path) -> None:
    written = fuzzed_tree(tmp_path, TREE_FILES)
    run = subprocess.run([sys.executable, "-m", "shapecheck", "lint", "--no-cache", "--extend-select", "SC900",
                          "--output-format", "json", str(tmp_path)], capture_output=True, text=True, timeout=3600)
    assert "Traceback" not in run.stderr and run.returncode in (1, 2), run.stderr
    reported = {record["filename"] for record in json.loads(run.stdout)}
    named_in_errors = {path for path in written - reported if path in run.stderr}
    print(f"\nfuzzed tree: {len(written)} files, {len(reported)} with findings, "
          f"{len(named_in_errors)} named in an error, {len(written - reported - named_in_errors)} lost")
    assert written - reported - named_in_errors == set()


# ----------------------------------------------------------------------------------------- configuration values
#
# Random `[tool.shapecheck]` tables: every key, with values of every TOML type (strings for lists, lists for strings,
# nested tables, negative, huge and non-finite numbers, NUL characters, codes good and bad), some keys misspelt, some
# `extend` chains (cycles, missing files, folders). Each table is resolved as `shapecheck lint` resolves it, and what
# the CLI derives from it is computed (rules, excludes, per-file-ignores, fixability, budget), under a time limit: the
# only failure allowed is a ConfigError, whose messages each name the file. A few hundred run by default;
# SHAPECHECK_FUZZ_CONFIGS=10000 runs that many (the full run is reported in the README). A slice also goes through
# the command line itself, to see exit code 2 and no traceback.

import math  # noqa: E402 - this part of the module is about configuration
import signal  # noqa: E402
from contextlib import contextmanager  # noqa: E402

from shapecheck.config import ConfigError, Resolver  # noqa: E402
from shapecheck.settings import KEYS  # noqa: E402

CONFIG_INPUTS = int(os.environ.get("SHAPECHECK_FUZZ_CONFIGS", "300"))
CONFIG_BATCHES = 10
CODES = ["SC1", "SC101", "SC2", "SC301", "SC501", "SC900", "ALL", "SC9Z", "sc101", "", "E501", "SC", "SC000"]


def _scalar(rng: random.Random):
    return rng.choice([
        rng.choice(CODES), rng.randint(-5, 5), rng.choice([0, 1, 60, 4096, 10**30, -10**30]),
        rng.choice([0.5, -1.5, math.inf, -math.inf, math.nan, 1e308, 5e-324]), rng.random() < 0.5,
        rng.choice(["", "a\0b", "tests/*", "!pkg/*", "**", "[", "\\", "../x.toml", "ü", "json", "error"]),
    ])


def _value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(6 if depth < 2 else 3)
    if kind <= 1:
        return _scalar(rng)
    if kind == 2:
        return [rng.choice(CODES) for _ in range(rng.randrange(4))]
    if kind == 3:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    if kind == 4:
        return {rng.choice(["tests/*", "!src/*", "", "a\0", "x"]): _value(rng, depth + 1) for _ in range(rng.randrange(3))}
    return {"deep": {"deeper": _scalar(rng)}}


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if value != value else "inf" if value == math.inf else "-inf" if value == -math.inf else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\0", "\\u0000") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return "{ " + ", ".join(f"{_toml(str(key))} = {_toml(item)}" for key, item in value.items()) + " }"


VALID_VALUES = {
    "select": [["SC1"], ["ALL"], ["SC3", "SC201"]], "ignore": [["SC2"], []], "extend-select": [["SC501", "SC900"]],
    "fixable": [["ALL"], ["SC3"]], "unfixable": [["SC402"]], "extend-fixable": [["SC1"]],
    "exclude": [["build"], ["**/gen/*", "!keep.py"]], "extend-exclude": [["tests/data"]],
    "per-file-ignores": [{"tests/*": ["SC2"], "!pkg/*": ["SC101"]}], "extend-per-file-ignores": [{"x.py": ["ALL"]}],
    "respect-gitignore": [True, False], "fix": [False], "unsafe-fixes": [True], "show-fixes": [True],
    "external": [["SC100"]], "fail-on": ["error", "warning"], "output-format": ["json", "grouped"],
    "file-time-limit": [0, 0.5, 1_000_000], "file-memory-limit": [0, 1 << 30], "target-version": ["py312", "py310"],
    "cache-dir": ["cache", ".shapecheck_cache"],
}


def valid_table(rng: random.Random) -> dict:
    return {key: rng.choice(VALID_VALUES[key]) for key in rng.sample(sorted(VALID_VALUES), rng.randrange(1, 8))}


def random_table(rng: random.Random) -> dict:
    if rng.random() < 0.25:
        return valid_table(rng)
    table = {}
    for _ in range(rng.randrange(1, 6)):
        key = rng.choice([*KEYS, *KEYS, "selcet", "extend_select", "lint", "tool"])
        table[key] = _value(rng)
    if rng.random() < 0.2:
        table["extend"] = rng.choice(["base.toml", "pyproject.toml", "missing.toml", "folder", "sub/.shapecheck.toml"])
    if rng.random() < 0.3:  # a valid value now and then, so what lies beyond the checks runs too
        table[rng.choice(["select", "ignore", "per-file-ignores"])] = rng.choice(
            [["SC1"], ["SC3", "SC201"], {"tests/*": ["SC2"], "!pkg/*": ["SC101"]}])
    return table


@contextmanager
def time_limit(seconds: int):
    def expire(signum, frame):
        raise TimeoutError(f"took more than {seconds} s: a hang")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def resolve_everything(folder: Path) -> None:
    """What `shapecheck lint` derives from the configuration of a file in `folder`."""
    config = Resolver(None).for_path(str(folder / "model.py"))
    config.enabled_rules()
    config.exclusions.covers(str(folder / "tests" / "t.py"))
    config.ignored_codes(str(folder / "pkg" / "m.py"))
    _ = (config.file_options, config.budget, config.fix, config.fail_on, config.output_format, config.describe())


def _write_config(folder: Path, rng: random.Random) -> None:
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    (folder / "folder").mkdir(exist_ok=True)
    base = random_table(rng) if rng.random() < 0.5 else valid_table(rng)
    (folder / "base.toml").write_text("\n".join(f"{_toml(k)} = {_toml(v)}" for k, v in base.items()))
    (folder / "sub" / ".shapecheck.toml").write_text('extend = "../pyproject.toml"\n')
    body = "\n".join(f"{_toml(k)} = {_toml(v)}" for k, v in random_table(rng).items())
    (folder / "pyproject.toml").write_text("[tool.shapecheck]\n" + body + "\n")


@pytest.mark.parametrize("batch", range(CONFIG_BATCHES))
def test_fuzzed_configuration_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    monkeypatch.chdir(tmp_path)
    rng = random.Random(batch)
    count = CONFIG_INPUTS // CONFIG_BATCHES + (batch < CONFIG_INPUTS % CONFIG_BATCHES)
    refused = 0
    for index in range(count):
        folder = tmp_path / str(index)
        _write_config(folder, rng)
        label = f"input {index} of batch {batch}:\n{(folder / 'pyproject.toml').read_text()}"
        try:
            with time_limit(10):
                resolve_everything(folder)
        except ConfigError as error:
            refused += 1
            assert error.messages and all(str(folder) in message for message in error.messages), label
        except Exception as error:  # noqa: BLE001 - any other exception is the bug this test looks for
            pytest.fail(f"{type(error).__name__}: {error}\n{label}")
    print(f"configuration batch {batch}: {count} inputs, {refused} refused with a clear error, 0 tracebacks")
    assert 0 < refused < count or count < 5


def test_the_valid_values_cover_every_key() -> None:
    assert set(VALID_VALUES) == set(KEYS) - {"extend"}


@pytest.mark.parametrize("seed", range(3))
def test_fuzzed_configurations_through_the_command_line(project: Path, seed: int) -> None:
    from tests.cli_helpers import BUGGY, lint, write

    rng = random.Random(1000 + seed)
    write(project / "model.py", BUGGY)
    for index in range(10):
        _write_config(project, rng)
        result = lint("--jobs", "1", "model.py")
        assert result.exit_code in (0, 1, 2), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{result.exception!r}\n{(project / 'pyproject.toml').read_text()}")
        assert "Traceback" not in result.output
