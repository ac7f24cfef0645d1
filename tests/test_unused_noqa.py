"""SC900, unused `# noqa` directives (ruff's RUF100), through the command line: off by default, each kind of
unneeded code, other tools' codes left alone, `external`, and its safe fix under --fix only."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_helpers import BUGGY, lint, reported, write

CHECK = ("--extend-select", "SC900", "--output-format", "concise")


def messages(result) -> list[str]:
    return [line.split(": ", 1)[1] for line in result.stdout.splitlines() if ": SC900 " in line]


def test_off_by_default(project: Path) -> None:
    write(project / "m.py", "import torch\nx = torch.ones(3)  # noqa: SC101\n")
    assert lint("m.py").exit_code == 0
    assert reported(lint(*CHECK, "m.py")) == ["m.py:2:20: SC900"]


def test_a_directive_that_silences_a_finding_is_used(project: Path) -> None:
    write(project / "m.py", BUGGY.replace(".log()\n", ".log()  # noqa: SC301\n"))
    assert lint(*CHECK, "m.py").exit_code == 0


def test_each_kind_of_unneeded_code_is_named(project: Path) -> None:
    write(project / "m.py", BUGGY.replace(".log()\n", ".log()  # noqa: SC301, SC101, SC501, SC301, SC777, E501\n"))
    assert messages(lint(*CHECK, "m.py")) == [
        "SC900 [*] Unused `noqa` directive (unused: `SC101`; non-enabled: `SC501`; duplicated: `SC301`; "
        "unknown: `SC777`)"]


def test_other_tools_codes_a_bare_noqa_and_strings_are_left_alone(project: Path) -> None:
    write(project / "m.py", 'import torch\nimport os  # noqa: F401\nx = 1  # noqa\ns = "# noqa: SC101"\n'
                            "y = 2  # NOQA:E501\n")
    assert lint(*CHECK, "m.py").exit_code == 0


def test_external_codes_are_left_alone(project: Path) -> None:
    write(project / "m.py", "import torch\nx = 1  # noqa: SC100\n")
    assert messages(lint(*CHECK, "m.py")) == ["SC900 [*] Unused `noqa` directive (unknown: `SC100`)"]
    write(project / "pyproject.toml", '[tool.shapecheck]\nexternal = ["SC100", "SC200"]\n')
    assert lint(*CHECK, "m.py").exit_code == 0


def test_a_per_file_ignored_code_is_not_enabled_there(project: Path) -> None:
    write(project / "tests" / "t.py", BUGGY.replace(".log()\n", ".log()  # noqa: SC301\n"))
    write(project / "pyproject.toml", '[tool.shapecheck]\nper-file-ignores = { "tests/*" = ["SC3"] }\n')
    assert messages(lint(*CHECK, "tests")) == ["SC900 [*] Unused `noqa` directive (non-enabled: `SC301`)"]


def test_a_file_without_torch_is_checked_too(project: Path) -> None:
    write(project / "util.py", "import os\nx = os.sep  # noqa: SC101\n")
    assert reported(lint(*CHECK, "util.py")) == ["util.py:2:13: SC900"]


def test_the_fix_is_written_only_with_fix(project: Path) -> None:
    source = BUGGY.replace(".log()\n", ".log()  # noqa: SC301, SC101 reason\n") + "z = 1  # noqa: SC101\n"
    path = write(project / "m.py", source)
    [record] = json.loads(lint("--extend-select", "SC900", "--output-format", "json", "--select", "SC9", "m.py").stdout
                          )[:1]
    assert record["fix"]["applicability"] == "safe"
    assert lint(*CHECK, "m.py").exit_code == 1 and path.read_text() == source
    result = lint(*CHECK, "--fix", "m.py")
    assert result.exit_code == 0, result.output
    assert path.read_text() == BUGGY.replace(".log()\n", ".log()  # noqa: SC301 reason\n") + "z = 1\n"
    assert lint(*CHECK, "m.py").exit_code == 0  # nothing left to report


def test_unfixable_keeps_the_directive(project: Path) -> None:
    path = write(project / "m.py", "import torch\nx = 1  # noqa: SC101\n")
    assert lint(*CHECK, "--fix", "--unfixable", "SC900", "m.py").exit_code == 1
    assert path.read_text() == "import torch\nx = 1  # noqa: SC101\n"


def test_add_noqa_does_not_silence_an_unused_directive(project: Path) -> None:
    path = write(project / "m.py", "import torch\nx = 1  # noqa: SC101\n")
    assert lint("--extend-select", "SC900", "--add-noqa", "m.py").exit_code == 0
    assert path.read_text() == "import torch\nx = 1  # noqa: SC101\n"
