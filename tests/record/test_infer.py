"""Symbols, literals and names inferred from recorded sizes (no torch needed: records are plain data)."""

from __future__ import annotations

import pytest

from shapecheck.record.infer import Spelling, dtype_class, infer
from shapecheck.record.store import FunctionRecord


def tensor(*shape: int, dtype: str = "float32") -> dict:
    return {"t": "tensor", "shape": list(shape), "dtype": dtype, "device": "cpu"}


def integer(value: int) -> dict:
    return {"t": "int", "v": value}


def record(params: list[str], *calls: tuple[dict, dict | None], qualname: str = "f", **fields) -> FunctionRecord:
    # Each call from a run of its own, as after `shapecheck record` at several batch sizes.
    return FunctionRecord("m", qualname, "/m.py", 1, "h", params,
                          [{"run": run, "args": args, **({"return": ret} if ret is not None else {})}
                           for run, (args, ret) in enumerate(calls)], **fields)


def test_sizes_that_vary_together_are_one_symbol_and_constant_sizes_stay_literals():
    found = infer(record(["h", "w"], ({"h": tensor(2, 8), "w": tensor(8, 11)}, tensor(2, 11)),
                         ({"h": tensor(5, 8), "w": tensor(8, 11)}, tensor(5, 11))))
    assert found.params == {"h": 'Float[Tensor, "B 8"]', "w": 'Float[Tensor, "8 11"]'}
    assert found.returns == 'Float[Tensor, "B 11"]'


def test_a_size_equal_in_one_call_only_is_not_a_symbol():
    found = infer(record(["a", "b"], ({"a": tensor(3, 4), "b": tensor(3, 4)}, None),
                         ({"a": tensor(5, 4), "b": tensor(6, 4)}, None)))
    assert found.params == {"a": 'Float[Tensor, "B 4"]', "b": 'Float[Tensor, "N 4"]'}


def test_equal_sizes_are_one_symbol_only_over_two_different_sizes():
    # Batch 4 and 4 heads in both calls: equal every time, but never seen apart, so no evidence they are one size.
    calls = [({"x": tensor(b, 4, 16), "h": tensor(4, 16)}, None) for b in (2, 3)]
    calls += [({"x": tensor(4, 4, 16), "h": tensor(4, 16)}, None)]
    found = infer(record(["x", "h"], *calls))
    assert found.params == {"x": 'Float[Tensor, "B 4 16"]', "h": 'Float[Tensor, "4 16"]'}


def test_two_dims_of_one_tensor_are_not_one_symbol_because_test_images_are_square():
    calls = [({"img": tensor(b, 3, s, s)}, tensor(b, 8, s // 2, s // 2)) for b, s in [(1, 64), (2, 96)]]
    found = infer(record(["img"], *calls))
    assert found.params == {"img": 'Float[Tensor, "B 3 N M"]'}
    assert found.returns == 'Float[Tensor, "B 8 K L"]'
    # Across tensors the same size at the same axis is one symbol.
    calls = [({"img": tensor(b, 3, s, s)}, tensor(b, 8, s, s)) for b, s in [(1, 64), (2, 96)]]
    assert infer(record(["img"], *calls)).returns == 'Float[Tensor, "B 8 N M"]'


def test_names_from_the_code_win_and_name_constant_sizes_too():
    calls = [({"x": tensor(b, t, 16)}, tensor(b, t, 16)) for b, t in [(2, 5), (3, 7)]]
    found = infer(record(["self", "x"], *calls), {("x", 0): "batch", ("x", 1): "seq", ("x", 2): "C"})
    assert found.params == {"x": 'Float[Tensor, "batch seq C"]'}
    assert found.returns == 'Float[Tensor, "batch seq C"]'  # the same constant, named once


def test_a_code_name_with_a_leading_underscore_loses_it_as_jaxtyping_would_not_check_it():
    calls = [({"x": tensor(b, 16)}, None) for b in (2, 3)]
    assert infer(record(["x"], *calls), {("x", 0): "_bsz"}).params == {"x": 'Float[Tensor, "bsz 16"]'}


def test_negative_axes_in_the_code_name_the_last_dims():
    calls = [({"x": tensor(b, 16)}, None) for b in (2, 3)]
    assert infer(record(["x"], *calls), {("x", -1): "D"}).params == {"x": 'Float[Tensor, "B D"]'}


def test_int_parameters_and_self_attributes_name_sizes_that_equal_them():
    calls = [({"x": tensor(b, n), "n": integer(n)}, None) for b, n in [(2, 7), (3, 9)]]
    assert infer(record(["x", "n"], *calls)).params == {"x": 'Float[Tensor, "B n"]'}
    calls = [{"args": {"self": {"t": "other"}, "x": tensor(4, d)}, "self_ints": {"n_embd": d}} for d in (8, 12)]
    found = infer(FunctionRecord("m", "M.forward", "/m.py", 1, "h", ["self", "x"], calls))
    assert found.params == {"x": 'Float[Tensor, "4 n_embd"]'}


def test_a_setting_names_a_size_that_never_varied_so_another_width_still_fits():
    # self.config.n_embd (recorded among self_ints) and a config object passed in (dims.n_audio_state).
    calls = [{"run": run, "args": {"self": {"t": "other"}, "x": tensor(b, 5, 32),
                                   "dims": {"t": "config", "ints": {"n_audio_state": 64, "n_vocab": 51865}},
                                   "audio": tensor(b, 7, 64)},
              "self_ints": {"n_embd": 32, "n_head": 4}, "return": tensor(b, 5, 51865)} for run, b in enumerate((2, 3))]
    found = infer(FunctionRecord("m", "M.forward", "/m.py", 1, "h", ["self", "x", "dims", "audio"], calls))
    assert found.params == {"x": 'Float[Tensor, "B 5 n_embd"]', "audio": 'Float[Tensor, "B 7 n_audio_state"]'}
    assert found.returns == 'Float[Tensor, "B 5 n_vocab"]'
    assert "x.shape[1]" in found.notes[0] and "audio.shape[1]" in found.notes[0]


def test_two_settings_of_the_same_value_name_nothing():
    calls = [{"args": {"self": {"t": "other"}, "x": tensor(b, 4)}, "self_ints": {"n_head": 4, "n_layer": 4}}
             for b in (2, 3)]
    assert infer(FunctionRecord("m", "M.f", "/m.py", 1, "h", ["self", "x"], calls)).params == {
        "x": 'Float[Tensor, "B 4"]'}


def test_a_size_fixed_by_a_module_constant_is_pinned_and_named():
    calls = [({"mel": tensor(b, 80, 3000)}, None) for b in (2, 3)]
    found = infer(record(["mel"], *calls, constants={"N_FRAMES": 3000, "N_MELS": 80, "HOP": 160}))
    assert found.params == {"mel": 'Float[Tensor, "B N_MELS=80 N_FRAMES=3000"]'}


def test_a_caller_symbol_names_the_size_it_passes():
    calls = [({"x": tensor(b, 32)}, tensor(b, 32)) for b in (2, 3)]
    found = infer(record(["x"], *calls), inherited={("x", 1): "n_embd", ("x", 0): "batch"})
    assert found.params == {"x": 'Float[Tensor, "batch n_embd"]'} and found.returns == 'Float[Tensor, "batch n_embd"]'
    assert found.symbols == {("x", 0): "batch", ("x", -2): "batch", ("x", 1): "n_embd", ("x", -1): "n_embd"}


def test_roles_name_batch_and_sequence_dims():
    calls = [({"x": tensor(b, t, 4)}, None) for b, t in [(2, 5), (3, 7)]]
    assert infer(record(["x"], *calls)).params == {"x": 'Float[Tensor, "B T 4"]'}
    # A dim that is first in one tensor and second in another is not the batch.
    calls = [({"freqs": tensor(t, 4), "x": tensor(b, t, 2, 4)}, None) for b, t in [(2, 5), (3, 7)]]
    assert infer(record(["freqs", "x"], *calls)).params == {"freqs": 'Float[Tensor, "N 4"]',
                                                            "x": 'Float[Tensor, "B N 2 4"]'}


def test_a_leading_group_that_varies_in_rank_is_star_batch():
    found = infer(record(["x"], ({"x": tensor(4, 6)}, tensor(4)), ({"x": tensor(2, 4, 6)}, tensor(2, 4))))
    assert found.params == {"x": 'Float[Tensor, "*batch 4 6"]'}
    assert found.returns == 'Float[Tensor, "*batch 4"]'


def test_none_in_some_calls_is_optional_and_a_dim_seen_once_is_the_one_it_equals():
    none = {"t": "none"}
    found = infer(record(["x", "mask"], ({"x": tensor(2, 5), "mask": none}, tensor(2)),
                         ({"x": tensor(3, 5), "mask": tensor(3, 5, dtype="bool")}, tensor(3))))
    assert found.params == {"x": 'Float[Tensor, "B 5"]', "mask": 'Optional[Bool[Tensor, "B 5"]]'}
    assert found.optional and found.dtypes == {"Float", "Bool"}
    union = infer(record(["x", "mask"], ({"x": tensor(2, 5), "mask": none}, None),
                         ({"x": tensor(3, 5), "mask": tensor(3, 5)}, None)), spelling=Spelling(union=True))
    assert union.params["mask"] == 'Float[Tensor, "B 5"] | None' and not union.optional


def test_tuples_of_tensors_with_single_name_shapes_spaced_for_flake8():
    ret = {"t": "tuple", "items": [tensor(2, 3), tensor(2, dtype="int64")]}
    ret2 = {"t": "tuple", "items": [tensor(4, 3), tensor(4, dtype="int64")]}
    found = infer(record(["x"], ({"x": tensor(2, 3, dtype="bfloat16")}, ret), ({"x": tensor(4, 3, dtype="float16")}, ret2)))
    assert found.returns == 'tuple[Float[Tensor, "B 3"], Int[Tensor, " B"]]'
    assert found.params == {"x": 'Float[Tensor, "B 3"]'}
    assert infer(record(["x"], ({"x": tensor(2, 3)}, ret), ({"x": tensor(4, 3)}, ret2)),
                 spelling=Spelling(tuple="Tuple")).returns.startswith("Tuple[")


def test_mixed_tuples_lists_of_tensors_and_optional_tuples():
    def call(b: int, cache: bool) -> tuple[dict, dict]:
        kv = {"t": "tuple", "items": [tensor(b, 8), tensor(b, 8)]} if cache else {"t": "none"}
        layers = {"t": "list", "items": [tensor(b, 6, 8), tensor(b, 6, 8)]}
        returned = {"t": "tuple", "items": [tensor(b, 8), integer(b * 6), {"t": "none"}, {"t": "float"}]}
        return {"x": tensor(b, 8), "kv": kv, "layers": layers}, returned

    found = infer(record(["x", "kv", "layers"], call(2, False), call(3, True), call(5, True)))
    assert found.params == {"x": 'Float[Tensor, "B 8"]', "kv": 'Optional[tuple[Float[Tensor, "B 8"], '
                                                               'Float[Tensor, "B 8"]]]',
                            "layers": 'list[Float[Tensor, "B 6 8"]]'}
    assert found.returns == 'tuple[Float[Tensor, "B 8"], int, None, float]'
    assert infer(record(["xs"], ({"xs": {"t": "list", "items": [tensor(2, 4), tensor(2, 6)]}}, None),
                        ({"xs": {"t": "list", "items": [tensor(3, 4)]}}, None)),
                 spelling=Spelling(list="List")).params == {"xs": 'List[Float[Tensor, "B _"]]'}


@pytest.mark.parametrize("dtypes, expected", [
    ({"uint8"}, "UInt8"), ({"uint8", "uint16"}, "UInt"), ({"int64"}, "Int"), ({"int32", "uint8"}, "Integer"),
    ({"float32", "bfloat16"}, "Float"), ({"complex64"}, "Complex"), ({"float32", "complex64"}, "Inexact"),
    ({"float32", "int64"}, "Real"), ({"complex64", "int64"}, "Num"), ({"bool"}, "Bool"),
    ({"bool", "float32"}, "Shaped"), ({"qint8"}, "Shaped"),
])
def test_dtypes_map_to_jaxtyping_s_exact_classes(dtypes, expected):
    assert dtype_class(dtypes) == expected


def test_a_uint8_image_is_annotated_so_that_its_own_calls_pass():
    jaxtyping = pytest.importorskip("jaxtyping")
    torch = pytest.importorskip("torch")
    found = infer(record(["img"], ({"img": tensor(2, 3, dtype="uint8")}, None), ({"img": tensor(4, 3, dtype="uint8")},
                                                                                None)))
    assert found.params == {"img": 'UInt8[Tensor, "B 3"]'}
    hint = getattr(jaxtyping, "UInt8")[torch.Tensor, "B 3"]
    assert isinstance(torch.zeros(4, 3, dtype=torch.uint8), hint)


def test_values_that_are_not_always_tensors_get_no_annotation():
    found = infer(record(["x"], ({"x": tensor(2)}, integer(1)), ({"x": {"t": "other"}}, tensor(3))))
    assert found.params == {} and found.returns is None


def test_sizes_that_never_varied_are_noted_with_the_function_after_one_run_or_two():
    one_run = record(["x"], ({"x": tensor(8, 3)}, tensor(8)), ({"x": tensor(8, 3, dtype="float64")}, tensor(8)))
    for call in one_run.calls:
        call["run"] = "one"
    found = infer(one_run)
    assert found.params == {"x": 'Float[Tensor, "8 3"]'}
    assert len(found.notes) == 1 and found.notes[0].startswith("f: one run recorded it")
    assert "x.shape[0], x.shape[1], return.shape[0]" in found.notes[0]
    for run, call in enumerate(one_run.calls):
        call["run"] = run
    notes = infer(one_run).notes  # two runs that never varied it: still worth a look
    assert len(notes) == 1 and notes[0].startswith("f: 2 calls in 2 runs recorded it")
    kept = record(["x"], ({"x": tensor(2, 1)}, None), ({"x": tensor(3, 1)}, None))
    assert infer(kept).notes == []  # a size of 1 is a kept or broadcast dim


def test_a_raising_call_gives_no_return_annotation():
    calls = [{"args": {"x": tensor(2)}, "return": tensor(2)}, {"args": {"x": tensor(3)}, "raised": True,
                                                               "return": {"t": "none"}}]
    assert infer(FunctionRecord("m", "f", "/m.py", 1, "h", ["x"], calls)).returns is None
