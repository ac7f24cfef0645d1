"""Record -> annotate -> check, end to end, on a small package with its own tests (issue 10's acceptance test).

The package's tests are recorded through the pytest plugin at two batch sizes and sequence lengths, `shapecheck
annotate` writes the annotations, the tests pass again under `--shapecheck` and under torch.compile, and a shape
bug injected afterwards is caught at run time and by the linter (SC108, in the annotation's own symbols).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PACKAGE = {
    "tinymodel/__init__.py": "",
    "tinymodel/model.py": '''
        import torch
        import torch.nn.functional as F
        from torch import nn


        class SelfAttention(nn.Module):
            def __init__(self, n_embd, n_head):
                super().__init__()
                self.n_head = n_head
                self.qkv = nn.Linear(n_embd, 3 * n_embd)
                self.proj = nn.Linear(n_embd, n_embd)

            def forward(self, x):
                B, T, C = x.size()
                q, k, v = self.qkv(x).split(C, dim=2)
                q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


        class Head(nn.Module):
            def __init__(self, n_embd, n_classes):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(n_embd, 32), nn.GELU(), nn.Linear(32, n_classes))

            def forward(self, h):
                return self.net(h.mean(dim=1))


        def normalize(x):
            return (x - x.mean(dim=-1, keepdim=True)) / (x.std(dim=-1, keepdim=True) + 1e-5)
    ''',
    "tinymodel/data.py": '''
        import torch


        def make_batch(batch_size, seq_len, n_embd):
            return torch.randn(batch_size, seq_len, n_embd), torch.randint(0, 3, (batch_size,))
    ''',
    "tests/test_tinymodel.py": '''
        import os

        import torch
        import torch.nn.functional as F

        from tinymodel.data import make_batch
        from tinymodel.model import Head, SelfAttention, normalize

        B, T = int(os.environ.get("BATCH", 2)), int(os.environ.get("SEQ", 5))


        def test_a_training_step():
            x, y = make_batch(B, T, 16)
            logits = Head(16, 3)(SelfAttention(16, 4)(normalize(x)))
            assert logits.shape == (B, 3)
            F.cross_entropy(logits, y).backward()


        def test_compiled_attention():
            attention = SelfAttention(16, 4)
            x, _ = make_batch(B, T, 16)
            torch.testing.assert_close(torch.compile(attention, backend="eager")(x), attention(x))
    ''',
}


def pytest_run(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    # Prepend: shapecheck itself may come from PYTHONPATH (a machine where it is not installed in site-packages).
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(project), os.environ.get("PYTHONPATH")])),
                   **env}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *args,
                           "tests"], cwd=project, env=environment, capture_output=True, text=True, timeout=300)


def shapecheck(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shapecheck", *args], cwd=project, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("project")
    for name, source in PACKAGE.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(textwrap.dedent(source).lstrip())
    for batch, seq in (("2", "5"), ("3", "7")):
        run = pytest_run(project, "--shapecheck-record=tinymodel", BATCH=batch, SEQ=seq)
        assert run.returncode == 0, run.stdout + run.stderr
    done = shapecheck(project, "annotate", "tinymodel")
    assert done.returncode == 0, done.stderr
    return project


def test_the_annotations_carry_the_code_s_symbols(annotated: Path):
    model = (annotated / "tinymodel" / "model.py").read_text()
    compile(model, "model.py", "exec")
    assert 'def forward(self, x: Float[Tensor, "B T C"]) -> Float[Tensor, "B T C"]:' in model
    assert 'def forward(self, h: Float[Tensor, "B T 16"]) -> Float[Tensor, "B 3"]:' in model
    assert 'def normalize(x: Float[Tensor, "B T 16"]) -> Float[Tensor, "B T 16"]:' in model
    assert model.count("from jaxtyping import Float") == 1 and "from torch import Tensor, nn" in model
    data = (annotated / "tinymodel" / "data.py").read_text()
    # A size equal to an int argument is named after it, constant or not; the line is wrapped as black would.
    assert ('def make_batch(\n    batch_size, seq_len, n_embd\n) -> tuple[Float[Tensor, "batch_size seq_len n_embd"], '
            'Int[Tensor, " batch_size"]]:') in data


def test_the_annotated_package_passes_its_tests_checked_and_compiled(annotated: Path):
    for batch in ("4", "6"):
        run = pytest_run(annotated, "--shapecheck=tinymodel", BATCH=batch, SEQ="9")
        assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout + run.stderr


def test_an_injected_shape_bug_is_caught_at_run_time_and_by_the_linter(annotated: Path, tmp_path: Path):
    buggy = tmp_path / "buggy"
    subprocess.run(["cp", "-r", str(annotated), str(buggy)], check=True)
    model = buggy / "tinymodel" / "model.py"
    source = model.read_text()
    line = "    return (x - x.mean(dim=-1, keepdim=True)) / (x.std(dim=-1, keepdim=True) + 1e-5)"
    assert line in source
    # A silent bug: (B, 16, T) instead of (B, T, 16) flows on without an error from torch itself.
    model.write_text(source.replace(line, f"    return ({line.strip().removeprefix('return ')}).transpose(1, 2)"))
    run = pytest_run(buggy, "--shapecheck=tinymodel", BATCH="2", SEQ="5")
    assert run.returncode == 1 and "normalize() return value does not match" in run.stdout, run.stdout
    # The linter reads the written annotations, and its finding speaks in their symbols.
    lint = shapecheck(buggy, "lint", "--output-format", "concise", "tinymodel")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "SC108" in lint.stdout and "is (B, 16, T), but `normalize` is annotated to return (B, T, 16)" in lint.stdout
    clean = shapecheck(annotated, "lint", "tinymodel")
    assert clean.returncode == 0, clean.stdout  # the annotated package itself lints clean
