"""How libcst's parser scales with expression chains and nesting: the curve behind the complexity guard's limits.

For each pattern, one generated file per size is parsed by `libcst.parse_module` in a fresh subprocess, which
reports its wall time and peak memory; a size that runs past `--timeout` or dies (the native parser aborts when an
allocation fails) ends that pattern's curve.

    python bench/guard_curve.py [--patterns attribute,binary] [--sizes 250,500,1000] [--timeout 60]

Sizes are the chain length (terms) or the nesting depth. The guard's limits (shapecheck/engine/guard.py) are printed
next to each pattern so the margin can be read off the curve.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from shapecheck.engine.guard import MAX_CHAIN, MAX_DEPTH

# Each pattern: the source of a one-statement file with `n` terms or levels.
PATTERNS = {
    # chains: a flat sequence of operators in one expression
    "attribute": lambda n: "y = x" + ".a" * n + "\n",
    "binary": lambda n: "y = a" + " + a" * n + "\n",
    "boolean": lambda n: "y = a" + " and a" * n + "\n",
    "comparison": lambda n: "y = a" + " < a" * n + "\n",
    "method-calls": lambda n: "y = x" + ".f()" * n + "\n",
    "subscripts": lambda n: "y = x" + "[0]" * n + "\n",
    "strings": lambda n: "y = 'a'" + " 'a'" * n + "\n",
    # flat lines: many terms, no chain
    "list-one-line": lambda n: "y = [" + "a, " * n + "]\n",
    "list-one-per-line": lambda n: "y = [\n" + "    a,\n" * n + "]\n",
    "call-arguments": lambda n: "y = f(" + "a, " * n + ")\n",
    # nesting: each level inside the last
    "not": lambda n: "y = " + "not " * n + "a\n",
    "unary-minus": lambda n: "y = " + "-" * n + "a\n",
    "lambda": lambda n: "y = " + "lambda: " * n + "a\n",
    "conditional": lambda n: "y = " + "a if b else " * n + "a\n",
    "power": lambda n: "y = a" + " ** a" * n + "\n",
    "brackets": lambda n: "y = " + "(" * n + "a" + ")" * n + "\n",
}

CHILD = """
import resource, sys, time
import libcst
sys.setrecursionlimit(1_000_000)
text = sys.stdin.read()
start = time.perf_counter()
libcst.parse_module(text)
seconds = time.perf_counter() - start
print(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

BASELINE = "import libcst, resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def measure(text: str, timeout: float) -> tuple[str, float | None, float | None]:
    """(outcome, seconds, peak MiB above a bare interpreter with libcst imported)."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD], input=text, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s", None, None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return f"failed (exit {done.returncode}: {last[:60]})", None, None
    seconds, peak_kib = done.stdout.split()
    return "ok", float(seconds), int(peak_kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--patterns", default=",".join(PATTERNS))
    parser.add_argument("--sizes", default="250,500,1000,2000,4000,8000")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--json", action="store_true", help="one JSON record per measurement")
    args = parser.parse_args()
    base_kib = int(subprocess.run([sys.executable, "-c", BASELINE], capture_output=True, text=True).stdout)
    print(f"guard limits: chains of {MAX_CHAIN} terms, nesting {MAX_DEPTH} deep", file=sys.stderr)
    for name in args.patterns.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            started = time.perf_counter()
            outcome, seconds, peak = measure(PATTERNS[name](size), args.timeout)
            extra = None if peak is None else peak - base_kib / 1024
            if args.json:
                print(json.dumps({"pattern": name, "size": size, "outcome": outcome, "seconds": seconds,
                                  "extra_mib": extra}), flush=True)
            elif seconds is None:
                print(f"{name:18} {size:>7}  {outcome}", flush=True)
            else:
                print(f"{name:18} {size:>7}  {seconds:8.2f} s  {extra:8.0f} MiB", flush=True)
            if outcome != "ok" or time.perf_counter() - started > args.timeout / 2:
                break


if __name__ == "__main__":
    main()
