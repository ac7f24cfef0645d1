"""Per-call overhead of `@shapecheck.check` against an undecorated function and `@jaxtyped(typechecker=beartype)`.

    python bench/runtime_overhead.py [--rounds 30] [--calls 2000] [--clock cpu|wall]

One function with 3 tensor arguments and a tensor return (`x @ w + b`), checked for shape, dtype and device,
timed in one process with the variants interleaved round by round, medians reported. Two sizes: small tensors,
where the check's overhead dominates, and a 1024x1024 matmul, where it vanishes. "disabled by env" runs in a
subprocess with SHAPECHECK_DISABLE=1 set before import, where `check` hands back the function object itself.

The default clock is the process's CPU time, which other processes on a busy machine inflate far less than
wall time; `--clock wall` uses time.perf_counter.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from beartype import beartype  # noqa: E402
from jaxtyping import Float, jaxtyped  # noqa: E402
from torch import Tensor  # noqa: E402

import shapecheck  # noqa: E402


def affine(x: Float[Tensor, "B T D"], w: Float[Tensor, "D E"], b: Float[Tensor, "E"]) -> Float[Tensor, "B T E"]:
    return x @ w + b


SIZES = {"small": (2, 3, 4, 5), "large": (1, 1024, 1024, 1024)}


def inputs(size: str) -> tuple[Tensor, Tensor, Tensor]:
    batch, time_, dim, out = SIZES[size]
    generator = torch.Generator().manual_seed(0)
    return (torch.randn(batch, time_, dim, generator=generator), torch.randn(dim, out, generator=generator),
            torch.randn(out, generator=generator))


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def per_call_us(function, args, calls: int) -> float:
    start = clock()
    for _ in range(calls):
        function(*args)
    return (clock() - start) / calls * 1e6


def measure(variants: dict, rounds: int, calls: dict[str, int]) -> dict[str, dict[str, float]]:
    """Median us per call of each variant and size, the variants interleaved within every round."""
    medians: dict[str, dict[str, float]] = {name: {} for name in variants}
    for size in SIZES:
        args = inputs(size)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        for function in variants.values():  # warm up: first-call compilation, allocator, caches
            per_call_us(function, args, max(1, calls[size] // 10))
        for _ in range(rounds):
            for name, function in variants.items():
                if name == "shapecheck, disabled at run time":
                    with shapecheck.disabled():
                        samples[name].append(per_call_us(function, args, calls[size]))
                else:
                    samples[name].append(per_call_us(function, args, calls[size]))
        for name in variants:
            medians[name][size] = statistics.median(samples[name])
    return medians


def env_disabled_child(rounds: int, calls: dict[str, int]) -> None:
    checked = shapecheck.check(affine)
    assert checked is affine, "SHAPECHECK_DISABLE=1 must make check() return the function itself"
    result = measure({"undecorated": affine, "shapecheck, disabled by env": checked}, rounds, calls)
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=2000, help="calls per round on small tensors")
    parser.add_argument("--clock", choices=CLOCKS, default="cpu")
    parser.add_argument("--env-child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    global clock
    clock = CLOCKS[options.clock]
    torch.set_num_threads(1)  # the large matmul's thread pool would otherwise add the most noise
    calls = {"small": options.calls, "large": max(2, options.calls // 400)}
    if options.env_child:
        env_disabled_child(options.rounds, calls)
        return

    variants = {
        "undecorated": affine,
        "shapecheck": shapecheck.check(affine),
        "jaxtyping+beartype": jaxtyped(typechecker=beartype)(affine),
        "shapecheck, disabled at run time": shapecheck.check(affine),
    }
    medians = measure(variants, options.rounds, calls)
    child = subprocess.run([sys.executable, __file__, "--env-child", "--rounds", str(options.rounds), "--calls",
                            str(options.calls), "--clock", options.clock],
                           env={**os.environ, "SHAPECHECK_DISABLE": "1"},
                           capture_output=True, text=True, check=True)
    env = json.loads(child.stdout)
    print_table(medians, env, options)


def print_table(medians: dict, env: dict, options: argparse.Namespace) -> None:
    def overhead(row: dict, base: dict, size: str) -> float:
        return row[size] - base[size]

    base = medians["undecorated"]
    rows = [(name, row, base) for name, row in medians.items()]
    rows.append(("shapecheck, disabled by env (subprocess)", env["shapecheck, disabled by env"], env["undecorated"]))
    print(f"torch {torch.__version__}, Python {sys.version.split()[0]}, 1 thread, {options.clock} clock, "
          f"{options.rounds} interleaved rounds, medians; overhead = variant - undecorated in the same process\n")
    print("| variant | small: us/call | small: overhead us | 1024 matmul: us/call | 1024 matmul: overhead us |")
    print("|---|---:|---:|---:|---:|")
    for name, row, reference in rows:
        print(f"| {name} | {row['small']:.2f} | {overhead(row, reference, 'small'):+.2f} | {row['large']:.0f} | "
              f"{overhead(row, reference, 'large'):+.1f} |")
    ours = overhead(medians["shapecheck"], base, "small")
    theirs = overhead(medians["jaxtyping+beartype"], base, "small")
    print(f"\njaxtyping+beartype / shapecheck overhead on small tensors: {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
