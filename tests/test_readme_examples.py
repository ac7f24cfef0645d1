"""Every example in README.md runs as printed. The fenced blocks are found in the file, not listed here, so a
section added tomorrow is tested tomorrow. What each kind of block must do:

- ```console: each `$ shapecheck ...` line is run and what it prints (standard output and error together) must be
  the lines below it, exactly; a line that is only `...` stands for any number of lines. Commands other than
  `shapecheck` are refused: mark such a block `skip`. A command runs in the repository root, or, when it names a
  file that a `file:` block provides, in a folder holding those files.
- ```python: run in a fresh interpreter, in a folder holding the `file:` blocks; it must not raise.
- ```pycon: a doctest, run in the namespace the python block above it left.
- ```toml, ```yaml, ```json: must parse.
- editor configurations (```lua, ```js, ```vim, ```elisp): not run here; they run inside an editor.
- anything else (```bash, ```diff, a block with no language) must be marked `skip`, with the reason.

A mark is an HTML comment on the line above the opening fence (GitHub does not show it):

    <!-- example: skip: installs from the package index -->
    <!-- example: file: attention.py -->   (the block is that file, for the commands that name it)
    <!-- example: cuda -->                 (runs only where CUDA is available)
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

RUN = {"console", "python", "pycon"}
PARSE = {"toml", "yaml", "yml", "json"}
EDITOR = {"lua", "js", "javascript", "vim", "elisp", "emacs-lisp", "lisp"}
MARK = re.compile(r"<!--\s*example:\s*(?P<kind>[\w-]+)\s*(?::\s*(?P<value>.*?))?\s*-->")
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<language>[\w+-]*)")


@dataclass(frozen=True)
class Block:
    line: int  # of the opening fence, counted from 1
    language: str
    text: str
    mark: str | None = None  # skip, file or cuda
    value: str = ""  # the reason to skip, the file's path

    def __str__(self) -> str:
        return f"README.md:{self.line}-{self.language or 'text'}"


def read_blocks(text: str) -> list[Block]:
    lines = text.splitlines()
    found, index = [], 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, indent = opening["fence"], len(opening["indent"])
        end = next((row for row in range(index + 1, len(lines))
                    if lines[row].strip().startswith(fence[0] * len(fence)) and not lines[row].strip().strip(fence[0])),
                   len(lines))
        body = "".join(line[indent:] + "\n" if line[:indent].isspace() else line + "\n"
                       for line in lines[index + 1:end])
        above = next((line for line in reversed(lines[:index]) if line.strip()), "")
        mark = MARK.fullmatch(above.strip())
        found.append(Block(index + 1, opening["language"].lower(), body, mark and mark["kind"],
                           (mark and mark["value"]) or ""))
        index = end + 1
    return found


BLOCKS = read_blocks(README.read_text(encoding="utf-8"))
FILES = {block.value: block.text for block in BLOCKS if block.mark == "file"}


def cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def example_folder(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    for name in ("SHAPECHECK_DISABLE", "PYTEST_ADDOPTS", "FORCE_COLOR"):
        env.pop(name, None)
    return env


# ---------------------------------------------------------------------------------------------------- marks


def test_every_block_is_run_parsed_or_skipped_for_a_stated_reason() -> None:
    assert BLOCKS, "no fenced blocks found in README.md"
    for block in BLOCKS:
        assert block.mark in (None, "skip", "file", "cuda"), f"{block}: unknown mark {block.mark!r}"
        if block.mark == "skip":
            assert block.value, f"{block}: say why it is skipped: <!-- example: skip: REASON -->"
        elif block.mark == "file":
            assert block.value and not Path(block.value).is_absolute() and ".." not in Path(block.value).parts
        else:
            assert block.language in RUN | PARSE | EDITOR, (
                f"{block}: a ```{block.language} block cannot be run here: make it a console, python or pycon "
                "example, or put <!-- example: skip: REASON --> on the line above it")


def test_the_blocks_are_found_as_markdown_reads_them() -> None:
    blocks = read_blocks('text\n\n<!-- example: skip: why -->\n```bash\nls\n```\n\n````markdown\n```python\n'
                         'x\n```\n````\n  ```python\n  y = 1\n  ```\n')
    assert [(b.line, b.language, b.text, b.mark, b.value) for b in blocks] == [
        (4, "bash", "ls\n", "skip", "why"),
        (8, "markdown", "```python\nx\n```\n", None, ""),
        (13, "python", "y = 1\n", None, ""),
    ]


# ------------------------------------------------------------------------------------------------- console


def console_cases() -> list[tuple[Block, str, list[str]]]:
    cases = []
    for block in BLOCKS:
        if block.language != "console" or block.mark in ("skip", "file"):
            continue
        command, expected = None, []
        for line in block.text.splitlines() + ["$ "]:
            if line.startswith("$ ") or line == "$":
                if command:
                    cases.append((block, command, expected))
                command, expected = line[2:].strip(), []
            elif command is not None:
                expected.append(line)
            else:
                raise AssertionError(f"{block}: output before the first `$ ` command")
    return cases


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line for line, where an expected `...` line stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[start:]) for start in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


def trimmed(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@pytest.mark.parametrize(("block", "command", "expected"), console_cases(),
                         ids=[f"{block}: {command}" for block, command, _ in console_cases()])
def test_console_example_prints_what_the_readme_shows(block: Block, command: str, expected: list[str],
                                                      tmp_path: Path) -> None:
    words = shlex.split(command)
    assert words[0] == "shapecheck", f"{block}: only shapecheck commands run; mark the block skip for `{command}`"
    if block.mark == "cuda" and not cuda_available():
        pytest.skip("needs a CUDA GPU")
    cwd = example_folder(tmp_path) if set(words) & set(FILES) else ROOT
    done = subprocess.run([sys.executable, "-m", "shapecheck", *words[1:]], cwd=cwd, env=environment(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    actual = trimmed(done.stdout.splitlines())
    if not matches(trimmed(expected), actual):
        diff = "\n".join(difflib.unified_diff(trimmed(expected), actual, "README.md", "printed", lineterm=""))
        pytest.fail(f"{block}: `{command}` printed something else than README.md shows:\n{diff}")


def test_an_ellipsis_line_stands_for_any_lines() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["a", "...", "b"], ["a", "b"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"]) and not matches(["a"], ["a", "b"])


# ------------------------------------------------------------------------------------------- python, pycon

RUNNER = """
import doctest, json, sys, types

job = json.load(sys.stdin)
main = types.ModuleType("__main__")  # the example's own module, as if it were a script
main.__file__ = "README.md"
sys.modules["__main__"] = main
# Padded with newlines so that a traceback names the example's line in README.md.
exec(compile("\\n" * job["line"] + job["source"], "README.md", "exec"), main.__dict__)
failures = 0
for line, text in job["pycon"]:
    test = doctest.DocTestParser().get_doctest(text, main.__dict__, f"README.md:{line}", "README.md", line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=sys.stdout.write, clear_globs=False)
    failures += runner.failures
sys.exit(1 if failures else 0)
"""


def python_cases() -> list[tuple[Block | None, list[Block]]]:
    """Each python block with the pycon blocks that continue it (a CUDA-only pycon block on its own, after a rerun
    of its python block); pycon blocks before any python block start from nothing."""
    cases, current, pycons = [], None, []
    for block in [block for block in BLOCKS if block.mark not in ("skip", "file")]:
        if block.language == "python":
            if current is not None or pycons:
                cases.append((current, pycons))
            current, pycons = block, []
        elif block.language == "pycon":
            if block.mark == "cuda":
                cases.append((current, [block]))
            else:
                pycons.append(block)
    if current is not None or pycons:
        cases.append((current, pycons))
    return cases


def case_id(case: tuple[Block | None, list[Block]]) -> str:
    python, pycons = case
    return " + ".join(str(block) for block in ([python] if python else []) + pycons)


@pytest.mark.parametrize("case", python_cases(), ids=[case_id(case) for case in python_cases()])
def test_python_example_runs(case: tuple[Block | None, list[Block]], tmp_path: Path) -> None:
    python, pycons = case
    if any(block.mark == "cuda" for block in [*pycons, *([python] if python else [])]) and not cuda_available():
        pytest.skip("needs a CUDA GPU")
    job = {"line": python.line if python else 0, "source": python.text if python else "",
           "pycon": [(block.line, block.text) for block in pycons]}
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(job), cwd=example_folder(tmp_path),
                          env=environment(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{case_id(case)} failed:\n{done.stdout}\n{done.stderr}"


# ------------------------------------------------------------------------------------------- configuration


@pytest.mark.parametrize("block", [block for block in BLOCKS if block.language in PARSE and block.mark != "skip"],
                         ids=str)
def test_configuration_example_parses(block: Block) -> None:
    if block.language == "toml":
        tomllib.loads(block.text)
    elif block.language == "json":
        json.loads(block.text)
    else:
        import yaml  # pre-commit's dependency, so always there with the test extra

        yaml.safe_load(block.text)
