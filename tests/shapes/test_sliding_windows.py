"""The sliding windows of a time-series dataset: `series[end - lookback:end]` for `end` in `range(lookback, ...,
stride)` is `lookback` rows, whether the range's bounds are literals (more of them than are run one by one) or sizes
(an option, a length); and the reading after a window made a one-element tensor, `torch.tensor([series[end, 0]])`,
is (1,)."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_windows_a_dataset_cuts_from_a_literal_series() -> None:
    """A comprehension over the ends, as a loop appending them would be."""
    assert probe('''
import torch
from torch.utils.data import DataLoader, Dataset

class Windows(Dataset):
    def __init__(self, series, lookback=24, stride=2):
        self.pairs = [(series[t - lookback:t], series[t:t + 1, 0]) for t in range(lookback, len(series) - 1, stride)]

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        inputs, target = self.pairs[i]
        return inputs, target

for x, y in DataLoader(Windows(torch.randn(500, 3)), batch_size=16):
    probe(x)
    probe(y)
for x, y in DataLoader(Windows(torch.randn(500, 3), lookback=600), batch_size=16):
    probe(x)
''') == ["(batch, 24, 3)", "(batch, 1)", "(...)"]  # no window of 600 fits: no sample


def test_windows_ending_at_the_numbers_of_a_range_of_sizes() -> None:
    """`range(window, len(readings), stride)` of an option and an array's length: every end is at least `window`
    and below the length, so each window is `window` rows; one that starts before the range's start may be cut
    short (a negative start counts from the end), and stays unknown."""
    assert probe('''
import argparse
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

class MeterWindows(Dataset):
    def __init__(self, readings, window, stride=4):
        self.readings, self.window = readings, window
        self.ends = list(range(window, len(readings), stride))

    def __len__(self):
        return len(self.ends)

    def __getitem__(self, i):
        stop = self.ends[i]
        past = self.readings[stop - self.window:stop]
        return torch.from_numpy(past), torch.tensor([self.readings[stop, 0]])

class EarlyWindows(MeterWindows):
    def __getitem__(self, i):
        stop = self.ends[i]
        return torch.from_numpy(self.readings[stop - 2 * self.window:stop]), torch.zeros(1)

parser = argparse.ArgumentParser()
parser.add_argument("--window", type=int, default=48)
parser.add_argument("--steps", type=int, default=2000)
args = parser.parse_args()
readings = np.random.rand(args.steps, 3).astype(np.float32)
for x, y in DataLoader(MeterWindows(readings, args.window), batch_size=32):
    probe(x)
    probe(y)
for x, y in DataLoader(EarlyWindows(readings, args.window), batch_size=32):
    probe(x)
''') == ["(batch, args.window, 3)", "(batch, 1)", "(batch, args.steps[stop - 2 * self.window:stop], 3)"]


def test_a_tensor_of_zero_dim_elements() -> None:
    """`torch.tensor` of a list of 0-d tensors or array elements is one number each; of rows, it raises (one
    element each only), and a list of elements the code does not state keeps its count alone."""
    assert probe('''
import numpy as np
import torch
readings = np.random.rand(100, 3)
t = torch.randn(100, 3)
probe(torch.tensor([readings[5, 0]]))
probe(torch.tensor([t[5, 0], t[5, 1], t[6, 2]]))
probe(torch.tensor([t[5, 0], load()]))
probe(torch.tensor([t[5]]))
''') == ["(1,)", "(3,)", "(2, ...)", None]
