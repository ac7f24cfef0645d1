"""Writing annotations into source with libcst: formatting kept, imports once, existing annotations respected."""

from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from shapecheck.cli import main
from shapecheck.record.annotate import annotate_paths, annotate_source
from shapecheck.record.reading import code_names
from shapecheck.record.store import FunctionRecord, file_hash, save
from tests.helpers import codes_of, lint

import libcst as cst


def tensor(*shape: int, dtype: str = "float32") -> dict:
    return {"t": "tensor", "shape": list(shape), "dtype": dtype, "device": "cpu"}


def two_calls(qualname: str, params: list[str], file: str = "/m.py", digest: str = "h") -> FunctionRecord:
    calls = [{"args": {name: tensor(b, 4) for name in params if name != "self"}, "return": tensor(b, 4)}
             for b in (2, 3)]
    return FunctionRecord("m", qualname, file, 1, digest, params, calls)


def annotated(source: str, *records: FunctionRecord, **options) -> str:
    result = annotate_source(textwrap.dedent(source), records, **options)
    assert result.error is None
    return result.new


def test_annotations_and_imports_are_added_once_with_comments_kept():
    new = annotated('''
        """Doc."""
        from __future__ import annotations

        import torch


        def f(x):  # keep me
            return x * 2


        def g(y, /, *, z=None):
            return y + 1
    ''', two_calls("f", ["x"]), two_calls("g", ["y"]))
    assert new == textwrap.dedent('''
        """Doc."""
        from __future__ import annotations

        import torch
        from jaxtyping import Float
        from torch import Tensor


        def f(x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:  # keep me
            return x * 2


        def g(y: Float[Tensor, "B 4"], /, *, z=None) -> Float[Tensor, "B 4"]:
            return y + 1
    ''')


def test_existing_imports_are_extended_and_an_existing_tensor_import_is_reused():
    new = annotated('''
        from jaxtyping import Int
        from torch import Tensor

        def f(x):
            return x.abs()
    ''', two_calls("f", ["x"]))
    assert new.startswith("\nfrom jaxtyping import Float, Int\nfrom torch import Tensor\n")
    assert new.count("import") == 2


def test_another_tensor_name_in_the_file_means_torch_dot_tensor():
    new = annotated('''
        import torch
        from mylib import Tensor

        def f(x):
            return x.abs()
    ''', two_calls("f", ["x"]))
    assert 'def f(x: Float[torch.Tensor, "B 4"]) -> Float[torch.Tensor, "B 4"]:' in new
    assert "from torch import Tensor" not in new


def test_existing_annotations_are_kept_unless_overwrite():
    source = '''
        def f(x: "Float[Tensor, 'N 4']"):
            return x.abs()
    '''
    kept = annotated(source, two_calls("f", ["x"]))
    assert "x: \"Float[Tensor, 'N 4']\"" in kept and '-> Float[Tensor, "B 4"]' in kept
    replaced = annotated(source, two_calls("f", ["x"]), overwrite=True)
    assert 'x: Float[Tensor, "B 4"]' in replaced


def test_methods_and_nested_functions_are_found_by_qualname():
    new = annotated('''
        class M:
            def forward(self, x):
                def inner(y):
                    return -y
                return inner(x)
    ''', two_calls("M.forward", ["self", "x"]), two_calls("M.forward.<locals>.inner", ["y"]))
    assert 'def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:' in new
    assert 'def inner(y: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:' in new


def test_decorate_adds_the_check_once():
    source = '''
        import shapecheck

        @shapecheck.check
        def f(x):
            return x.abs()

        def g(x):
            return x.abs()
    '''
    new = annotated(source, two_calls("f", ["x"]), two_calls("g", ["x"]), decorate=True)
    assert new.count("@shapecheck.check") == 2 and new.count("import shapecheck") == 1


def test_a_parameter_defaulting_to_none_is_optional_and_gets_pep8_spacing():
    record = two_calls("f", ["x", "y"])
    new = annotated("import torch\n\n\ndef f(x, y=None):\n    return x + y\n", record)
    assert 'y: Optional[Float[Tensor, "B 4"]] = None' in new and "from typing import Optional\n" in new
    union = annotated("import torch\n\n\ndef f(x, y=None):\n    return x + y\n\n\ndef g(a: int | None):\n"
                      "    pass\n", record)
    assert 'y: Float[Tensor, "B 4"] | None = None' in union and "Optional" not in union


def test_a_default_the_hint_would_not_admit_leaves_the_parameter_alone():
    lists = FunctionRecord("m", "f", "/m.py", 1, "h", ["x", "xs", "n"], [
        {"args": {"x": tensor(b, 4), "xs": {"t": "list", "items": [tensor(b, 4)]}, "n": tensor(b, 4)},
         "return": tensor(b, 4)} for b in (2, 3)])
    new = annotated("def f(x, xs=[], n=0):\n    return x * n\n", lists)
    assert "xs: list[Float[Tensor, \"B 4\"]] = [], n=0\n" in new


def test_plain_tensor_hints_are_upgraded_keeping_optional_unless_keep_plain():
    source = '''
        from typing import Optional, Tuple

        import torch


        def f(x: torch.Tensor, y: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
            return x.abs(), x.abs()
    '''
    record = FunctionRecord("m", "f", "/m.py", 1, "h", ["x", "y"], [
        {"args": {"x": tensor(b, 4), "y": tensor(b, 4)}, "return": {"t": "tuple", "items": [tensor(b, 4)] * 2}}
        for b in (2, 3)])
    new = annotated(source, record)
    assert ('def f(\n    x: Float[Tensor, "B 4"], y: Optional[Float[Tensor, "B 4"]] = None\n'
            ') -> Tuple[Float[Tensor, "B 4"], Float[Tensor, "B 4"]]:') in new
    assert "from typing import Optional, Tuple\n" in new  # Tuple is still used: no unused import left behind
    assert annotated(source, record, keep_plain=True) == textwrap.dedent(source)
    other = FunctionRecord("m", "f", "/m.py", 1, "h", ["x", "y"], [
        {"args": {"x": tensor(b, 4), "y": tensor(b, 4)}, "return": tensor(b, 4)} for b in (2, 3)])
    assert "-> Tuple[torch.Tensor, torch.Tensor]:" in annotated(source, other)  # another structure: kept


def test_overwrite_keeps_an_existing_optional():
    source = '''
        from typing import Optional

        from jaxtyping import Float
        from torch import Tensor


        def f(x: Float[Tensor, "N 4"], y: Optional[Float[Tensor, "N 4"]] = None):
            return x + y
    '''
    record = two_calls("f", ["x", "y"])
    kept = annotated(source, record)
    assert 'x: Float[Tensor, "N 4"], y: Optional[Float[Tensor, "N 4"]] = None\n) -> Float[Tensor, "B 4"]:' in kept
    new = annotated(source, record, overwrite=True)
    assert 'def f(\n    x: Float[Tensor, "B 4"], y: Optional[Float[Tensor, "B 4"]] = None\n) -> Float' in new
    # A replaced `Tuple[...]` is written `Tuple[...]` again: the file's import of it stays used.
    pair = FunctionRecord("m", "g", "/m.py", 1, "h", ["x"], [
        {"args": {"x": tensor(b, 4)}, "return": {"t": "tuple", "items": [tensor(b, 4)] * 2}} for b in (2, 3)])
    source = "from typing import Tuple\n\nfrom jaxtyping import Float\nfrom torch import Tensor\n\n\n" \
             'def g(x) -> Tuple[Float[Tensor, "N 4"], Float[Tensor, "N 4"]]:\n    return x, x.abs()\n'
    new = annotated(source, pair, overwrite=True)
    assert '-> Tuple[Float[Tensor, "B 4"], Float[Tensor, "B 4"]]:' in new and new.startswith("from typing import Tuple")


def test_generic_helpers_that_pass_values_through_get_no_tensor_hints():
    source = '''
        def exists(val):
            return val is not None


        def default(val, d):
            return val if exists(val) else d


        def cast_tuple(val, depth=1):
            return val if isinstance(val, tuple) else (val,) * depth


        def scale(x, d):
            return x * 2 if exists(x) else d
    '''
    records = [two_calls(name, params) for name, params in
               [("exists", ["val"]), ("default", ["val", "d"]), ("scale", ["x", "d"])]]
    new = annotated(source, *records)
    assert "def exists(val):" in new and "def default(val, d):" in new
    assert 'def scale(x: Float[Tensor, "B 4"], d: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:' in new


def test_a_size_a_caller_passes_on_takes_the_caller_s_symbol_so_the_linter_agrees():
    source = '''
        import torch


        def norm(h):
            return h / h.norm(dim=-1, keepdim=True)


        class Block(torch.nn.Module):
            def forward(self, x):
                return self.mix(norm(x))

            def mix(self, y):
                return y * 2
    '''
    def calls(name: str, self_ints: bool = True) -> list[dict]:
        return [{"args": {name: tensor(b, t, 32)}, "return": tensor(b, t, 32),
                 **({"self_ints": {"n_embd": 32}} if self_ints else {})} for b, t in [(2, 5), (3, 7)]]

    block = FunctionRecord("m", "Block.forward", "/m.py", 1, "h", ["self", "x"], calls("x"))
    mix = FunctionRecord("m", "Block.mix", "/m.py", 1, "h", ["self", "y"], calls("y"))
    norm = FunctionRecord("m", "norm", "/m.py", 1, "h", ["h"], calls("h", self_ints=False))
    new = annotated(source, block, norm, mix)
    assert 'def norm(h: Float[Tensor, "B T n_embd"]) -> Float[Tensor, "B T n_embd"]:' in new
    assert 'def forward(self, x: Float[Tensor, "B T n_embd"]) -> Float[Tensor, "B T n_embd"]:' in new
    assert lint(new, "SC108").findings == []
    # Without the caller the helper's width is a literal, and the linter rightly calls the pair a contradiction.
    alone = annotated(source, block)
    helper = annotate_source(alone, [norm]).new
    assert 'def norm(h: Float[Tensor, "B T 32"])' in helper and codes_of(lint(helper, "SC108")) == ["SC108"]


def test_code_names_reads_shape_unpacking_and_single_sizes():
    function = cst.parse_statement(textwrap.dedent('''
        def f(x, y):
            B, T, _ = x.size()
            if True:
                d = y.shape[-1]
            n = y.size(0)
            def inner(x):
                Z = x.size(0)
    '''))
    assert code_names(function) == {("x", 0): "B", ("x", 1): "T", ("y", -1): "d", ("y", 0): "n"}


def test_a_changed_file_is_refused_and_the_cli_says_so(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "m.py"
    source.write_text("def f(x):\n    return x.abs()\n")
    save(tmp_path / "record.json", {"m:f": two_calls("f", ["x"], str(source), file_hash(source))})
    runner = CliRunner()
    result = runner.invoke(main, ["annotate", "--record", "record.json", "--diff", "."])
    assert result.exit_code == 1 and '+def f(x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:' in result.output
    assert source.read_text() == "def f(x):\n    return x.abs()\n"  # --diff writes nothing
    assert runner.invoke(main, ["annotate", "--record", "record.json"]).exit_code == 0
    assert "Float" in source.read_text()
    again = runner.invoke(main, ["annotate", "--record", "record.json"])
    assert again.exit_code == 2 and "changed since it was recorded" in again.output
    assert annotate_paths({}, [tmp_path]) == []


def test_missing_or_broken_record_is_a_clear_error(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["annotate", "--record", "nothing.json"])
    assert result.exit_code == 2 and "no record" in result.output
    (tmp_path / "bad.json").write_text("{")
    result = runner.invoke(main, ["annotate", "--record", "bad.json"])
    assert result.exit_code == 2 and "bad.json: not a shapecheck record" in result.output


def test_annotating_twice_changes_nothing():
    record = two_calls("f", ["x"])
    once = annotated("import torch\n\ndef f(x):\n    return x.abs()\n", record)
    assert annotated(once, record) == once
