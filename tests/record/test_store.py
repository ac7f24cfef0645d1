"""Merging records across runs: repeats dropped, and past the bound every run keeps a share."""

from __future__ import annotations

from shapecheck.record.store import FunctionRecord, merge, sample


def call(run: str, batch: int) -> dict:
    return {"run": run, "args": {"x": {"t": "tensor", "shape": [batch, 16], "dtype": "float32", "device": "cpu"}}}


def entry(*calls: dict) -> FunctionRecord:
    return FunctionRecord("m", "f", "/m.py", 1, "h", ["x"], list(calls), constants={"N": 1})


def test_a_new_run_s_signatures_are_kept_when_the_record_is_full():
    # With --calls 200 a first run fills the bound: the second run's new batch size must still be kept.
    first = entry(*[call("one", batch) for batch in range(1, 201)])
    second = entry(call("two", 4000), call("two", 5000))
    merged = merge({"m:f": first}, {"m:f": second})["m:f"].calls
    assert len(merged) == 200
    assert [c["args"]["x"]["shape"][0] for c in merged if c["run"] == "two"] == [4000, 5000]


def test_the_same_values_in_another_run_are_one_sample():
    assert sample([call("one", 2), call("two", 2), call("two", 3)]) == [call("one", 2), call("two", 3)]


def test_every_run_keeps_an_equal_share_in_the_order_they_came():
    calls = [call(run, batch) for run in ("a", "b", "c") for batch in range(10 * ord(run), 10 * ord(run) + 5)]
    kept = sample(calls, limit=6)
    assert [c["run"] for c in kept] == ["a", "a", "b", "b", "c", "c"]
