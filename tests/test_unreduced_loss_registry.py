"""An unreduced loss from a registry of `functools.partial`s keyed by a command-line option (`LOSSES[args.loss]`,
`--loss` defaulting to a per-pixel `reduction="none"` entry, or one partial whose `**kwargs` a config's `.get` defaults
fill): a solver or a Lightning-style module holds it, calls `backward()` on its value and
logs `.item()` through a meter. The run with no flags raises ("grad can be implicitly created only for scalar
outputs"); the VALID twins reduce it first, or register the per-pixel loss under a key the default does not pick."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

# the registry, the meter and the model in a package; the solver and the command line in the script
PIXEL_SOLVER = {
    "seg/__init__.py": '''
    ''',
    "seg/losses.py": '''
    from functools import partial

    import torch.nn.functional as F

    LOSSES = {
        "ce": partial(F.cross_entropy, reduction="none", ignore_index=255),
        "nll": partial(F.nll_loss, reduction="none"),
    }


    def get_loss(name):
        return LOSSES[name]
    ''',
    "seg/meters.py": '''
    class AverageMeter:
        def __init__(self):
            self.sum = 0.0
            self.count = 0

        def update(self, value, n=1):
            self.sum += value * n
            self.count += n

        @property
        def avg(self):
            return self.sum / max(self.count, 1)
    ''',
    "seg/model.py": '''
    import torch.nn as nn


    class TinySeg(nn.Module):
        def __init__(self, in_ch=3, n_classes=5):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(in_ch, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, n_classes, 1))

        def forward(self, x):
            return self.body(x)
    ''',
    "train.py": '''
    import argparse

    import torch

    from seg.losses import get_loss
    from seg.meters import AverageMeter
    from seg.model import TinySeg


    class Solver:
        def __init__(self, args):
            self.model = TinySeg(n_classes=args.classes)
            self.criterion = get_loss(args.loss)
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=args.lr)
            self.meter = AverageMeter()

        def step(self, images, masks):
            logits = self.model(images)
            loss = self.criterion(logits, masks)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.meter.update(loss.item(), images.size(0))


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--classes", type=int, default=5)
        parser.add_argument("--loss", default="ce")
        parser.add_argument("--lr", type=float, default=0.01)
        args = parser.parse_args()
        solver = Solver(args)
        for _ in range(3):
            images = torch.randn(4, 3, 32, 32)
            masks = torch.randint(0, args.classes, (4, 32, 32))
            solver.step(images, masks)
        print(solver.meter.avg)


    if __name__ == "__main__":
        main()
    ''',
}


# a Lightning-style module holding a partial whose keywords a config's `.get` defaults fill
STEP_MODULE = {
    "lit/__init__.py": '''
    from .module import LitClassifier
    ''',
    "lit/losses.py": '''
    import functools

    import torch.nn.functional as F


    def get_loss(cfg):
        kwargs = {"reduction": cfg.get("reduction", "none"), "label_smoothing": cfg.get("smoothing", 0.0)}
        return functools.partial(F.cross_entropy, **kwargs)
    ''',
    "lit/module.py": '''
    import torch
    import torch.nn as nn

    from .losses import get_loss


    class LitClassifier(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(cfg["in_dim"], 32), nn.ReLU(), nn.Linear(32, cfg["classes"]))
            self.loss_fn = get_loss(cfg)
            self.history = []

        def forward(self, x):
            return self.net(x)

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = self.loss_fn(self(x), y)
            self.history.append(loss.item())
            return loss
    ''',
    "train.py": '''
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    from lit import LitClassifier

    cfg = {"in_dim": 10, "classes": 4}
    model = LitClassifier(cfg)
    opt = torch.optim.Adam(model.parameters())
    loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.randint(0, 4, (64,))), batch_size=8)
    for i, batch in enumerate(loader):
        loss = model.training_step(batch, i)
        opt.zero_grad()
        loss.backward()
        opt.step()
    ''',
}


def test_backward_of_a_registry_entry_an_option_s_default_picks(tmp_path: Path) -> None:
    assert lint_project(tmp_path, PIXEL_SOLVER, "SC107") == [("train.py", 22)]
    reduced = dict(PIXEL_SOLVER)
    reduced["train.py"] = reduced["train.py"].replace("loss.backward()", "loss.mean().backward()").replace(
        "loss.item()", "loss.mean().item()")
    assert lint_project(tmp_path / "reduced", reduced, "SC107") == []
    other_key = dict(PIXEL_SOLVER)
    other_key["seg/losses.py"] = other_key["seg/losses.py"].replace(
        '"ce": partial(F.cross_entropy, reduction="none", ignore_index=255),',
        '"ce": partial(F.cross_entropy, ignore_index=255),\n    "ce_pixel": partial(F.cross_entropy, reduction="none"),')
    assert lint_project(tmp_path / "other_key", other_key, "SC107") == []


def test_item_and_backward_of_a_partial_unreduced_by_a_config_default(tmp_path: Path) -> None:
    assert lint_project(tmp_path, STEP_MODULE, "SC107") == [("train.py", 12), ("train.py", 14)]
    reduced = dict(STEP_MODULE)
    reduced["lit/losses.py"] = reduced["lit/losses.py"].replace(
        'cfg.get("reduction", "none")', 'cfg.get("reduction", "mean")')
    assert lint_project(tmp_path / "reduced", reduced, "SC107") == []
