"""numpy arrays handed to torch: their constructors' shapes, read where they become tensors, and nothing else."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_arrays_made_with_stated_sizes_become_tensors_of_those_shapes() -> None:
    assert probe('''
import numpy as np
import torch

X = np.random.rand(100, 3)
y = np.random.randint(0, 5, size=(100,))
probe(torch.from_numpy(X).float())
probe_dtype(torch.tensor(y))
probe(torch.FloatTensor(np.random.randn(10, 4)))
probe(torch.as_tensor(np.zeros((2, 2), dtype=np.float32)))
probe(torch.from_numpy(X.astype(np.float32)))
probe(torch.from_numpy(np.random.normal(0.0, 1.0, size=(8, 2))))
probe(torch.from_numpy(np.full((3, 3), 7.0)))
probe(torch.from_numpy(X.sum(axis=1)))
probe(torch.from_numpy(X.reshape(-1)))
probe(torch.from_numpy(np.random.uniform(0, 1)))
''') == ["(100, 3)", "int", "(10, 4)", "(2, 2)", "(100, 3)", "(8, 2)", "(3, 3)", "(100,)", None, None]


def test_a_reduction_over_an_axis_drops_it() -> None:
    """numpy's reductions name dims `axis` and keep them with `keepdims`, as torch's `dim` and `keepdim`: a target a
    synthetic regression sums from its features (`y = X.sum(axis=1)`) is one number per row; a second positional
    argument is numpy's dtype, not torch's keepdim, and is not read."""
    assert probe('''
import numpy as np
import torch

X = np.random.rand(500, 8)
probe(torch.from_numpy(X.mean(1, keepdims=True)))
probe(torch.from_numpy(X.max(axis=0)))
probe(torch.from_numpy(X.sum()))
probe_dtype(torch.from_numpy(np.random.randint(0, 3, size=(5, 4)).mean(axis=1)))
probe(torch.from_numpy(X.sum(1, np.float32)))
''') == ["(500, 1)", "(8,)", "()", "float", None]


def test_an_array_rebound_on_some_path_is_unknown() -> None:
    assert probe('''
import numpy as np
import torch

X = np.random.rand(100, 3)
if input():
    X = np.random.rand(50, 3)
probe(torch.from_numpy(X))
''') == [None]


def test_labels_drawn_with_numpy_past_the_classes() -> None:
    from shapecheck.engine.linter import lint_text
    from shapecheck.engine.registry import resolve

    source = '''
import numpy as np
import torch
import torch.nn as nn

labels = torch.from_numpy(np.random.randint(6, size=(100,)))
loss = nn.CrossEntropyLoss()(torch.randn(100, 5), labels)
fine = nn.CrossEntropyLoss()(torch.randn(100, 6), labels)
'''
    assert [f.location.row for f in lint_text(source, "t.py", resolve(["SC106"])).findings] == [7]


def test_a_generators_draws_and_arithmetic_on_arrays() -> None:
    """A synthetic regression set: `default_rng` draws, a linear target made with `@`, noise added and scaled."""
    assert probe('''
import numpy as np
import torch

rng = np.random.default_rng(42)
X = rng.normal(size=(500, 8)).astype(np.float32)
y = (X @ rng.normal(size=8) + 0.1 * rng.normal(size=500)).astype(np.float32)
probe(torch.from_numpy(X))
probe(torch.tensor(y))
probe(torch.from_numpy(rng.integers(0, 3, size=150)))
probe_dtype(torch.from_numpy(rng.integers(0, 3, size=150)))
probe(torch.from_numpy(np.random.RandomState(0).randn(4, 5)))
state = np.random.RandomState(0)
probe(torch.from_numpy(state.randn(4, 5)))
probe_dtype(torch.from_numpy(rng.integers(0, 3, size=150) / 2))
probe_dtype(torch.from_numpy(rng.integers(0, 3, size=150) * 0.5))
probe(torch.from_numpy(X * y))
probe(torch.from_numpy(X @ X))
probe(torch.from_numpy(make_rng().normal(size=3)))
''') == ["(500, 8)", "(500,)", "(150,)", "int", None, "(4, 5)", "float", None, None, "(...)", None]


def test_an_array_reaches_the_code_a_call_runs() -> None:
    """A dataset keeps channels-last images and 0/1 masks on `self` (drawn from a generator, thresholded), and
    `__getitem__` converts one row; a helper converts the array it is passed. Its length is its first dim."""
    assert probe('''
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

class Segmentation(Dataset):
    def __init__(self, n, size=32):
        rng = np.random.default_rng(0)
        self.images = rng.random((n, size, size, 3), dtype=np.float32)
        self.masks = (rng.random((n, size, size, 1)) > 0.5).astype(np.float32)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = torch.from_numpy(self.images[i]).permute(2, 0, 1)
        return image, torch.from_numpy(self.masks[i]).permute(2, 0, 1)

def to_tensor(images):
    return torch.from_numpy(images).float() / 255.0

for x, y in DataLoader(Segmentation(8), batch_size=4):
    probe(x)
    probe(y)
probe(to_tensor(np.zeros((10, 28, 28), dtype=np.uint8)))
probe(to_tensor(pixels))
''') == ["(4, 3, 32, 32)", "(4, 1, 32, 32)", "(10, 28, 28)", "(...)"]
