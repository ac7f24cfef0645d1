"""The bug corpus in bench/bugs/ is well formed: every case has a buggy and a fixed version, a case.toml with the
keys bench/verify_bugs.py and bench/recall.py read, and a marked line that is code in the buggy file; dev and
held-out cases are different programs.

Reads files only: running the cases in torch is bench/verify_bugs.py's job, and recall is a bench figure
(bench/recall.py), not something a test asserts.
"""

from __future__ import annotations

import importlib.util
import io
import keyword
import sys
import tokenize
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_corpus_module():
    spec = importlib.util.spec_from_file_location("bug_corpus", BENCH / "bug_corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bug_corpus", module)
    spec.loader.exec_module(module)
    return module


corpus = load_corpus_module()
CASES = corpus.load_cases("all")
SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_case_is_well_formed(case) -> None:
    assert corpus.problems(case) == []


def test_every_folder_is_a_case() -> None:
    for name in corpus.SETS:
        for folder in corpus.case_dirs(name):
            assert (folder / "case.toml").is_file(), f"{folder} has no case.toml"
    stray = [p for p in corpus.ROOT.iterdir() if p.is_dir() and p.name not in corpus.SETS]
    assert stray == [], "bench/bugs/ holds only the dev/ and heldout/ sets"


def test_sets_are_disjoint() -> None:
    dev = {c.name for c in CASES if c.set == "dev"}
    heldout = {c.name for c in CASES if c.set == "heldout"}
    assert dev and heldout
    assert dev.isdisjoint(heldout)


def shingles(case, n: int = 6) -> set[tuple[str, ...]]:
    """Runs of n tokens of the buggy version, with its own names, numbers and strings blanked (attribute names such
    as `.view` or `nn.Linear` kept): a renamed copy of another case has the same runs."""
    runs: set[tuple[str, ...]] = set()
    for path in case.files("buggy"):
        words, previous = [], None
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if tok.type in SKIPPED:
                continue
            word = tok.string
            if tok.type == tokenize.NAME and not keyword.iskeyword(word) and previous != ".":
                word = "NAME"
            elif tok.type in (tokenize.NUMBER, tokenize.STRING):
                word = tokenize.tok_name[tok.type]
            words.append(word)
            previous = tok.string
        runs |= {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}
    return runs


def test_heldout_cases_are_not_copies_of_dev_cases() -> None:
    """A held-out case is another program of the same kind, not a renamed dev case. Distinct programs share well
    under a third of their token runs; a renamed copy shares nearly all of them."""
    dev = [(c, shingles(c)) for c in CASES if c.set == "dev"]
    for case in (c for c in CASES if c.set == "heldout"):
        mine = shingles(case)
        for other, theirs in dev:
            overlap = len(mine & theirs) / len(mine | theirs)
            assert overlap < 0.6, f"{case.label} looks like a copy of {other.label} ({overlap:.2f})"


def test_copy_detection_sees_a_renamed_copy(tmp_path: Path) -> None:
    original = next(c for c in CASES if c.set == "dev" and not c.multi_file)
    copy_dir = tmp_path / "heldout" / "renamed"
    copy_dir.mkdir(parents=True)
    text = original.marked_file("buggy").read_text()
    for old, new in (("model", "network"), ("loss", "objective"), ("x", "inputs")):
        text = text.replace(old, new)
    (copy_dir / "buggy.py").write_text(text)
    copy = corpus.Case(name="renamed", set="heldout", path=copy_dir, meta={})
    mine, theirs = shingles(copy), shingles(original)
    assert len(mine & theirs) / len(mine | theirs) > 0.9


def test_corpus_covers_shape_and_loop_bugs() -> None:
    shape = [c for c in CASES if c.rule.startswith("SC1")]
    loop = [c for c in CASES if not c.rule.startswith("SC1")]
    assert len(shape) >= 60 and len(loop) >= 40
    for group in (shape, loop):
        assert {c.set for c in group} == set(corpus.SETS)


def test_problems_catches_a_broken_case(tmp_path: Path) -> None:
    """The checker itself: a case whose marked line is a comment, with a missing key, is reported."""
    case_dir = tmp_path / "dev" / "broken"
    case_dir.mkdir(parents=True)
    (case_dir / "buggy.py").write_text("import torch\n# the bug\nx = torch.zeros(2)\n")
    (case_dir / "fixed.py").write_text("import torch\n# the bug\nx = torch.ones(2)\n")
    (case_dir / "case.toml").write_text('rule = "SC105"\nkind = "k"\nfile = "buggy.py"\nline = 2\nsource = "s"\n')
    broken = corpus.load(case_dir, "dev")
    assert corpus.problems(broken) == ["case.toml lacks error"]
    (case_dir / "case.toml").write_text(
        'rule = "SC105"\nkind = "k"\nfile = "buggy.py"\nline = 2\nsource = "s"\nerror = "e"\ncheck = "bogus"\n'
    )
    found = corpus.problems(corpus.load(case_dir, "dev"))
    assert any("check = 'bogus'" in p for p in found)
    assert any("is a comment" in p for p in found)
