"""The bug corpus in bench/bugs/: realistic buggy programs and their fixed look-alikes, read from disk.

Shared by `bench/verify_bugs.py` (runs each case in torch), `bench/recall.py` (lints each case) and
`tests/test_bug_corpus.py` (checks that the corpus is well formed). Reads files only: no torch, no shapecheck.

A case is a folder `bench/bugs/<set>/<name>/` with a `case.toml` and either `buggy.py` and `fixed.py` (one file)
or `buggy/` and `fixed/` (a small project: `model.py`, `train.py`, ...). `bench/bugs/README.md` explains the keys.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the project's own dependency on 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent / "bugs"
SETS = ("dev", "heldout")
VERSIONS = ("buggy", "fixed")
REQUIRED = ("rule", "kind", "file", "line", "source", "error")
CHECKS = ("raises", "warns", "symptom", "typecheck", "runs")
EXPECTS = ("report", "silent")
VERIFIED = ("torch", "static")
# What bench/bug_probes.py can observe in a run; `check = "symptom"` names one of them.
SYMPTOMS = (
    "broadcast-blowup",
    "nonfinite",
    "nan",
    "probabilities-into-logits-loss",
    "stale-grad",
    "step-without-grad",
    "grads-discarded",
    "eval-forward-with-grad",
    "eval-backward",
    "train-mode-inference",
    "graphs-kept-alive",
    "forward-bypasses-hooks",
    "unregistered-submodule",
    "same-shuffle-every-epoch",
    "clip-scaled-grads",
)
# A second batch written on the same day is told apart by a round number: "2026-11-29.2".
BATCH = re.compile(r"^\d{4}-\d{2}-\d{2}(\.\d+)?$")
RULE = re.compile(r"^(SC\d{3}|new:[a-z0-9]+(?:-[a-z0-9]+)*)$")
KNOWN_KEYS = set(REQUIRED) | {"expect", "check", "symptom", "verified", "reason", "entry", "also", "batch"}


@dataclass(frozen=True)
class Case:
    """One case: where it lives and what its case.toml says."""

    name: str
    set: str
    path: Path
    meta: dict

    @property
    def rule(self) -> str:
        return self.meta["rule"]

    @property
    def kind(self) -> str:
        return self.meta["kind"]

    @property
    def line(self) -> int:
        return self.meta["line"]

    @property
    def expect(self) -> str:
        return self.meta.get("expect", "report")

    @property
    def check(self) -> str:
        return self.meta.get("check", "runs" if self.expect == "silent" else "raises")

    @property
    def batch(self) -> str | None:
        """The date the case was written in a batch (`batch = "2026-11-29"`), None for cases written before."""
        return self.meta.get("batch")

    @property
    def verified(self) -> str:
        return self.meta.get("verified", "torch")

    @property
    def also(self) -> list[tuple[str, int]]:
        """Other lines on the failure's path, as (file in the version folder, line): a report there counts too."""
        return [(entry.rpartition(":")[0], int(entry.rpartition(":")[2])) for entry in self.meta.get("also", [])]

    @property
    def multi_file(self) -> bool:
        return (self.path / "buggy").is_dir()

    @property
    def label(self) -> str:
        return f"{self.set}/{self.name}"

    def version_dir(self, version: str) -> Path:
        """The folder a version's files are in (the case folder itself for a one-file case)."""
        return self.path / version if self.multi_file else self.path

    def files(self, version: str) -> list[Path]:
        """The Python files of one version, absolute."""
        if self.multi_file:
            return sorted((self.path / version).rglob("*.py"))
        return [self.path / f"{version}.py"]

    def marked_file(self, version: str) -> Path:
        """The file holding the marked line, in one version (`buggy.py` becomes `fixed.py` for a one-file case)."""
        if self.multi_file:
            return self.path / version / self.meta["file"]
        return self.path / f"{version}.py"

    def entry(self, version: str) -> Path:
        """The program verify_bugs.py runs for one version."""
        if self.multi_file:
            return self.path / version / self.meta.get("entry", "train.py")
        return self.path / f"{version}.py"


def load(path: Path, set_name: str) -> Case:
    with open(path / "case.toml", "rb") as handle:
        meta = tomllib.load(handle)
    return Case(name=path.name, set=set_name, path=path, meta=meta)


def case_dirs(set_name: str) -> list[Path]:
    folder = ROOT / set_name
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def load_cases(which: str = "all") -> list[Case]:
    """The cases of one set (`dev`, `heldout`) or of both (`all`), in a stable order."""
    sets = SETS if which == "all" else (which,)
    return [load(path, name) for name in sets for path in case_dirs(name)]


def problems(case: Case) -> list[str]:
    """Why a case is malformed (an empty list when it is well formed)."""
    meta, found = case.meta, []
    missing = [key for key in REQUIRED if key not in meta]
    if missing:
        return [f"case.toml lacks {', '.join(missing)}"]
    unknown = sorted(set(meta) - KNOWN_KEYS)
    if unknown:
        found.append(f"case.toml has unknown keys {', '.join(unknown)}")
    if not RULE.match(str(meta["rule"])):
        found.append(f"rule {meta['rule']!r} is neither a code (SC105) nor new:<kebab-name>")
    for key, allowed in (("expect", EXPECTS), ("check", CHECKS), ("verified", VERIFIED)):
        if key in meta and meta[key] not in allowed:
            found.append(f"{key} = {meta[key]!r}, not one of {', '.join(allowed)}")
    if case.check == "symptom" and meta.get("symptom") not in SYMPTOMS:
        found.append(f"check = 'symptom' needs symptom = one of {', '.join(SYMPTOMS)}")
    if "batch" in meta and not BATCH.match(str(meta["batch"])):
        found.append(f"batch = {meta['batch']!r} is not a date (YYYY-MM-DD, or YYYY-MM-DD.N for a later batch of that day)")
    if case.verified == "static" and not meta.get("reason"):
        found.append("verified = 'static' needs a reason")
    if case.expect == "silent" and case.check != "runs":
        found.append("a silent case (a look-alike on both versions) is verified with check = 'runs'")
    if not str(meta["source"]).strip() or not str(meta["kind"]).strip():
        found.append("source and kind must not be empty")
    single = (case.path / "buggy.py").is_file() and (case.path / "fixed.py").is_file()
    multi = (case.path / "buggy").is_dir() and (case.path / "fixed").is_dir()
    if single == multi:
        return found + ["needs buggy.py and fixed.py, or buggy/ and fixed/ folders (not both, not neither)"]
    if single and meta["file"] != "buggy.py":
        found.append("a one-file case marks file = 'buggy.py'")
    if multi:
        names = {v: sorted(str(f.relative_to(case.path / v)) for f in case.files(v)) for v in VERSIONS}
        if names["buggy"] != names["fixed"]:
            found.append(f"buggy/ and fixed/ hold different files: {names['buggy']} vs {names['fixed']}")
    for version in VERSIONS:
        if not case.files(version):
            found.append(f"{version}/ holds no Python file")
        if not case.entry(version).is_file():
            found.append(f"{version}: no program {case.entry(version).name} to run")
    marked = case.marked_file("buggy")
    if not marked.is_file():
        return found + [f"the marked file {meta['file']} is not in the buggy version"]
    lines = marked.read_text().splitlines()
    line = meta["line"]
    if not isinstance(line, int) or not 1 <= line <= len(lines) or not lines[line - 1].strip():
        found.append(f"line {line} is not a line of code in {marked.name} ({len(lines)} lines)")
    elif lines[line - 1].lstrip().startswith("#"):
        found.append(f"line {line} of {marked.name} is a comment")
    for entry in meta.get("also", []):
        file, _, row = str(entry).rpartition(":")
        path = case.version_dir("buggy") / file
        if not row.isdigit() or not path.is_file() or not 1 <= int(row) <= len(path.read_text().splitlines()):
            found.append(f"also entry {entry!r} is not file:line of the buggy version")
    if case.expect == "report" and all(
        a.read_text() == b.read_text() for a, b in zip(case.files("buggy"), case.files("fixed"))
    ):
        found.append("the buggy and fixed versions are the same")
    return found
