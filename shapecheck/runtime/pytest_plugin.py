"""pytest plugin: `pytest --shapecheck=mypkg,otherpkg` runs the test suite with those packages checked, and
`pytest --shapecheck-record=mypkg` records the shapes their functions see, for `shapecheck annotate`.

pytest loads this module in every run (entry point `pytest11`), so it imports neither torch nor jaxtyping;
they load only once an instrumented module is imported.

A named package that no test imported was never checked: a misspelt name would otherwise pass silently (as it
does with jaxtyping's hook), so the end of the session says so. Under pytest-xdist the tests import in the
workers, which report what they imported to the controller.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

_hook: Any = None  # the installed ImportHook, for the report header and unconfigure
_recorder: Any = None  # the running shapecheck.record Recorder, saved at unconfigure
_WORKER_KEY = "shapecheck_imported"
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
    packages = packages_from(early_config.known_args_namespace.shapecheck)
    if not packages:
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


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)  # set on xdist workers only
    if _hook is not None and workeroutput is not None:
        workeroutput[_WORKER_KEY] = _imported(_hook.packages)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    _imported_by_workers.update(getattr(node, "workeroutput", {}).get(_WORKER_KEY, ()))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _hook is None or hasattr(config, "workerinput"):
        return
    imported = {*_imported(_hook.packages), *_imported_by_workers}
    never = [package for package in _hook.packages if package not in imported]
    if never:
        terminalreporter.write_sep("=", "shapecheck warning", yellow=True)
        terminalreporter.write_line(
            f"shapecheck: --shapecheck named {', '.join(never)}, but no test imported "
            f"{'it' if len(never) == 1 else 'them'}: nothing there was checked (misspelt, or not importable from "
            "the tests?)", yellow=True)
