"""docs/rules/ holds exactly the pages `python -m shapecheck.rule_docs` generates from the rules, so every `url` in
JSON and `helpUri` in SARIF (once shapecheck/urls.py names the repository) names a page that exists and says what the
rule's docs say."""

from __future__ import annotations

from pathlib import Path

from shapecheck.engine.registry import all_rules
from shapecheck.rule_docs import DOCS_FOLDER, INDEX, index_source, write

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_pages_are_the_generated_ones(tmp_path: Path) -> None:
    write(tmp_path)
    generated = {path.name: path.read_text() for path in tmp_path.glob("*.md")}
    committed = {path.name: path.read_text() for path in (ROOT / DOCS_FOLDER).glob("*.md")}
    assert committed == generated, "run `python -m shapecheck.rule_docs` and commit docs/rules/"


def test_the_committed_rule_index_is_the_generated_one() -> None:
    assert (ROOT / INDEX).read_text() == index_source(), "run `python -m shapecheck.rule_docs`, commit rules/_index.py"


def test_every_rule_has_a_committed_page() -> None:
    for rule in all_rules():
        page = ROOT / DOCS_FOLDER / f"{rule.code}.md"  # what shapecheck.urls.rule_page links to
        assert page.is_file() and page.read_text().startswith(f"# {rule.name} ({rule.code})\n")
        assert rule.documentation() in page.read_text()


def test_write_removes_pages_of_rules_that_are_gone(tmp_path: Path) -> None:
    (tmp_path / "SC998.md").write_text("# gone\n")
    write(tmp_path)
    assert not (tmp_path / "SC998.md").exists()
