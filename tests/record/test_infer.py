"""Symbols, literals and names inferred from recorded sizes (no torch needed: records are plain data)."""

from __future__ import annotations

from shapecheck.record.infer import infer
from shapecheck.record.store import FunctionRecord


def tensor(*shape: int, dtype: str = "float32") -> dict:
    return {"t": "tensor", "shape": list(shape), "dtype": dtype, "device": "cpu"}


def record(params: list[str], *calls: tuple[dict, dict | None], qualname: str = "f") -> FunctionRecord:
    # Each call from a run of its own, as after `shapecheck record` at several batch sizes.
    return FunctionRecord("m", qualname, "/m.py", 1, "h", params,
                          [{"run": run, "args": args, **({"return": ret} if ret is not None else {})}
                           for run, (args, ret) in enumerate(calls)])


def test_sizes_that_vary_together_are_one_symbol_and_constant_sizes_stay_literals():
    found = infer(record(["h", "w"], ({"h": tensor(2, 8), "w": tensor(8, 11)}, tensor(2, 11)),
                         ({"h": tensor(5, 8), "w": tensor(8, 11)}, tensor(5, 11))))
    assert found.params == {"h": 'Float[Tensor, "B 8"]', "w": 'Float[Tensor, "8 11"]'}
    assert found.returns == 'Float[Tensor, "B 11"]'
    assert found.notes == []


def test_a_size_equal_in_one_call_only_is_not_a_symbol():
    found = infer(record(["a", "b"], ({"a": tensor(3, 4), "b": tensor(3, 4)}, None),
                         ({"a": tensor(5, 4), "b": tensor(6, 4)}, None)))
    assert found.params == {"a": 'Float[Tensor, "B 4"]', "b": 'Float[Tensor, "N 4"]'}


def test_names_from_the_code_win_and_name_constant_sizes_too():
    calls = [({"x": tensor(b, t, 16)}, tensor(b, t, 16)) for b, t in [(2, 5), (3, 7)]]
    found = infer(record(["self", "x"], *calls), {("x", 0): "batch", ("x", 1): "seq", ("x", 2): "C"})
    assert found.params == {"x": 'Float[Tensor, "batch seq C"]'}
    assert found.returns == 'Float[Tensor, "batch seq C"]'


def test_negative_axes_in_the_code_name_the_last_dims():
    calls = [({"x": tensor(b, 16)}, None) for b in (2, 3)]
    assert infer(record(["x"], *calls), {("x", -1): "D"}).params == {"x": 'Float[Tensor, "B D"]'}


def test_int_parameters_and_self_attributes_name_sizes_that_equal_them():
    calls = [({"x": tensor(b, n), "n": {"t": "int", "v": n}}, None) for b, n in [(2, 7), (3, 9)]]
    assert infer(record(["x", "n"], *calls)).params == {"x": 'Float[Tensor, "B n"]'}
    calls = [{"args": {"self": {"t": "other"}, "x": tensor(4, d)}, "self_ints": {"n_embd": d}} for d in (8, 12)]
    found = infer(FunctionRecord("m", "M.forward", "/m.py", 1, "h", ["self", "x"], calls))
    assert found.params == {"x": 'Float[Tensor, "4 n_embd"]'}


def test_roles_name_batch_and_sequence_dims():
    calls = [({"x": tensor(b, t, 4)}, None) for b, t in [(2, 5), (3, 7)]]
    assert infer(record(["x"], *calls)).params == {"x": 'Float[Tensor, "B T 4"]'}


def test_a_leading_group_that_varies_in_rank_is_star_batch():
    found = infer(record(["x"], ({"x": tensor(4, 6)}, tensor(4)), ({"x": tensor(2, 4, 6)}, tensor(2, 4))))
    assert found.params == {"x": 'Float[Tensor, "*batch 4 6"]'}
    assert found.returns == 'Float[Tensor, "*batch 4"]'


def test_none_in_some_calls_is_optional_and_does_not_break_symbols():
    none = {"t": "none"}
    found = infer(record(["x", "mask"], ({"x": tensor(2, 5), "mask": none}, tensor(2)),
                         ({"x": tensor(3, 5), "mask": tensor(3, 5, dtype="bool")}, tensor(3))))
    assert found.params == {"x": 'Float[Tensor, "B 5"]', "mask": 'Optional[Bool[Tensor, "B 5"]]'}
    assert found.optional and found.dtypes == {"Float", "Bool"}


def test_tuples_of_tensors_and_dtype_families():
    ret = {"t": "tuple", "items": [tensor(2, 3), tensor(2, dtype="int64")]}
    ret2 = {"t": "tuple", "items": [tensor(4, 3), tensor(4, dtype="int64")]}
    found = infer(record(["x"], ({"x": tensor(2, 3, dtype="bfloat16")}, ret), ({"x": tensor(4, 3, dtype="float16")}, ret2)))
    assert found.returns == 'tuple[Float[Tensor, "B 3"], Int[Tensor, "B"]]'
    assert found.params == {"x": 'Float[Tensor, "B 3"]'}


def test_values_that_are_not_always_tensors_get_no_annotation():
    found = infer(record(["x"], ({"x": tensor(2)}, {"t": "int", "v": 1}), ({"x": {"t": "other"}}, tensor(3))))
    assert found.params == {} and found.returns is None


def test_mixed_dtype_families_are_shaped():
    found = infer(record(["x"], ({"x": tensor(2)}, None), ({"x": tensor(3, dtype="int64")}, None)))
    assert found.params == {"x": 'Shaped[Tensor, "N"]'}


def test_sizes_one_run_never_varied_are_literals_with_a_note():
    one_run = record(["x"], ({"x": tensor(8, 3)}, tensor(8)), ({"x": tensor(8, 3)}, tensor(8)))
    for call in one_run.calls:
        call["run"] = "one"
    found = infer(one_run)
    assert found.params == {"x": 'Float[Tensor, "8 3"]'}
    assert len(found.notes) == 1 and "x.shape[0], return.shape[0], x.shape[1]" in found.notes[0]
    assert "another batch size" in found.notes[0]
    for run, call in enumerate(one_run.calls):
        call["run"] = run
    assert infer(one_run).notes == []  # two runs that agree: the sizes are what the code always uses


def test_a_raising_call_gives_no_return_annotation():
    calls = [{"args": {"x": tensor(2)}, "return": tensor(2)}, {"args": {"x": tensor(3)}, "raised": True,
                                                               "return": {"t": "none"}}]
    assert infer(FunctionRecord("m", "f", "/m.py", 1, "h", ["x"], calls)).returns is None
