"""Where shapecheck is published: the one source of the links its outputs carry (SARIF's `informationUri` and
each rule's `helpUri`, the `url` of JSON records, the `codeDescription.href` of the editor's diagnostics).

None while the project has no public repository. A link nobody can open would send code scanning's "rule help"
and the editor's link to a missing page, or to someone else's project, so until then the outputs carry no link:
SARIF still holds each rule's whole documentation (`help.markdown`, which GitHub shows on the alert), and
`shapecheck rule CODE` prints it. On publishing, set REPOSITORY here and the same address as `Repository` under
`[project.urls]` in pyproject.toml; tests/test_urls.py holds the two together and every link to a committed page.
"""

from __future__ import annotations

REPOSITORY: str | None = None


def rule_page(code: str) -> str | None:
    """The page of a rule (or engine code): docs/rules/CODE.md on the repository's main branch, or None."""
    return None if REPOSITORY is None else f"{REPOSITORY}/blob/main/docs/rules/{code}.md"
