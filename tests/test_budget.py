"""The per-file budget: a file that takes too long, needs too much memory or kills its worker costs only itself;
every other file of the run, its worker's batch included, is still linted."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import libcst as cst
import pytest

from shapecheck import runner
from shapecheck.engine import Rule, registry
from shapecheck.runner import Budget, Task, _death, run, with_large_stack
from tests.helpers import add_rule
from tests.cli_helpers import BUGGY, lint, reported, write


class Misbehaving(Rule):
    """On `spin()` it computes forever, on `stall()` it waits, on `hog()` it holds memory, on `abort()` it aborts its
    process like a native crash."""

    code = "SC992"
    name = "misbehaving-rule"
    message = "never reported"
    docs = ""

    def visit_Call(self, node: cst.Call) -> None:
        name = node.func.value if isinstance(node.func, cst.Name) else ""
        if name == "spin":
            while True:
                pass
        elif name == "stall":
            time.sleep(60)
        elif name == "hog":
            held = [bytearray(2**20) for _ in range(1200)]  # touched pages: resident
            time.sleep(60)
            del held
        elif name == "abort":
            os.abort()


RULES = (*registry.resolve(None), Misbehaving)


def batch(project: Path, bad: str) -> list[Task]:
    """Eight files, the fourth calling `bad()`: with one worker, one batch."""
    return [Task(str(write(project / f"m{i}.py", BUGGY + (f"{bad}()\n" if i == 3 else ""))), RULES) for i in range(8)]


def assert_only_the_fourth_lost(outcomes, reason: str) -> None:
    assert [Path(o.result.filename).name for o in outcomes] == [f"m{i}.py" for i in range(8)]
    assert reason in outcomes[3].result.error
    for outcome in outcomes[:3] + outcomes[4:]:
        assert outcome.result.error is None
        assert [finding.code for finding in outcome.result.findings] == ["SC301"]


def test_a_file_over_the_time_budget(project: Path) -> None:
    # On a machine too busy to give it 1 s of CPU within 10 s, the clock stops it first.
    outcomes = run(batch(project, "spin"), jobs=1, budget=Budget(seconds=1))
    assert_only_the_fourth_lost(outcomes, "not linted: took longer than ")


@pytest.mark.skipif(not hasattr(signal, "SIGXCPU"), reason="no CPU time limit on this system")
def test_the_kernels_cpu_limit_is_the_time_budget() -> None:
    assert _death(-signal.SIGXCPU, Budget(seconds=1.5)) == "not linted: took longer than 1.5 s"


def test_a_file_stalled_without_using_cpu(project: Path) -> None:
    # A limit the other files stay far under by the clock, even on a loaded machine.
    outcomes = run(batch(project, "stall"), jobs=1, budget=Budget(seconds=1))
    assert_only_the_fourth_lost(outcomes, "not linted: took longer than 10 s by the clock")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="memory is sampled where /proc says it")
def test_a_file_over_the_memory_budget(project: Path) -> None:
    # The worker is forked from the test process and counts as resident the pages it shares with it, which grow with
    # the tests that ran before (over 300 MiB late in a full run): the budget leaves room for them, the hog exceeds it.
    outcomes = run(batch(project, "hog"), jobs=1, budget=Budget(seconds=30, memory_mib=800))
    assert_only_the_fourth_lost(outcomes, "not linted: needed more than 800 MiB of memory")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_worker_that_aborts_loses_only_its_file(project: Path, jobs: int) -> None:
    outcomes = run(batch(project, "abort"), jobs=jobs)
    assert_only_the_fourth_lost(outcomes, "the worker process linting it was killed by SIGABRT")


def test_the_cli_option_and_the_config_key(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_rule(monkeypatch, Misbehaving)
    write(project / "other.py", BUGGY)
    write(project / "slow.py", BUGGY + "spin()\n")
    result = lint("--output-format", "concise", "--extend-select", "SC992", "--file-time-limit", "1")
    assert result.exit_code == 2
    assert "shapecheck: error: slow.py: not linted: took longer than " in result.stderr
    assert reported(result) == ["other.py:2:5: SC301"]
    write(project / "pyproject.toml", "[tool.shapecheck]\nextend-select = ['SC992']\nfile-time-limit = 1\n")
    assert "slow.py: not linted: took longer than " in lint().stderr
    write(project / "pyproject.toml", "[tool.shapecheck]\nfile-memory-limit = 1.5\n")
    result = lint()
    assert result.exit_code == 2
    assert "file-memory-limit: expected a whole number of MiB from 0 (no limit)" in result.stderr


def test_standard_input_has_the_same_budget(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_rule(monkeypatch, Misbehaving)
    result = lint("-", "--extend-select", "SC992", "--file-time-limit", "1", stdin=BUGGY + "spin()\n")
    assert result.exit_code == 2
    assert "shapecheck: error: -: not linted: took longer than " in result.stderr


@pytest.mark.parametrize(("bad", "seconds"), [("spin", 1.0), ("stall", 0.2)])
def test_one_small_file_is_linted_in_this_process_within_its_budget(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     bad: str, seconds: float) -> None:
    """No worker process for one small file (it costs more than the lint); a watchdog keeps its time budget, and
    the next file is linted as usual."""
    def no_workers(*args: object) -> None:
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(runner, "_Pool", no_workers)
    slow = write(project / "slow.py", BUGGY + f"{bad}()\n")
    [outcome] = run([Task(str(slow), RULES)], budget=Budget(seconds=seconds))
    assert outcome.result.error == f"not linted: took longer than {seconds:g} s"
    [outcome] = run([Task(str(write(project / "next.py", BUGGY)), RULES)], budget=Budget(seconds=30))
    assert (outcome.result.error, [finding.code for finding in outcome.result.findings]) == (None, ["SC301"])


def test_a_larger_file_or_several_go_to_worker_processes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started = []
    monkeypatch.setattr(runner, "_Pool", _counting(started))
    large = write(project / "large.py", BUGGY + "x = 1\n" * (runner.IN_PROCESS_BYTES // 6))
    run([Task(str(large), RULES)])
    run([Task(str(write(project / f"m{i}.py", BUGGY)), RULES) for i in range(2)])
    assert started == [1, 2]


def _counting(started: list[int]) -> type:
    class Counting(runner._Pool):
        def __init__(self, tasks, *args) -> None:
            started.append(len(tasks))
            super().__init__(tasks, *args)

    return Counting


def test_files_are_linted_on_one_large_stack_thread_per_process() -> None:
    # starting a thread with a 256 MiB stack takes milliseconds: once per process, not once per file or keystroke
    threads = {with_large_stack(threading.get_ident) for _ in range(3)}
    assert len(threads) == 1 and threading.get_ident() not in threads
    assert with_large_stack(lambda: with_large_stack(threading.get_ident)) in threads  # nested calls run in place
    with pytest.raises(ZeroDivisionError):
        with_large_stack(lambda: 1 / 0)
    assert with_large_stack(sum, [1, 2]) == 3  # and it survives an error
