r"""`--output-format junit`: a JUnit XML report in ruff's layout, which CI systems (GitLab, Jenkins, Azure, CircleCI)
show as a test run: one test suite per file, one failed test case per finding, named `org.shapecheck.CODE`:

    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites name="shapecheck" tests="1" skipped="0" failures="1" errors="0">
        <testsuite name="/abs/model.py" tests="1" skipped="0" errors="0" failures="1" package="org.shapecheck">
            <testcase name="org.shapecheck.SC301" classname="/abs/model" line="3" column="12">
                <properties>
                    <property name="severity" value="error"/>
                </properties>
                <failure message="log of softmax ...">line 3, col 12, log of softmax ...</failure>
            </testcase>
        </testsuite>
    </testsuites>

No findings is one passing test case, "No errors found", as in ruff. A notebook finding's `line` and `column` are
where it is in the .ipynb file, and its text names the cell (`cell 3, line 2, col 5, ...`). Characters XML 1.0
cannot carry (control characters, the undecodable bytes of a file name) are written `\xNN`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from itertools import groupby

from shapecheck.findings import Finding
from shapecheck.reporters.paths import absolute, shown

PACKAGE = "org.shapecheck"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def render(findings: Sequence[Finding]) -> str:
    suites = []
    for filename, group in groupby(findings, key=lambda finding: finding.filename):
        suites.append(_suite(filename, list(group)))
    if not suites:
        suites = ['    <testsuite name="shapecheck" tests="1" skipped="0" errors="0" failures="0" '
                  f'package="{PACKAGE}">\n'
                  '        <testcase name="No errors found" classname="shapecheck"/>\n'
                  '    </testsuite>']
    count = len(findings) or 1
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="shapecheck" tests="{count}" skipped="0" failures="{len(findings)}" errors="0">',
        *suites,
        "</testsuites>",
    ])


def _suite(filename: str, findings: list[Finding]) -> str:
    path = filename if filename == "-" else str(absolute(filename))
    classname = os.path.splitext(path)[0]
    lines = [f"    <testsuite name={_attribute(path)} tests=\"{len(findings)}\" skipped=\"0\" errors=\"0\" "
             f"failures=\"{len(findings)}\" package=\"{PACKAGE}\">"]
    for finding in findings:
        start = finding.span_in_file[0]
        cell = "" if finding.cell is None else f"cell {finding.cell}, "
        text = f"{cell}line {finding.location.row}, col {finding.location.column}, {finding.message}"
        lines += [
            f"        <testcase name=\"{PACKAGE}.{finding.code}\" classname={_attribute(classname)} "
            f"line=\"{start.row}\" column=\"{start.column}\">",
            "            <properties>",
            f"                <property name=\"severity\" value=\"{finding.severity}\"/>",
            "            </properties>",
            f"            <failure message={_attribute(finding.message)}>{_text(text)}</failure>",
            "        </testcase>",
        ]
    lines.append("    </testsuite>")
    return "\n".join(lines)


# xml.sax.saxutils is imported when a report is written, not with the reporters: it imports urllib.request, and
# with it http, email, ssl and tempfile, a third of a cache hit's start-up.
def _text(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(_xml_safe(text))


def _attribute(text: str) -> str:
    from xml.sax.saxutils import quoteattr

    return quoteattr(_xml_safe(text), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _xml_safe(text: str) -> str:
    return _NOT_XML.sub(_escaped, shown(text))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
