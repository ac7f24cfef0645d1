"""Writing annotations into source with libcst: formatting kept, imports once, existing annotations respected."""

from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from shapecheck.cli import main
from shapecheck.record.annotate import annotate_paths, annotate_source
from shapecheck.record.reading import code_names
from shapecheck.record.store import FunctionRecord, file_hash, save

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


def test_a_parameter_with_a_default_gets_pep8_spacing():
    record = two_calls("f", ["x", "y"])
    assert 'y: Float[Tensor, "B 4"] = None' in annotated("def f(x, y=None):\n    return x + y\n", record)


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
