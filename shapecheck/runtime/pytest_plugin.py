"""pytest plugin: `pytest --shapecheck=mypkg,otherpkg` runs the test suite with those packages checked, and
`pytest --shapecheck-record=mypkg` records the shapes their functions see, for `shapecheck annotate`.

pytest loads this module in every run (entry point `pytest11`), so it imports neither torch nor jaxtyping;
they load only once an instrumented module is imported.

A named package that cannot be imported (a misspelt name) is a usage error, as pytest treats a bad option, found
once the tests are collected (collecting them is what puts a project's folders on sys.path) and before any test
runs; it would otherwise pass unchecked, as it does with jaxtyping's hook. A package that exists but that no test
imported (a run of some of the tests) was not checked either: the end of the session says so. Under pytest-xdist
the tests import in the workers, which report to the controller.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Generator
from typing import Any

import pytest

_hook: Any = None  # the installed ImportHook, for the report header and unconfigure
_recorder: Any = None  # the running shapecheck.record Recorder, saved at unconfigure
_WORKER_KEY = "shapecheck_imported"
_MISSING_KEY = "shapecheck_missing"
_imported_by_workers: set[str] = set()  # on an xdist controller: packages its workers imported


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("shapecheck").addoption(
        "--shapecheck", action="append", default=[], metavar="PACKAGES",
        help="check tensor shapes, dtypes and devices of every annotated function and class in these packages "
             "(comma-separated, and the option may be repeated)")
    parser.getgroup("shapecheck").addoption(
        "--shapecheck-record", action="append", default=[], metavar="PACKAGES",
        help="record the shape, dtype and device of every tensor passed to or returned by the functions of these "
             "packages (up to 20 distinct shape signatures each), for `shapecheck annotate`")
    parser.getgroup("shapecheck").addoption(
        "--shapecheck-record-file", default=None, metavar="PATH",
        help="where --shapecheck-record writes (merged into): default .shapecheck/record.json")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    # Before any conftest.py runs: a conftest that imports the package would otherwise import it unchecked.
    global _hook, _recorder
    recorded = packages_from(early_config.known_args_namespace.shapecheck_record)
    if recorded:
        from shapecheck.record.recorder import Recorder

        _recorder = Recorder(packages=recorded).start()
    named = early_config.known_args_namespace.shapecheck
    packages = packages_from(named)
    if not packages:
        if named:  # `--shapecheck=$PACKAGES` with the variable empty: checking nothing is not what was asked
            raise pytest.UsageError("--shapecheck: no package name given")
        return
    from shapecheck.runtime.import_hook import already_imported, install_import_hook

    early = already_imported(packages)
    if early:
        raise pytest.UsageError(f"--shapecheck: {', '.join(early)} imported before shapecheck could instrument "
                                "it (by another plugin?), so it cannot be checked")
    _hook = install_import_hook(packages)


def packages_from(values: list[str]) -> list[str]:
    """`["a,b", "c"]` (repeated, comma-separated options) -> `["a", "b", "c"]`, in order, without repeats."""
    from shapecheck.runtime.import_hook import is_module_name

    packages = [name.strip() for value in values for name in value.split(",") if name.strip()]
    for name in packages:
        if not is_module_name(name):
            raise pytest.UsageError(f"--shapecheck: {name!r} is not a package name")
    return list(dict.fromkeys(packages))


@pytest.hookimpl(hookwrapper=True)  # the old style: pytest loads this plugin whatever its version
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Generator[None, Any, None]:
    # A failed check's traceback should end at the caller's line, as a plain function's does: shapecheck's own
    # frames hide themselves (`__tracebackhide__`), and on the way into a checked `forward` so do torch's
    # `Module.__call__` frames, whose arguments would print the input tensors' values. --fulltrace keeps all.
    excinfo = call.excinfo
    module = sys.modules.get("torch.nn.modules.module")
    if excinfo is not None and module is not None and not item.config.getoption("fulltrace", False):
        from shapecheck.runtime.errors import CheckError  # imports neither torch nor jaxtyping

        if isinstance(excinfo.value, CheckError):
            # pytest re-reads the raw traceback chain when it cuts it at the test, so the chain itself is rebuilt.
            call.excinfo = pytest.ExceptionInfo.from_exc_info(
                (excinfo.type, excinfo.value, _without_module_calls(excinfo.tb, module.__file__)))
    yield


def _without_module_calls(tb: types.TracebackType | None, module_file: str | None) -> types.TracebackType | None:
    kept = []
    while tb is not None:
        code = tb.tb_frame.f_code
        if not (code.co_name in ("_call_impl", "_wrapped_call_impl") and code.co_filename == module_file):
            kept.append(tb)
        tb = tb.tb_next
    rebuilt = None
    for entry in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return rebuilt


def pytest_report_header(config: pytest.Config) -> str | None:
    if _hook is None:
        return None
    from shapecheck.runtime.switch import DISABLED_BY_ENV

    state = "off (SHAPECHECK_DISABLE is set)" if DISABLED_BY_ENV else "checking"
    return f"shapecheck: {state} {', '.join(_hook.packages)}"


def pytest_unconfigure(config: pytest.Config) -> None:
    global _hook, _recorder
    if _recorder is not None:
        from shapecheck.record.store import DEFAULT_PATH

        _recorder.stop()
        path = config.getoption("shapecheck_record_file") or DEFAULT_PATH
        _recorder.save(path if os.path.isabs(path) else os.path.join(config.invocation_params.dir, path))
        _recorder = None
    if _hook is not None:
        _hook.uninstall()
        _hook = None
    _imported_by_workers.clear()


def _imported(packages: list[str]) -> list[str]:
    from shapecheck.runtime.import_hook import already_imported

    return [package for package in packages if already_imported([package])]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    if _hook is None:
        return
    from shapecheck.runtime.import_hook import findable

    missing = [package for package in _hook.packages if not _imported([package]) and not findable(package)]
    if not missing:
        return
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is None:
        raise pytest.UsageError(no_such_package(missing))
    # An xdist worker that raises takes the run down as an internal error: it runs nothing (before xdist sends
    # what it collected, so every worker agrees) and the controller raises the usage error when it hears back.
    session.items[:] = []
    workeroutput[_MISSING_KEY] = missing


def no_such_package(missing: list[str]) -> str:
    names = ", ".join(repr(name) for name in missing)
    return (f"--shapecheck: no module named {names} can be imported where the tests run (misspelt, or not on "
            "sys.path?)")


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)  # set on xdist workers only
    if _hook is not None and workeroutput is not None:
        workeroutput[_WORKER_KEY] = _imported(_hook.packages)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    workeroutput = getattr(node, "workeroutput", {})
    if workeroutput.get(_MISSING_KEY):
        raise pytest.UsageError(no_such_package(workeroutput[_MISSING_KEY]))
    _imported_by_workers.update(workeroutput.get(_WORKER_KEY, ()))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _hook is None or hasattr(config, "workerinput"):
        return
    imported = {*_imported(_hook.packages), *_imported_by_workers}
    never = [package for package in _hook.packages if package not in imported]
    if never:
        terminalreporter.write_sep("=", "shapecheck warning", yellow=True)
        terminalreporter.write_line(
            f"shapecheck: --shapecheck named {', '.join(never)}, but no test imported "
            f"{'it' if len(never) == 1 else 'them'}: nothing there was checked", yellow=True)
