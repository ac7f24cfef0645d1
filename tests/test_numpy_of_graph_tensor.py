"""SC207 reads what a helper of another project module returns from the model a call hands it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT

INFER = """
    import torch

    def predict_proba(model, x):
        logits = model(x)
        return torch.softmax(logits, dim=1)

    @torch.no_grad()
    def predict_labels(model, x):
        return model(x).argmax(1)

    def embed(model, x):
        return model(x).detach()
"""

RUN = """
    import numpy as np
    import torch
    import torch.nn as nn
    from infer import embed, predict_labels, predict_proba

    def main(x):
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
        probs = predict_proba(model, x)
        np.save("probs.npy", probs.numpy())
        np.save("labels.npy", predict_labels(model, x).numpy())
        np.save("features.npy", embed(model, x).numpy())
        with torch.no_grad():
            quiet = predict_proba(model, x)
        np.save("quiet.npy", quiet.numpy())
"""


def test_what_another_module_s_helper_returns_from_the_model_it_is_handed(tmp_path: Path) -> None:
    (tmp_path / "infer.py").write_text(textwrap.dedent(INFER))
    (tmp_path / "run.py").write_text(textwrap.dedent(RUN))
    PROJECT.forget()
    path = tmp_path / "run.py"
    result = lint_text(path.read_text(), str(path), resolve(["SC207"]))
    # the helper under `no_grad`, the one detaching, and the call under `no_grad` are clean
    assert [finding.location.row for finding in result.findings] == [10]
