"""Where the engine's time goes, on a proxy of `bench/lint_speed.py`'s corpus: every Nth file of torch's nn, optim and
distributions, linted in this process with all default rules, by CPU time (a shared machine's clock says little).

    python bench/engine_profile.py [--step 5] [--rounds 3] [--dump PATH]

Prints, as medians of interleaved rounds after a warm-up round: a bare libcst parse, the engine with one rule that
does nothing (the parse, the guard, the compile check and the traversal), the engine without the shape rules, the
shape rules alone and every default rule, each as a ratio to the parse; then the CPU each rule's handlers took in
one round (inclusive: the shape analysis is memoized per file, so the first rule to ask about a node pays for it).
`--dump` writes a cProfile dump of one more round (`python -m pstats PATH`); the profiler inflates Python code
against libcst's native parser, so read its shares with the ratios above.
"""

from __future__ import annotations

import argparse
import cProfile
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

import libcst as cst

from lint_speed import corpus
from shapecheck.engine import traversal
from shapecheck.engine.linter import decode, lint_text
from shapecheck.engine.registry import resolve
from shapecheck.engine.rule import Rule

SHAPE_RULES = frozenset({"SC101", "SC104", "SC105", "SC106", "SC107", "SC108"})


class Idle(Rule):
    """A rule that looks at nothing: the engine's own cost."""

    code = "SC998"
    name = "idle"
    message = "never reported"


def cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def lint_all(texts: Sequence[tuple[str, str]], rules: Sequence[type[Rule]]) -> None:
    for name, text in texts:
        lint_text(text, name, rules)


def handler_times(texts: Sequence[tuple[str, str]], rules: Sequence[type[Rule]]) -> Counter[str]:
    """CPU per visitor (a rule's code, an analysis's class) in its visit_/leave_ handlers over one round."""
    spent: Counter[str] = Counter()
    original = traversal.Traversal._entry

    def timed(visitor: object, handler: Callable[[cst.CSTNode], object]) -> Callable[[cst.CSTNode], object]:
        key = getattr(visitor, "code", type(visitor).__name__)

        def run(node: cst.CSTNode) -> object:
            start = time.process_time()
            try:
                return handler(node)
            finally:
                spent[key] += time.process_time() - start
        return run

    def entry(self: traversal.Traversal, cls: type):
        visits, leaves, *rest = original(self, cls)
        found = self._dispatch[cls] = (tuple((v, timed(v, h)) for v, h in visits),
                                       tuple((v, timed(v, h)) for v, h in leaves), *rest)
        return found

    traversal.Traversal._entry = entry  # type: ignore[method-assign]
    try:
        lint_all(texts, rules)
    finally:
        traversal.Traversal._entry = original  # type: ignore[method-assign]
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--step", type=int, default=5, help="lint every Nth file of the corpus")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dump", help="write a cProfile dump of one round with every default rule here")
    args = parser.parse_args()

    files = corpus()[::args.step]
    texts = [(str(path), decode(path.read_bytes())) for path in files]
    lines = sum(text.count("\n") for _, text in texts)
    print(f"proxy: {len(files)} files, {lines} lines (every {args.step}th file of bench/lint_speed.py's corpus)")
    rules = resolve(None)
    rows: dict[str, Callable[[], object]] = {
        "bare libcst parse": lambda: [cst.parse_module(text) for _, text in texts],
        "engine, one idle rule": lambda: lint_all(texts, [Idle]),
        "engine, all but the shape rules": lambda: lint_all(texts, [r for r in rules if r.code not in SHAPE_RULES]),
        "engine, the shape rules alone": lambda: lint_all(texts, [r for r in rules if r.code in SHAPE_RULES]),
        "engine, every default rule": lambda: lint_all(texts, rules),
    }
    lint_all(texts, rules)  # warm-up: lazy imports, tables, first-party modules
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.rounds):
        for name, run in rows.items():
            times[name].append(cpu(run))
    floor = statistics.median(times["bare libcst parse"])
    print("\n| run | median CPU s | x bare parse |\n| --- | ---: | ---: |")
    for name, spent in times.items():
        print(f"| {name} | {statistics.median(spent):.2f} | {statistics.median(spent) / floor:.2f} |")
    spent = handler_times(texts, rules)
    print(f"\nhandlers, one round: {sum(spent.values()):.2f} s CPU")
    for key, seconds in spent.most_common(12):
        print(f"  {key:<16} {seconds:.3f}")
    if args.dump:
        profile = cProfile.Profile()
        profile.runcall(lint_all, texts, rules)
        profile.dump_stats(args.dump)
        print(f"\ncProfile dump: {args.dump}")


if __name__ == "__main__":
    main()
