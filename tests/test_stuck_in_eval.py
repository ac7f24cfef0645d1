"""SC206 follows a test helper of a submodule the script imports as a module (`import utils.metrics as metrics`,
`from utils import metrics`), then calls through it (`metrics.test(net, loader)`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT

METRICS = """
    import torch
    @torch.no_grad()
    def test(net, loader, device="cpu"):
        net.eval()
        hits = 0
        for batch in loader:
            images, labels = batch["image"].to(device), batch["label"].to(device)
            hits += (net(images).argmax(-1) == labels).sum().item()
        RESTORE
        return hits / len(loader.dataset)
"""

MAIN = """
    import torch
    import torch.nn as nn
    IMPORT
    def run(net, train_loader, test_loader, epochs, device):
        opt = torch.optim.Adam(net.parameters())
        net.train()
        for epoch in range(epochs):
            for batch in train_loader:
                images, labels = batch["image"].to(device), batch["label"].to(device)
                loss = nn.functional.cross_entropy(net(images), labels)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print("test acc", metrics.test(net, loader=test_loader, device=device))
"""


@pytest.mark.parametrize("imported", ["import utils.metrics as metrics", "from utils import metrics"])
def test_a_test_helper_of_a_submodule_imported_as_a_module(tmp_path: Path, imported: str) -> None:
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text("")
    path = tmp_path / "main.py"
    path.write_text(textwrap.dedent(MAIN).replace("IMPORT", imported))

    def rows(restore: str) -> list[int]:
        (tmp_path / "utils" / "metrics.py").write_text(textwrap.dedent(METRICS).replace("RESTORE", restore))
        PROJECT.forget()
        return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC206"])).findings]

    assert rows("pass") == [15]
    assert rows("net.train()") == []  # the helper puts the model back in train mode
