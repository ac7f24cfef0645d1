"""Verify every case of the bug corpus in torch: the buggy program does what its case.toml says torch does, and the
fixed program runs cleanly.

    python bench/verify_bugs.py [--set dev|heldout|all] [--case SUBSTRING ...] [--jobs N] [--write-also]

Each version runs in its own process under bench/bug_probes.py (CPU, seeded, a scratch working folder), forked
from this one after it imported torch once, so a run costs the program's time and not torch's import. By the
case's `check`:
- raises: the buggy run raises, and `error` is part of "ExceptionType: message"; the fixed run raises nothing.
- warns: the buggy run warns with `error` in "WarningType: message" and raises nothing; the fixed run neither.
- symptom: the probe named by `symptom` fires in the buggy run (for broadcast-blowup, with the marked line on the
  program's call stack: the op itself, or the call that passed it the operands) and not
  in the fixed run, apart from lines whose text fired in the buggy run too (a legitimate look-alike both keep).
- typecheck: both run with every annotated function checked by jaxtyping + beartype (and annotated locals by
  isinstance); the buggy run fails with `error` in its message, the fixed run passes.
- runs: both versions run cleanly (look-alikes that must stay silent, and bugs that need a GPU or an MPS device:
  `verified = "static"`, with the reason).
For a shape rule (SC1xx), `also` must list the other frames of the buggy run's failure path (the program frames of
the traceback, of the warning or of the symptom): recall.py counts a report on any of them (a call further out that
passes the bad value, the method it goes through, or the op inside).
Prints a table and exits 1 when any case fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bug_probes  # noqa: E402  (imports torch, once, before any fork)
from bug_corpus import Case, load_cases, problems  # noqa: E402

TIMEOUT = 180


@dataclass
class Run:
    """One version of one case, running in a forked child."""

    case: Case
    version: str
    pid: int
    scratch: Path
    deadline: float
    started: float

    def result(self, status: int | None) -> dict:
        out, log = self.scratch / "result.json", self.scratch / "output.txt"
        if status is None:
            result = {"crash": f"timed out after {TIMEOUT} s"}
        elif out.is_file():
            result = json.loads(out.read_text())
        else:
            result = {"crash": log.read_text(errors="replace")[-2000:] if log.is_file() else f"exit status {status}"}
        result["seconds"] = time.perf_counter() - self.started
        shutil.rmtree(self.scratch, ignore_errors=True)
        return result


def start(case: Case, version: str) -> Run:
    probes = {case.meta["symptom"]} if case.check == "symptom" else set()
    scratch = Path(tempfile.mkdtemp(prefix="bugcase-"))
    pid = os.fork()
    if pid == 0:  # the child: run the program, write the result, never return into the parent's loop
        code = 1
        try:
            log = os.open(scratch / "output.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(log, 1)
            os.dup2(log, 2)
            result = bug_probes.run(case.entry(version), probes, case.check == "typecheck")
            (scratch / "result.json").write_text(json.dumps(result))
            code = 0
        except BaseException:  # noqa: BLE001 - reported through the log
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    now = time.perf_counter()
    return Run(case, version, pid, scratch, now + TIMEOUT, now)


def run_all(cases: list[Case], jobs: int):
    """Yield (case, buggy result, fixed result) in the cases' order, running `jobs` programs at once."""
    queue = [(case, version) for case in cases for version in ("buggy", "fixed")]
    running: dict[int, Run] = {}
    done: dict[tuple[str, str], dict] = {}
    emitted = 0
    while emitted < len(cases):
        while queue and len(running) < jobs:
            run = start(*queue.pop(0))
            running[run.pid] = run
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid:
            run = running.pop(pid)
            done[run.case.label, run.version] = run.result(status)
        else:
            for run in [r for r in running.values() if time.perf_counter() > r.deadline]:
                os.kill(run.pid, signal.SIGKILL)
                os.waitpid(run.pid, 0)
                done[run.case.label, run.version] = running.pop(run.pid).result(None)
            time.sleep(0.02)
        while emitted < len(cases) and all((cases[emitted].label, v) in done for v in ("buggy", "fixed")):
            case = cases[emitted]
            yield case, done.pop((case.label, "buggy")), done.pop((case.label, "fixed"))
            emitted += 1


def as_chain(stack: list) -> list[str]:
    """Program frames as "file:line", outermost first, each once."""
    chain = []
    for file, line in stack:
        if f"{file}:{line}" not in chain:
            chain.append(f"{file}:{line}")
    return chain


def judge(case: Case, buggy: dict, fixed: dict) -> tuple[bool, str, list[str]]:
    """Whether the two runs show what the case says, what was seen in a few words, and the buggy run's failure
    chain (the program frames of the exception, warning or symptom, outermost first)."""
    for version, result in (("buggy", buggy), ("fixed", fixed)):
        if "crash" in result:
            return False, f"{version}: the runner failed: {result['crash']}", []
    error, check = case.meta["error"], case.check
    if check != "raises" and check != "typecheck" and buggy["exception"]:
        return False, f"buggy raised {buggy['exception'][:200]}", []
    if fixed["exception"]:
        return False, f"fixed raised {fixed['exception'][:200]}", []
    if check in ("raises", "typecheck"):
        if not buggy["exception"]:
            return False, "buggy raised nothing", []
        if error not in buggy["exception"]:
            return False, f"buggy raised something else: {buggy['exception'][:300]}", []
        return True, buggy["exception"].splitlines()[0][:110], as_chain(buggy["exception_stack"])
    if check == "warns":
        matching = [w for w in buggy["warnings"] if error in w]
        if not matching:
            return False, f"buggy did not warn {error!r}; warnings: {buggy['warnings']}", []
        if any(error in w for w in fixed["warnings"]):
            return False, "fixed warns the same", []
        return True, matching[0][:110], as_chain(buggy["warning_stacks"][matching[0]])
    if check == "symptom":
        name = case.meta["symptom"]
        seen = [s for s in buggy["symptoms"] if s["name"] == name]
        if name == "broadcast-blowup":
            marked = case.marked_file("buggy").relative_to(case.entry("buggy").parent)
            seen = [s for s in seen if [str(marked), case.line] in s["stack"]]
        if not seen:
            return False, f"buggy showed no {name} (at the marked line); symptoms: {buggy['symptoms']}", []
        shared = {s["text"] for s in buggy["symptoms"] if s["name"] == name and s not in seen}
        extra = [s for s in fixed["symptoms"] if s["name"] == name and s["text"] not in shared]
        if extra:
            return False, f"fixed shows {name} too: {extra}", []
        return True, f"{name}: {seen[0]['detail']}"[:110], as_chain(seen[0]["stack"])
    if buggy["exception"]:
        return False, f"buggy raised {buggy['exception'][:200]}", []
    note = "static: " + case.meta["reason"] if case.verified == "static" else "both run cleanly"
    return True, note[:110], []


def check_chain(case: Case, chain: list[str], write: bool) -> str | None:
    """For a shape rule, `also` lists the other places on the buggy run's failure path where a report is as good
    as one on the marked line: every other frame of the path. A frame further out is the call that hands the bad value
    in, from the function that holds the facts (where the README says a shape rule reports when a callee is only
    wrong for some callers); a frame further in is the method it goes through or the op that fails. Returns what is
    wrong, or None; with `write`, rewrites `also` in case.toml instead of complaining."""
    if not case.rule.startswith("SC1") or not chain:
        return None
    marked = f"{case.marked_file('buggy').relative_to(case.version_dir('buggy'))}:{case.line}"
    also = [frame for frame in chain if frame != marked]
    if also == case.meta.get("also", []):
        return None
    if not write:
        return f"also = {case.meta.get('also', [])}, but the failure's path is {chain} (--write-also updates it)"
    toml = case.path / "case.toml"
    rows = [row for row in toml.read_text().splitlines() if not row.startswith("also = ")]
    at = next(i for i, row in enumerate(rows) if row.startswith("line = ")) + 1
    rows.insert(at, "also = " + json.dumps(also))
    toml.write_text("\n".join(rows) + "\n")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--case", action="append", default=[], help="only cases whose name contains this (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument("--write-also", action="store_true",
                        help="write each shape case's `also` (the other frames of its failure's path) into case.toml")
    args = parser.parse_args()
    cases = [c for c in load_cases(args.set) if not args.case or any(part in c.name for part in args.case)]
    if not cases:
        print("no case matches")
        return 1
    width = max(len(c.label) for c in cases)
    failures = 0
    malformed = {c.label: problems(c) for c in cases}
    print(f"{'case':<{width}}  {'rule':<32} {'check':<9} {'':4} {'s':>5}  what torch did")
    runnable = [c for c in cases if not malformed[c.label]]
    rows = [(c, False, "malformed: " + "; ".join(malformed[c.label]), 0.0) for c in cases if malformed[c.label]]
    for case, buggy, fixed in run_all(runnable, args.jobs):
        ok, seen, chain = judge(case, buggy, fixed)
        wrong = check_chain(case, chain, args.write_also) if ok else None
        if wrong:
            ok, seen = False, wrong
        rows.append((case, ok, seen, buggy["seconds"] + fixed["seconds"]))
    for case, ok, seen, seconds in rows:
        failures += not ok
        check = case.check if case.verified == "torch" else "static"
        status = "ok" if ok else "FAIL"
        print(f"{case.label:<{width}}  {case.rule:<32} {check:<9} {status:4} {seconds:5.1f}  {seen}")
    print(f"\n{len(cases) - failures} of {len(cases)} cases verified" + (f", {failures} FAILED" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
