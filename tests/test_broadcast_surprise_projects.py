"""SC104 on losses and targets in programs laid out as projects are: a model, its data and its losses each in a
module of a package, a trainer or solver class, a script that wires them. Each program has its fixed look-alike,
which stays silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT


def _findings(folder: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    """SC104's findings in every file of the project, as (file, row, message)."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
    PROJECT.forget()
    found = []
    for name in sorted(files):
        path = folder / name
        found += [(name, finding.location.row, finding.message)
                  for finding in lint_text(path.read_text(), str(path), resolve(["SC104"])).findings]
    return found


# a click model's unreduced BCE weighted per sample in a loss helper (reported at the solver's call, which holds the
# facts); the weights are picked between two numbers by `np.where` in a data factory of the package (3.0 for a
# click, 1.0 otherwise), the clicks kept as a column; `%s` is the weighting
CLICKS = {
    "lib/__init__.py": "",
    "lib/nets.py": """
        from torch import nn


        class ClickModel(nn.Module):
            def __init__(self, n_fields: int, emb: int = 8):
                super().__init__()
                self.emb = nn.Linear(n_fields, emb)
                self.out = nn.Linear(emb, 1)

            def forward(self, feats):
                return self.out(self.emb(feats).tanh())
    """,
    "lib/data.py": """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        def make_clicks(n_rows: int, n_fields: int, seed: int = 0):
            rng = np.random.default_rng(seed)
            feats = rng.normal(size=(n_rows, n_fields)).astype(np.float32)
            clicks = (rng.random(n_rows) < 0.3).astype(np.float32).reshape(-1, 1)
            weights = np.where(clicks[:, 0] > 0, 3.0, 1.0).astype(np.float32)
            return feats, clicks, weights


        class ClickLog(Dataset):
            def __init__(self, feats, clicks, weights):
                self.feats, self.clicks, self.weights = feats, clicks, weights

            def __len__(self):
                return len(self.feats)

            def __getitem__(self, i):
                return torch.from_numpy(self.feats[i]), torch.from_numpy(self.clicks[i]), torch.tensor(self.weights[i])
    """,
    "lib/losses.py": """
        import torch.nn.functional as F


        def weighted_bce(logits, target, weight):
            raw = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
            return (%s).sum() / weight.sum()
    """,
    "run.py": """
        import torch
        from torch.utils.data import DataLoader

        from lib.data import ClickLog, make_clicks
        from lib.losses import weighted_bce
        from lib.nets import ClickModel


        class Solver:
            def __init__(self, model, lr=0.01):
                self.model = model
                self.opt = torch.optim.Adagrad(model.parameters(), lr=lr)

            def fit(self, loader):
                for feats, clicks, weights in loader:
                    loss = weighted_bce(self.model(feats), clicks, weights)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()


        feats, clicks, weights = make_clicks(512, 12)
        solver = Solver(ClickModel(12))
        solver.fit(DataLoader(ClickLog(feats, clicks, weights), batch_size=64, shuffle=True))
    """,
}


@pytest.mark.parametrize(("weighting", "reported"), [("raw * weight", [("run.py", 17)]),
                                                     ("raw.squeeze(1) * weight", []),
                                                     ("raw * weight.unsqueeze(1)", [])])
def test_weights_a_data_factory_picks_with_where_against_an_unreduced_loss(
        project: Path, weighting: str, reported: list[tuple[str, int]]) -> None:
    files = {**CLICKS, "lib/losses.py": CLICKS["lib/losses.py"] % weighting}
    found = _findings(project, files)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`raw` is (64, 1) and `weight` is (64,)" in message for _, _, message in found)
