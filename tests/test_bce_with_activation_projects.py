"""SC304 with the criterion chosen from the command line: both branches of a conditional building
`BCEWithLogitsLoss`, handed to a `fit()` of another module with a NeuMF whose forward ends in `torch.sigmoid`, and a
trainer's criterion picked from a dict of loss factories that all build it; a branch building another loss where
the option's default picks it, or a model returning logits, stays silent."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

NEUMF = """
    import torch
    from torch import nn

    class NeuMF(nn.Module):
        def __init__(self, n_users, n_items, dim=16):
            super().__init__()
            self.gmf_u = nn.Embedding(n_users, dim)
            self.gmf_i = nn.Embedding(n_items, dim)
            self.out = nn.Linear(dim, 1)

        def forward(self, users, items):
            return torch.sigmoid(self.out(self.gmf_u(users) * self.gmf_i(items))).squeeze(-1)
    """

ENGINE = """
    import torch

    def fit(model, loader, criterion, optimizer, epochs=10, device="cpu"):
        model.to(device)
        for epoch in range(epochs):
            for users, items, labels in loader:
                preds = model(users.to(device), items.to(device))
                loss = criterion(preds, labels.float().to(device))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """

MAIN = """
    import argparse

    import torch
    from torch import nn

    from recsys.engine import fit
    from recsys.neumf import NeuMF

    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--loss", choices=["bce", "weighted"], default="bce")
        args = p.parse_args()
        model = NeuMF(1000, 2000)
        criterion = nn.BCEWithLogitsLoss() if args.loss == "bce" else %s
        fit(model, loader, criterion, torch.optim.Adam(model.parameters()))
    """


def _package(tmp_path: Path, other: str) -> list[tuple[str, int]]:
    files = {"recsys/__init__.py": "", "recsys/neumf.py": NEUMF, "recsys/engine.py": ENGINE, "main.py": MAIN % other}
    return lint_project(tmp_path, files, "SC304")


def test_both_branches_of_the_command_line_s_choice_build_bce_with_logits(tmp_path: Path) -> None:
    assert _package(tmp_path, "nn.BCEWithLogitsLoss(pos_weight=torch.tensor(4.0))") == [("recsys/engine.py", 9)]


def test_a_branch_building_another_loss_reads_the_option_s_default(tmp_path: Path) -> None:
    # `--loss` defaults to "bce": the run the program is written for builds `BCEWithLogitsLoss` (stop 45; as a dict
    # of loss factories keyed by the option picks its default's entry)
    assert _package(tmp_path, "nn.BCELoss()") == [("recsys/engine.py", 9)]
    # a default picking the other branch is silent, and so is an option without a default
    other = MAIN.replace('default="bce"', 'default="weighted"')
    files = {"recsys/__init__.py": "", "recsys/neumf.py": NEUMF, "recsys/engine.py": ENGINE,
             "main.py": other % "nn.BCELoss()"}
    assert lint_project(tmp_path, files, "SC304") == []
    files["main.py"] = MAIN.replace(', default="bce"', "") % "nn.BCELoss()"
    assert lint_project(tmp_path, files, "SC304") == []


TRAINER = """
    import argparse

    import torch
    from torch import nn

    class NeuMF(nn.Module):
        def __init__(self, n_users, n_items, dim=8):
            super().__init__()
            self.u = nn.Embedding(n_users, dim)
            self.i = nn.Embedding(n_items, dim)
            self.fc = nn.Linear(dim, 1)

        def forward(self, u, i):
            return %s

    LOSSES = {"bce": nn.BCEWithLogitsLoss, "weighted": lambda: nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))}

    class Recommender:
        def __init__(self, model, args):
            self.model = model
            self.loss_fn = LOSSES[args.loss]()
            self.opt = torch.optim.Adam(model.parameters(), lr=args.lr)

        def fit(self, loader, epochs):
            for _ in range(epochs):
                for u, i, r in loader:
                    loss = self.loss_fn(self.model(u, i), r.float())
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()

    parser = argparse.ArgumentParser()
    parser.add_argument("--loss", default="bce")
    parser.add_argument("--lr", type=float, default=0.001)
    args = parser.parse_args()
    Recommender(NeuMF(100, 200), args).fit(loader, 5)
    """


def test_a_trainer_s_criterion_from_a_dict_of_factories_that_agree(tmp_path: Path) -> None:
    sigmoid = "torch.sigmoid(self.fc(self.u(u) * self.i(i))).view(-1)"
    assert lint_project(tmp_path, {"train.py": TRAINER % sigmoid}, "SC304") == [("train.py", 28)]
    assert lint_project(tmp_path, {"train.py": TRAINER % "self.fc(self.u(u) * self.i(i)).view(-1)"}, "SC304") == []


# A training helper of its own module that never imports torch: it is handed everything it runs.
PLAIN_FIT = """
    def fit(model, loader, criterion, optimizer, epochs=1):
        for epoch in range(epochs):
            model.train()
            for user, item, label in loader:
                pred = model(user, item)
                loss = criterion(pred, label.float())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """

# The criterion picked from a registry by a command-line option; `%s` is the option's default.
CHOSEN = """
    import argparse

    import torch
    from torch import nn

    from recsys.engine import fit
    from recsys.models import NeuMF

    LOSSES = {"bce": nn.BCELoss, "bcel": nn.BCEWithLogitsLoss}

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=2)
        parser.add_argument("--loss", type=str, %s choices=list(LOSSES))
        args = parser.parse_args()
        model = NeuMF(50, 40)
        criterion = LOSSES[args.loss]()
        fit(model, loader, criterion, torch.optim.Adam(model.parameters()), args.epochs)
    """


def _chosen(tmp_path: Path, default: str) -> list[tuple[str, int]]:
    files = {"recsys/__init__.py": "", "recsys/models/__init__.py": "from .neumf import NeuMF\n",
             "recsys/models/neumf.py": NEUMF, "recsys/engine.py": PLAIN_FIT, "train.py": CHOSEN % default}
    return lint_project(tmp_path, files, "SC304")


def test_a_registry_entry_the_option_s_default_picks_in_a_helper_without_the_torch_import(tmp_path: Path) -> None:
    assert _chosen(tmp_path, 'default="bcel",') == [("recsys/engine.py", 7)]


def test_the_entry_another_default_picks_or_an_option_without_one_is_silent(tmp_path: Path) -> None:
    assert _chosen(tmp_path, 'default="bce",') == []
    assert _chosen(tmp_path, "") == []


# The NeuMF of another module, the criterion built by a factory of a third module (`build_criterion("%s")`) or
# picked from `torch.nn` by the option's default (`getattr(nn, args.loss)()`): neither main.py nor the helper names
# the loss or the sigmoid.
CRITERIA = """
    import torch.nn as nn

    def build_criterion(name):
        if name == "bce":
            return nn.BCELoss()
        return nn.BCEWithLogitsLoss()
    """

TWO_HOPS_MAIN = """
    import argparse

    import torch

    from recsys.engine import fit
    from recsys.neumf import NeuMF
    from losses import build_criterion

    def main():
        model = NeuMF(1000, 2000)
        fit(model, loader, build_criterion(%s), torch.optim.Adam(model.parameters()))
    """

GETATTR_MAIN = """
    import argparse

    import torch
    from torch import nn

    from recsys.engine import fit
    from recsys.neumf import NeuMF

    def get_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--loss", type=str, default="%s")
        return parser.parse_args()

    def main():
        args = get_args()
        model = NeuMF(1000, 2000)
        fit(model, loader, getattr(nn, args.loss)(), torch.optim.Adam(model.parameters()))
    """


def _hops(tmp_path: Path, main: str) -> list[tuple[str, int]]:
    files = {"recsys/__init__.py": "", "recsys/neumf.py": NEUMF, "recsys/engine.py": ENGINE,
             "losses.py": CRITERIA, "main.py": main}
    return lint_project(tmp_path, files, "SC304")


def test_a_criterion_built_in_a_module_the_helper_s_importer_imports(tmp_path: Path) -> None:
    assert _hops(tmp_path, TWO_HOPS_MAIN % '"bce_logits"') == [("recsys/engine.py", 9)]
    assert _hops(tmp_path / "bce", TWO_HOPS_MAIN % '"bce"') == []


def test_a_torch_nn_class_the_option_s_default_names(tmp_path: Path) -> None:
    assert _hops(tmp_path, GETATTR_MAIN % "BCEWithLogitsLoss") == [("recsys/engine.py", 9)]
    assert _hops(tmp_path / "bce", GETATTR_MAIN % "BCELoss") == []


SCRIPT = """
    import argparse

    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 1)

        def forward(self, x):
            return torch.sigmoid(self.fc(x))

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--loss", default="bce")
        args = parser.parse_args()
        model = Net()
        if args.loss == "bce":
            criterion = %s
        else:
            criterion = nn.BCEWithLogitsLoss()
        fit(model, criterion)

    def fit(model, criterion):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x, y = torch.randn(4, 8), torch.rand(4, 1)
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
    """


def test_an_if_statement_whose_branches_build_bce_with_logits_handed_to_a_helper(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"train.py": SCRIPT % "nn.BCEWithLogitsLoss()"}, "SC304") == [("train.py", 30)]


def test_an_if_statement_whose_other_branch_builds_bce_is_silent_in_the_helper(tmp_path: Path) -> None:
    # the latest binding in source order is only one of the two the call may hand on: neither is known
    assert lint_project(tmp_path, {"train.py": SCRIPT % "nn.BCELoss()"}, "SC304") == []


# The criterion a factory of the script returns by the name the command line gives (`get_criterion(args.loss)`,
# its `if name == "bce":` choosing the loss): read in the run with no flags, the option's default.
PICKED = """
    import argparse

    import torch
    from torch import nn

    from recsys.engine import fit
    from recsys.models import NeuMF

    def get_criterion(name):
        if name == "bce":
            return nn.BCEWithLogitsLoss()
        return nn.MSELoss()

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--loss", %s choices=["bce", "mse"])
        args = parser.parse_args()
        model = NeuMF(50, 40)
        criterion = get_criterion(args.loss)
        fit(model, loader, criterion, torch.optim.Adam(model.parameters()))
    """


def test_a_criterion_a_factory_picks_by_the_option_s_default(tmp_path: Path) -> None:
    def found(default: str) -> list[tuple[str, int]]:
        files = {"recsys/__init__.py": "", "recsys/models/__init__.py": "from .neumf import NeuMF\n",
                 "recsys/models/neumf.py": NEUMF, "recsys/engine.py": PLAIN_FIT, "train.py": PICKED % default}
        return lint_project(tmp_path, files, "SC304")

    assert found('default="bce",') == [("recsys/engine.py", 7)]
    assert found('default="mse",') == []
    assert found("") == []
