"""The recorder with real tensors: which calls it keeps, what it keeps of them, and `shapecheck record`."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from shapecheck.record.recorder import Recorder
from shapecheck.record.store import load, save

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "recpkg").mkdir()
    (tmp_path / "recpkg" / "__init__.py").write_text(textwrap.dedent('''
        def double(x):
            return x * 2

        def pair(x, n):
            return (x, [x.sum()], {"n": n})

        def numbers():
            yield 1

        def boom(x):
            raise ValueError("no")

        class Net:
            def __init__(self):
                self.width = 4

            def forward(self, x):
                return x[:, : self.width]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("recpkg", None)
    yield tmp_path
    sys.modules.pop("recpkg", None)


def test_only_the_first_calls_of_the_chosen_packages_are_kept(module):
    with Recorder(packages=["recpkg"], calls=2) as recorder:
        import recpkg

        for n in range(5):
            recpkg.double(torch.ones(n + 1, 3))
        torch.nn.functional.relu(torch.ones(2))  # torch's own functions are not recorded
    calls = recorder.functions["recpkg:double"].calls
    assert [call["args"]["x"]["shape"] for call in calls] == [[1, 3], [2, 3]]
    assert calls[0]["return"] == {"t": "tensor", "shape": [1, 3], "dtype": "float32", "device": "cpu"}
    assert set(recorder.functions) == {"recpkg:double"}


def test_containers_ints_self_attributes_generators_and_exceptions(module):
    with Recorder(packages=["recpkg"]) as recorder:
        import recpkg

        recpkg.pair(torch.zeros(2, dtype=torch.int64), 7)
        list(recpkg.numbers())
        with pytest.raises(ValueError):
            recpkg.boom(torch.ones(1))
        recpkg.Net().forward(torch.ones(2, 6, dtype=torch.bool))
    returned = recorder.functions["recpkg:pair"].calls[0]["return"]
    assert returned["t"] == "tuple" and returned["items"][1]["items"][0]["shape"] == []
    assert returned["items"][2] == {"t": "dict", "items": {"n": {"t": "int", "v": 7}}}
    assert "recpkg:numbers" not in recorder.functions  # generators yield many times: no one return to record
    assert recorder.functions["recpkg:boom"].calls[0]["raised"] is True
    forward = recorder.functions["recpkg:Net.forward"].calls[0]
    assert forward["self_ints"] == {"width": 4} and forward["return"]["shape"] == [2, 4]


def test_the_entry_budget_stops_recording(module):
    with Recorder(packages=["recpkg"], max_entries=3) as recorder:
        import recpkg

        for _ in range(10):
            recpkg.double(torch.ones(1))
    assert recorder.entries == 3 and recorder.truncated


def test_runs_merge_and_changed_code_replaces_its_entry(module, tmp_path: Path):
    path = tmp_path / "out" / "record.json"
    for size in (2, 3):
        with Recorder(packages=["recpkg"]) as recorder:
            import recpkg

            recpkg.double(torch.ones(size))
        recorder.save(path)
    entry = load(path)["recpkg:double"]
    assert [call["args"]["x"]["shape"] for call in entry.calls] == [[2], [3]]
    entry.file_hash = "other"
    save(path, {"recpkg:double": entry})
    assert len(load(path)["recpkg:double"].calls) == 2  # replaced, not doubled
    assert json.loads(path.read_text())["version"] == 1


def test_shapecheck_record_runs_a_script_and_keeps_its_exit_code(tmp_path: Path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent('''
        import sys
        import torch

        def step(x):
            return x.sum(dim=0)

        step(torch.ones(int(sys.argv[1]), 3))
        sys.exit(3)
    '''))
    command = [sys.executable, "-m", "shapecheck", "record", "--", "python", str(script), "5"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "recorded 1 calls of 1 functions" in done.stderr
    entry = load(tmp_path / ".shapecheck" / "record.json")["__main__:step"]
    assert entry.calls[0]["args"]["x"]["shape"] == [5, 3] and entry.file == str(script.resolve())
