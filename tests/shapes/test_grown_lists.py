"""Lists a loop grows by one element a pass (`Seq.grown`): two grown on the same passes have as many elements, so
their `torch.cat`s have the same length; lists grown apart, or unevenly, stay unrelated."""

from __future__ import annotations

import pytest

from tests.helpers import lint

HEAD = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def mae(net, loader):
    preds, targets = [], []
    for x, y in loader:
'''
TAIL = '''
    return (torch.cat(preds) - torch.cat(targets)).abs().mean()


net = nn.Linear(10, 1)
mae(net, DataLoader(TensorDataset(torch.randn(40, 10), torch.randn(40)), batch_size=8))
'''


def rows(body: str) -> list[int]:
    return [f.location.row for f in lint(HEAD + body + TAIL, "SC104").findings]


def test_two_lists_grown_on_the_same_passes_are_as_long() -> None:
    assert rows("        preds.append(net(x))\n        targets.append(y)\n") == [13]


def test_a_list_grown_on_some_passes_only_is_not_as_long() -> None:
    assert rows("        if y.sum() > 0:\n            preds.append(net(x))\n        targets.append(y)\n") == []


def test_a_pass_that_may_end_early_grows_the_lists_unevenly() -> None:
    assert rows("        preds.append(net(x))\n        if y.sum() > 0:\n            continue\n"
                "        targets.append(y)\n") == []


def test_lists_grown_by_two_loops_are_unrelated() -> None:
    assert rows("        preds.append(net(x))\n    for x, y in loader:\n        targets.append(y)\n") == []


def test_a_list_that_held_elements_before_the_loop_is_not_counted_with_an_empty_one() -> None:
    assert rows("        preds.append(net(x))\n        targets.append(y)\n    targets.append(torch.zeros(8))\n") == []


def test_lists_bound_together_and_filled_in_a_loop_are_not_the_empty_lists_they_were() -> None:
    """`xs, ys = [], []`, then `ys.append(...)` on each pass of a loop of unknown length: `torch.tensor(ys)` is
    not the (0,) tensor of the literal it was bound to (that was a wrong SC105 against a (5,) one), as `ys = []`
    alone already was not. A pair bound and never filled is still empty."""
    source = '''
import torch


def scores(n):
    xs, ys = [], []
    for i in range(n):
        xs.append(i)
        ys.append(min(i, 125))
    return torch.tensor(ys) + torch.ones(5)
'''
    assert [f.location.row for f in lint(source, "SC105").findings] == []
    unfilled = source.replace("        xs.append(i)\n        ys.append(min(i, 125))\n", "        print(i)\n")
    assert [f.location.row for f in lint(unfilled, "SC105").findings] == [9]


# a dataset whose `__init__` appends its rows to an attribute, over more passes than are run one by one: its length
# is the passes' count, so a loader over it gives a batch for certain and a trainer's loss in the loop over it is
# judged on the batches; `%s` is the pass's append
ROWS_DATASET = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class HouseRows(Dataset):
    def __init__(self, n_rows: int = 200, n_features: int = 8, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.rows = []
        for _ in range(n_rows):
            features = rng.normal(size=n_features).astype(np.float32)
%s

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        features, price = self.rows[i]
        return torch.from_numpy(features), price


class Trainer:
    def __init__(self, model: nn.Module):
        self.model = model
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters())

    def train_epoch(self, loader):
        for x, y in loader:
            loss = self.criterion(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


trainer = Trainer(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
trainer.train_epoch(DataLoader(HouseRows(), batch_size=16, shuffle=True))
'''


def test_a_dataset_attribute_grown_on_every_pass_has_the_passes_length() -> None:
    """Scalar prices, collated to (16,), against the (16, 1) head: found through the trainer's run."""
    found = lint(ROWS_DATASET % "            self.rows.append((features, float(features.sum())))", "SC104").findings
    assert [f.location.row for f in found] == [32]


def test_a_dataset_attribute_grown_on_every_pass_with_column_targets_is_silent() -> None:
    assert lint(ROWS_DATASET % "            self.rows.append((features, np.float32([features.sum()])))",
                "SC104").findings == []


KEPT = "            if features[0] > 0:\n                self.rows.append((features, float(features.sum())))"


def test_a_dataset_of_rows_kept_under_a_condition_is_written_to_hold_some() -> None:
    """Rows kept under a condition are as many as the data gives, a number nothing states: the program is written
    for data, so a loader that drops no short batch gives one and the trainer's loss is judged on it."""
    found = lint(ROWS_DATASET % KEPT, "SC104").findings
    assert [f.location.row for f in found] == [33]


@pytest.mark.parametrize("drop", ["True", "args.drop_last"])
def test_a_loader_that_may_drop_the_short_batch_of_rows_nothing_counts_gives_none(drop: str) -> None:
    """Fewer rows than one batch may be all the data holds: a `drop_last` not known to be False drops them."""
    source = (ROWS_DATASET % KEPT).replace("batch_size=16, shuffle=True)", f"batch_size=16, drop_last={drop})")
    assert "drop_last=" in source
    assert lint(source, "SC104").findings == []
