"""SC102 through a call: an epoch-end hook of another module handed the training steps' outputs concatenates their 0-d
losses (run in torch: "zero-dimensional tensor (at position 0) cannot be concatenated"); the trainer's file holds no
`cat`, so the rule is looked for through its imports."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT

MODULE = '''
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class LitClassifier(nn.Module):
        def __init__(self, n_in=20, n_classes=4):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, n_classes))

        def training_step(self, batch, batch_idx):
            x, y = batch
            logits = self.net(x)
            loss = F.cross_entropy(logits, y)
            acc = (logits.argmax(1) == y).float().mean()
            return {"loss": loss, "acc": acc}

        def training_epoch_end(self, outputs):
            avg_loss = torch.cat([out["loss"] for out in outputs]).mean()
            avg_acc = torch.stack([out["acc"] for out in outputs]).mean()
            return avg_loss, avg_acc
'''

TRAIN = '''
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    from module import LitClassifier


    def fit(model, loader, epochs=2):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(epochs):
            outputs = []
            for i, batch in enumerate(loader):
                out = model.training_step(batch, i)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                outputs.append({k: v.detach() for k, v in out.items()})
            print(epoch, model.training_epoch_end(outputs))


    if __name__ == "__main__":
        data = TensorDataset(torch.randn(128, 20), torch.randint(0, 4, (128,)))
        fit(LitClassifier(), DataLoader(data, batch_size=32))
'''


def findings(folder: Path, module: str) -> list[tuple[int, str]]:
    folder.mkdir()
    (folder / "module.py").write_text(textwrap.dedent(module).lstrip("\n"))
    (folder / "train.py").write_text(textwrap.dedent(TRAIN).lstrip("\n"))
    PROJECT.forget()
    result = lint_text((folder / "train.py").read_text(), str(folder / "train.py"), resolve(None))
    return [(f.location.row, f.message) for f in result.findings if f.code == "SC102"]


def test_an_epoch_end_hook_concatenating_the_steps_losses(tmp_path: Path) -> None:
    found = findings(tmp_path / "bad", MODULE)
    assert [row for row, _ in found] == [17]
    assert found[0][1].startswith("via `fit(LitClassifier(), DataLoader(data, batch_size=32))`: then in fit, "
                                  "`model.training_epoch_end(outputs)`: then in LitClassifier.training_epoch_end, "
                                  "`torch.cat([out[\"loss\"] for out in outputs])` joins 0-d tensors")
    stacked = MODULE.replace("torch.cat([out", "torch.stack([out")
    assert findings(tmp_path / "good", stacked) == []
