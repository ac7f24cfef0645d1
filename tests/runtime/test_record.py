"""The recorder with real tensors: which calls it keeps, what it keeps of them, and `shapecheck record`."""

from __future__ import annotations

import json
import os
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

        N_FRAMES = 3000

        @dataclasses.dataclass
        class GPTConfig:
            n_embd: int = 32
            dropout: float = 0.1

        Dims = collections.namedtuple("Dims", "n_audio_state n_vocab")

        class Block:
            def __init__(self):
                self.config = GPTConfig()
                self._hidden = 64
                self.name = "block"

            def forward(self, x, dims):
                return x

        def make(batch_size, seq_len):
            return torch.zeros(batch_size, seq_len)
    ''').replace("\n", "\nimport collections, dataclasses, torch\n", 1))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("recpkg", None)
    yield tmp_path
    sys.modules.pop("recpkg", None)


def test_one_call_per_shape_signature_is_kept_so_a_later_batch_size_is_not_lost(module):
    with Recorder(packages=["recpkg"], calls=2) as recorder:
        import recpkg

        for _ in range(50):  # a hot function at batch 1 ...
            recpkg.double(torch.ones(1, 16))
        recpkg.double(torch.ones(4, 16))  # ... then at batch 4
        recpkg.double(torch.ones(4, 16, dtype=torch.float64))  # a third signature: past --calls 2
        torch.nn.functional.relu(torch.ones(2))  # torch's own functions are not recorded
    calls = recorder.functions["recpkg:double"].calls
    assert [call["args"]["x"]["shape"] for call in calls] == [[1, 16], [4, 16]]
    assert calls[0]["return"] == {"t": "tensor", "shape": [1, 16], "dtype": "float32", "device": "cpu"}
    assert recorder.entries == 2 and set(recorder.functions) == {"recpkg:double"}


def test_a_function_without_tensor_arguments_is_sampled_by_its_ints(module):
    with Recorder(packages=["recpkg"]) as recorder:
        import recpkg

        for batch in (2, 2, 3):
            recpkg.make(batch, 5)
    assert [call["return"]["shape"] for call in recorder.functions["recpkg:make"].calls] == [[2, 5], [3, 5]]


def test_settings_of_configuration_objects_and_module_constants_are_kept(module):
    with Recorder(packages=["recpkg"]) as recorder:
        import recpkg

        recpkg.Block().forward(torch.ones(2, 32), recpkg.Dims(64, 51865))
    entry = recorder.functions["recpkg:Block.forward"]
    call = entry.calls[0]
    assert call["self_ints"] == {"hidden": 64, "n_embd": 32}
    assert call["args"]["dims"] == {"t": "config", "ints": {"n_audio_state": 64, "n_vocab": 51865}}
    assert entry.constants == {"N_FRAMES": 3000}


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

        for size in range(10):
            recpkg.double(torch.ones(size))
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
    with Recorder(packages=["recpkg"]) as recorder:  # a repeat of a signature adds nothing
        recpkg.double(torch.ones(3))
    recorder.save(path)
    assert len(load(path)["recpkg:double"].calls) == 2
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
    # The interpreter named by its path, as scripts and Makefiles do: this one, then another environment's.
    command[5] = sys.executable
    done = subprocess.run([*command[:-1], "6"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    shapes = [call["args"]["x"]["shape"] for call in load(tmp_path / ".shapecheck" / "record.json")["__main__:step"].calls]
    assert shapes == [[5, 3], [6, 3]]


def test_shapecheck_record_runs_the_program_under_another_environment_s_interpreter(tmp_path: Path):
    # A venv that can see this one's packages (torch) but not shapecheck's install: the program must run there.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(tmp_path / "venv")],
                   check=True, timeout=120)
    python = tmp_path / "venv" / "bin" / "python"
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent('''
        import sys

        def where(n):
            return sys.prefix

        print(where(3))
    '''))
    command = [sys.executable, "-m", "shapecheck", "record", "-o", "out.json", "--", str(python), str(script)]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "venv")  # it ran in that environment, not in this process
    assert load(tmp_path / "out.json")["__main__:where"].calls[0]["args"]["n"] == {"t": "int", "v": 3}
    bad = subprocess.run([*command[:-1], str(tmp_path / "missing.py")], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and "missing.py: no such file" in bad.stderr
