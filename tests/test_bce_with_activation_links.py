"""SC304 link of stop 45: a NeuMF whose forward returns `torch.sigmoid(...)`, trained by another module's `fit()`
with the criterion a factory of the script builds from the name the command line gives (`get_loss(args.loss)`,
`--loss` defaulting to "bce_logits"): read as the factory run with the option's default."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

MODEL = """
    import torch
    import torch.nn as nn


    class NeuMF(nn.Module):
        def __init__(self, n_users, n_items, factors=8, layers=(32, 16, 8)):
            super().__init__()
            self.gmf_user = nn.Embedding(n_users, factors)
            self.gmf_item = nn.Embedding(n_items, factors)
            self.mlp_user = nn.Embedding(n_users, layers[0] // 2)
            self.mlp_item = nn.Embedding(n_items, layers[0] // 2)
            mlp = []
            for d_in, d_out in zip(layers[:-1], layers[1:]):
                mlp += [nn.Linear(d_in, d_out), nn.ReLU()]
            self.mlp = nn.Sequential(*mlp)
            self.predict = nn.Linear(factors + layers[-1], 1)

        def forward(self, users, items):
            gmf = self.gmf_user(users) * self.gmf_item(items)
            mlp = self.mlp(torch.cat([self.mlp_user(users), self.mlp_item(items)], dim=-1))
            logits = self.predict(torch.cat([gmf, mlp], dim=-1))
            return torch.sigmoid(logits).view(-1)
"""

ENGINE = """
    def fit(model, loader, criterion, optimizer, epochs):
        for epoch in range(epochs):
            model.train()
            total = 0.0
            for users, items, labels in loader:
                optimizer.zero_grad()
                preds = model(users, items)
                loss = criterion(preds, labels)
                loss.backward()
                optimizer.step()
                total += loss.item()
            print(f"epoch {epoch} loss {total / len(loader):.4f}")
"""

MAIN = """
    import argparse

    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset

    from engine import fit
    from model import NeuMF


    def get_loss(name):
        if name == "bce":
            return nn.BCELoss()
        if name == "bce_logits":
            return nn.BCEWithLogitsLoss()
        raise ValueError(name)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--loss", default="bce_logits", choices=["bce", "bce_logits"])
        parser.add_argument("--epochs", type=int, default=2)
        args = parser.parse_args()
        n_users, n_items = 20, 30
        data = TensorDataset(torch.randint(0, n_users, (128,)), torch.randint(0, n_items, (128,)),
                             torch.randint(0, 2, (128,)).float())
        loader = DataLoader(data, batch_size=32, shuffle=True)
        model = NeuMF(n_users, n_items)
        criterion = get_loss(args.loss)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        fit(model, loader, criterion, optimizer, args.epochs)


    if __name__ == "__main__":
        main()
"""


def _lint(tmp_path: Path, main: str) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"model.py": MODEL, "engine.py": ENGINE, "main.py": main}, "SC304")


def test_a_loss_factory_run_with_the_option_s_default(tmp_path: Path) -> None:
    assert _lint(tmp_path, MAIN) == [("engine.py", 9)]


def test_the_default_picking_the_plain_bce_is_clean(tmp_path: Path) -> None:
    other = MAIN.replace('default="bce_logits"', 'default="bce"')
    assert other != MAIN
    assert _lint(tmp_path, other) == []


def test_an_option_without_a_default_is_not_decided(tmp_path: Path) -> None:
    bare = MAIN.replace('default="bce_logits", ', "")
    assert bare != MAIN
    assert _lint(tmp_path, bare) == []
