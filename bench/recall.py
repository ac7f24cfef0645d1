"""Recall and false positives of the installed `shapecheck` on the bug corpus (bench/bugs/).

    python bench/recall.py [--set dev|heldout|all] [--kind SUBSTRING] [--batch BATCH] [--json]

Lints each case's buggy and fixed versions twice, as a user would: `shapecheck lint --select ALL --output-format
json` and `--select` of the case's rule. One-file cases are linted together in one run per selection; a small
project (`buggy/`, `fixed/`) is linted on its own, from its folder, so its first-party imports are its own.
Every case is linted in a copy outside this repository, each version a repository of its own (an empty `.git`
marks its root, as a user's checkout has one): inside this repository, the project a case's files belong to is the
whole repository (its pyproject.toml), and once the corpus passed the linter's importer-search limit, a case's own
`train.py` was no longer found as the importer of its `model.py` (recall then fell as the corpus grew, with no
change to the linter).

Per case:
- hit: the case's rule reports the buggy version at the marked line, or at another line of the failure's path
  that case.toml lists in `also` (for a shape bug: the call that passes the bad value, or the op inside the callee).
- false positive: the case's rule reports the fixed version anywhere; for a `silent` case (a look-alike in both
  versions), either version.
- other findings: anything else on either version under ALL, listed to be read (some are right: a buggy program
  can have a second bug; some are noise).
A rule named `new:NAME` counts as a miss until `shapecheck rules` lists a rule of that name.

Held-out cases measure the linter at the end of a piece of work; tune on dev only (bench/bugs/README.md). So that
a held-out run tells its reader no more than a number per rule and kind, a held-out case is printed by its kind and a
number, never by its name, and its other findings by rule and line, without their messages.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bug_corpus import ROOT, Case, load_cases  # noqa: E402


def installed_rules() -> dict[str, str]:
    """Rule name and code -> code, from `shapecheck rules`."""
    listing = subprocess.run(["shapecheck", "rules"], capture_output=True, text=True, check=True).stdout
    codes = {}
    for row in listing.splitlines()[1:]:
        parts = row.split()
        if len(parts) >= 2:
            codes[parts[0]] = codes[parts[1]] = parts[0]
    return codes


def lint(paths: list[str], select: str, cwd: Path | None, copy: Path) -> list[dict]:
    """Findings of one `shapecheck lint` run on the copies under `copy` of the corpus files `paths` (absolute, or
    relative to `cwd`, a corpus folder), with the corpus's absolute file names."""
    if not paths:
        return []

    def moved(path: str | Path) -> Path:
        return copy / Path(path).resolve().relative_to(ROOT)

    command = ["shapecheck", "lint", "--select", select, "--output-format", "json", "--exit-zero", "--quiet",
               *(paths if cwd else map(str, map(moved, paths)))]
    done = subprocess.run(command, capture_output=True, text=True, cwd=moved(cwd) if cwd else None)
    if done.returncode != 0:
        raise SystemExit(f"shapecheck failed ({done.returncode}) on {paths[:3]}...:\n{done.stderr[-2000:]}")
    findings = json.loads(done.stdout or "[]")
    for finding in findings:
        linted = ((moved(cwd) if cwd else Path.cwd()) / finding["filename"]).resolve()
        finding["filename"] = str(ROOT / linted.relative_to(copy.resolve()))
    return findings


def copied(cases: list[Case], into: Path) -> None:
    """Each case's folder copied under `into` at its place in the corpus, each version's folder the root of a
    repository of its own."""
    for case in cases:
        shutil.copytree(case.path, into / case.path.relative_to(ROOT), ignore=shutil.ignore_patterns("__pycache__"))
        for version in ("buggy", "fixed"):
            (into / case.version_dir(version).relative_to(ROOT) / ".git").mkdir(exist_ok=True)


@dataclass
class Outcome:
    case: Case
    code: str | None  # the installed code of the case's rule, None for a new rule not written yet
    hit: bool = False
    false_positives: list[dict] = field(default_factory=list)
    others: list[dict] = field(default_factory=list)


def spans(finding: dict, row: int) -> bool:
    return finding["location"]["row"] <= row <= finding["end_location"]["row"]


def where(finding: dict) -> str:
    return f"{Path(finding['filename']).name}:{finding['location']['row']} {finding['code']}"


def measure(cases: list[Case], jobs: int) -> list[Outcome]:
    codes = installed_rules()
    outcomes = [Outcome(case, codes.get(case.rule.removeprefix("new:"))) for case in cases]
    single = [o for o in outcomes if not o.case.multi_file]
    multi = [o for o in outcomes if o.case.multi_file]
    runs: list[tuple[list[str], str, Path | None]] = []
    runs.append(([str(f) for o in single for v in ("buggy", "fixed") for f in o.case.files(v)], "ALL", None))
    for code in sorted({o.code for o in single if o.code}):
        files = [str(f) for o in single if o.code == code for v in ("buggy", "fixed") for f in o.case.files(v)]
        runs.append((files, code, None))
    for outcome in multi:
        for version in ("buggy", "fixed"):
            folder = outcome.case.version_dir(version)
            names = [str(f.relative_to(folder)) for f in outcome.case.files(version)]
            runs.append((names, "ALL", folder))
            if outcome.code:
                runs.append((names, outcome.code, folder))
    with tempfile.TemporaryDirectory(prefix="shapecheck-recall-") as place, ThreadPoolExecutor(jobs) as pool:
        copied(cases, Path(place))
        results = list(pool.map(lambda run: (run[1], lint(*run, Path(place))), runs))
    everything, by_rule = defaultdict(list), defaultdict(list)
    for select, findings in results:
        for finding in findings:
            (everything if select == "ALL" else by_rule)[finding["filename"]].append(finding)
    for outcome in outcomes:
        case = outcome.case
        folder = case.version_dir("buggy")
        targets = [(str(case.marked_file("buggy")), case.line)] + [(str(folder / f), row) for f, row in case.also]
        for version in ("buggy", "fixed"):
            for path in map(str, case.files(version)):
                own = [f for f in by_rule[path] if f["code"] == outcome.code]
                if version == "buggy" and case.expect == "report":
                    on_path = [f for f in own if any(path == t and spans(f, row) for t, row in targets)]
                    outcome.hit |= bool(on_path)
                    outcome.others += [f for f in own if f not in on_path]  # the rule again, elsewhere
                else:
                    outcome.false_positives += own
                outcome.others += [f for f in everything[path] if f["code"] != outcome.code]
    return outcomes


def rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def summary(outcomes: list[Outcome]) -> dict:
    report = [o for o in outcomes if o.case.expect == "report"]
    return {
        "cases": len(outcomes),
        "bugs": len(report),
        "reported": sum(o.hit for o in report),
        "cases_with_false_positives": sum(bool(o.false_positives) for o in outcomes),
        "silent_cases": len(outcomes) - len(report),
    }


def grouped(outcomes: list[Outcome], key) -> dict[str, dict]:
    groups = defaultdict(list)
    for outcome in outcomes:
        groups[key(outcome)].append(outcome)
    return {name: summary(group) for name, group in sorted(groups.items())}


def rule_group(outcome: Outcome) -> str:
    """Shape rules (SC1xx) or the training-loop side (SC2xx-SC4xx and new rules): the two figures issues 15 and 16
    set targets for."""
    return "shape rules (SC1xx)" if outcome.case.rule.startswith("SC1") else "loop and new rules"


def print_table(title: str, groups: dict[str, dict]) -> None:
    width = max([len(title)] + [len(name) for name in groups])
    print(f"  {title:<{width}}  {'reported':>14}  {'fixed/look-alike FP':>19}")
    for name, s in groups.items():
        print(f"  {name:<{width}}  {rate(s['reported'], s['bugs']):>14}  "
              f"{s['cases_with_false_positives']:>10} of {s['cases']:<5}")


def shown(outcome: Outcome, outcomes: list[Outcome]) -> str:
    """A dev case's label; a held-out case's set and its place among the held-out cases of this run."""
    if outcome.case.set != "heldout":
        return outcome.case.label
    return f"heldout/#{[o for o in outcomes if o.case.set == 'heldout'].index(outcome) + 1}"


def batches(outcomes: list[Outcome]) -> list[tuple[str, list[Outcome]]]:
    """Each set's cases of each dated batch (case.toml's `batch`), so a batch written at once has its own figure."""
    keys = sorted({(o.case.set, o.case.batch) for o in outcomes if o.case.batch})
    return [(name, [o for o in outcomes if (o.case.set, o.case.batch) == (name, batch)]) for name, batch in keys]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--kind", default="", help="only cases whose kind contains this")
    parser.add_argument("--batch", default="", help="only cases of this batch (case.toml's `batch`, e.g. 2026-11-30.7)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--jobs", type=int, default=2, help="lint runs at once (default 2)")
    args = parser.parse_args()
    cases = [c for c in load_cases(args.set) if args.kind in c.kind and (not args.batch or c.batch == args.batch)]
    if not cases:
        print("no case matches")
        return 1
    started = time.perf_counter()
    outcomes = measure(cases, args.jobs)
    sets = sorted({o.case.set for o in outcomes})
    if args.json:
        print(json.dumps({
            "sets": {name: summary([o for o in outcomes if o.case.set == name]) for name in sets},
            "rule_groups": {name: grouped([o for o in outcomes if o.case.set == name], rule_group) for name in sets},
            "batches": {
                f"{name}/{group[0].case.batch}": grouped(group, rule_group) for name, group in batches(outcomes)
            },
            "cases": [{
                "case": shown(o, outcomes), "rule": o.case.rule, "kind": o.case.kind, "expect": o.case.expect,
                "reported": o.hit, "false_positives": [where(f) for f in o.false_positives],
                "other_findings": [where(f) for f in o.others],
            } for o in outcomes],
        }, indent=2))
        return 0
    for name in sets:
        mine = [o for o in outcomes if o.case.set == name]
        s = summary(mine)
        print(f"== {name}: {rate(s['reported'], s['bugs'])} of the bugs reported at their line by their rule; "
              f"{s['cases_with_false_positives']} of {s['cases']} cases with a finding of their rule on a fixed "
              f"version or a silent look-alike")
        print_table("rule", grouped(mine, lambda o: o.case.rule))
        kinds = grouped(mine, lambda o: o.case.kind)
        print_table("kind", kinds)
        blind = [kind for kind, k in kinds.items() if k["bugs"] and not k["reported"]]
        print(f"  kinds with no bug reported: {len(blind)} of {sum(1 for k in kinds.values() if k['bugs'])}")
        print_table("rule group", grouped(mine, rule_group))
        print()
    for name, batch in batches(outcomes):
        s = summary(batch)
        print(f"== {name}, batch {batch[0].case.batch}: {rate(s['reported'], s['bugs'])} of the bugs reported; "
              f"{s['cases_with_false_positives']} of {s['cases']} cases with a false positive")
        print_table("rule group", grouped(batch, rule_group))
        print()
    misses = [o for o in outcomes if o.case.expect == "report" and not o.hit]
    if misses:
        print("missed:")
        for o in misses:
            print(f"  {shown(o, outcomes)}  {o.case.rule}  ({o.case.kind})" + ("" if o.code else "  [no such rule yet]"))
    wrong = [o for o in outcomes if o.false_positives]
    if wrong:
        print("false positives (the case's rule on a fixed version or a silent look-alike):")
        for o in wrong:
            print(f"  {shown(o, outcomes)}: " + ", ".join(where(f) for f in o.false_positives))
    noisy = [o for o in outcomes if o.others]
    if noisy:
        print("other findings (to read):")
        for o in noisy:
            print(f"  {shown(o, outcomes)}: " + "; ".join(
                where(f) if o.case.set == "heldout" else f"{where(f)} {f['message'][:90]}" for f in o.others))
    print(f"\n{len(outcomes)} cases linted in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
