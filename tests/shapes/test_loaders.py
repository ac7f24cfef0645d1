"""What a loop over a `DataLoader` of a `TensorDataset` (or over a tensor) binds: the dataset's rows, stacked by the
batch size the code states, or by the project's `collate_fn`; nothing when a `batch_sampler`, an unknown collate
or an unknown dataset decides."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import codes_of, lint, lint_project
from tests.shapes.probe import probe

HEADER = '''
import torch
from torch.utils.data import DataLoader, TensorDataset
features = torch.randn(1000, 13)
labels = torch.randint(0, 3, (1000,))
'''


def seen(body: str) -> list:
    return probe(HEADER + body)


def test_batches_of_a_tensor_dataset() -> None:
    assert seen('''
for x, y in DataLoader(TensorDataset(features, labels), batch_size=10):
    probe(x)
    probe(y)
loader = DataLoader(TensorDataset(features, labels), batch_size=16, shuffle=True)
for xb, yb in loader:
    probe(xb)
''') == ["(10, 13)", "(10,)", "(batch, 13)"]


def test_what_the_code_does_not_state_stays_unknown() -> None:
    assert seen('''
def collate(samples):
    return samples
for x, y in DataLoader(TensorDataset(features, labels), batch_size=10, collate_fn=collate):
    probe(x)
for x, y in DataLoader(dataset, batch_size=10):
    probe(x)
''') == ["(...)", "(...)"]  # a tensor, as a parameter is, of a shape not stated


def test_a_tensor_of_a_shape_not_stated_keeps_the_batch_rows() -> None:
    """`TensorDataset` checks every tensor has the first's rows: targets read from a file are batched as (batch,
    ...), the features keep their shape; with no tensor of a stated shape nothing is known."""
    assert seen('''
import numpy as np
depths = torch.from_numpy(np.load("depths.npy"))
for x, y in DataLoader(TensorDataset(features, depths), batch_size=10):
    probe(x)
    probe(y)
for y, x in DataLoader(TensorDataset(depths, features), batch_size=10):
    probe(x)
    probe(y)
for y, z in DataLoader(TensorDataset(depths, read_more()), batch_size=10):
    probe(y)
''') == ["(10, 13)", "(10, ...)", "(10, 13)", "(10, ...)", "(...)"]


def test_rows_of_a_tensor() -> None:
    assert seen('''
for row in features:
    probe(row)
for i, row in enumerate(torch.randn(4, 5, 6)):
    probe(row)
''') == ["(13,)", "(5, 6)"]


def test_nested_unpacking_of_an_enumerated_loader() -> None:
    assert seen('''
loader = DataLoader(TensorDataset(features, labels), batch_size=25)
for step, (inputs, targets) in enumerate(loader):
    probe(inputs)
    probe(targets)
for step, (inputs, *rest) in enumerate(loader):
    probe(inputs)
''') == ["(25, 13)", "(25,)", "(25, 13)"]  # the script's own run unpacks the starred target too


def test_a_batch_kept_whole_is_indexed_and_unpacked() -> None:
    assert seen('''
loader = DataLoader(TensorDataset(features, labels), batch_size=8, drop_last=True)
for step, batch in enumerate(loader):
    probe(batch[0])
    probe(batch[1])
    inputs, targets = batch
    probe(targets)
''') == ["(8, 13)", "(8,)", "(8,)"]


def test_nested_unpacking_of_plain_tuples() -> None:
    assert seen('''
pair = (features, (labels, features[:, 0]))
a, (b, c) = pair
probe(b)
probe(c)
''') == ["(1000,)", "(1000,)"]


EVALUATE = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

def hits(scores, labels):
    predicted = scores.argmax(1, keepdim=True)
    return (predicted == labels).sum()

def evaluate(net, batches):
    for inputs, labels in batches:
        hits(net(inputs), labels)

net = nn.Linear(7, 4)
'''


def test_a_loader_of_rows_runs_the_loop_of_the_function_it_is_given() -> None:
    """A dataset of 50 rows gives at least one batch: the loop body of the function the loader is passed to runs
    on every call, so what fails in it on the batch's shapes fails at the call."""
    found = lint(EVALUATE + '''
evaluate(net, DataLoader(TensorDataset(torch.randn(50, 7), torch.randint(0, 4, (50,))), batch_size=10))
''', "SC104")
    assert [(f.code, f.location.row) for f in found.findings] == [("SC104", 8)]
    assert "then in evaluate, `hits(net(inputs), labels)`: then in hits" in found.findings[0].message


def test_a_loop_that_may_not_run_proves_nothing() -> None:
    assert not lint(EVALUATE + '''
evaluate(net, DataLoader(TensorDataset(torch.randn(5, 7), torch.randint(0, 4, (5,))), batch_size=10,
                         drop_last=True))
def elsewhere(rows: int):
    evaluate(net, DataLoader(TensorDataset(torch.randn(rows, 7), torch.randint(0, 4, (rows,))), batch_size=10))
''', "SC104").findings


def test_a_loader_dropping_its_short_batch_gives_one_on_the_batch_size_option_s_default() -> None:
    """`drop_last=True` with `--batch-size` (`default=16`) over 50 rows: on its default, the run the program is
    written for, the loader gives a batch, so the loop of the trainer it is handed runs; a default above the rows,
    or a batch size the code does not state, proves nothing."""
    found = lint(EVALUATE + '''
import argparse
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--eval-batch", type=int, default=64)
    args = parser.parse_args()
    rows = TensorDataset(torch.randn(50, 7), torch.randint(0, 4, (50,)))
    evaluate(net, DataLoader(rows, batch_size=args.batch_size, drop_last=True))
    evaluate(net, DataLoader(rows, batch_size=args.eval_batch, drop_last=True))
def elsewhere(size: int):
    evaluate(net, DataLoader(TensorDataset(torch.randn(50, 7), torch.randint(0, 4, (50,))), batch_size=size,
                             drop_last=True))
''', "SC104")
    assert [(f.code, f.location.row) for f in found.findings] == [("SC104", 8)]
    assert "`evaluate(net, DataLoader(rows, batch_size=args.batch_size, drop_last=True))`" in found.findings[0].message


def test_a_list_comprehension_over_a_loader_runs_its_element() -> None:
    """`[step(x, y) for x, y in loader]` calls `step` on a batch for certain; a generator may never be consumed."""
    found = lint(EVALUATE + '''
def scores(net, batches):
    return [hits(net(inputs), labels) for inputs, labels in batches]
def lazily(net, batches):
    return (hits(net(inputs), labels) for inputs, labels in batches)
batches = DataLoader(TensorDataset(torch.randn(30, 7), torch.randint(0, 4, (30,))), batch_size=6)
scores(net, batches)
lazily(net, batches)
''', "SC104")
    assert [(f.code, f.location.row) for f in found.findings] == [("SC104", 8)]


def test_an_inner_loop_binds_its_target_afresh_on_each_pass_of_the_outer_one() -> None:
    # `for epoch ...: for x, y in loader:` as every training script writes it; a name the inner body rebinds after
    # the read is bound afresh by the loop before it (the script's own run knows it).
    assert seen('''
loader = DataLoader(TensorDataset(features, labels), batch_size=50)
for epoch in range(3):
    for x, y in loader:
        probe(x)
    for row in features:
        probe(row)
for epoch in range(3):
    for x, y in loader:
        probe(x)
        x = x[:, :5]
''') == ["(50, 13)", "(13,)", "(50, 13)"]


def test_a_batch_of_a_loader_not_stated_is_a_tensor_its_reshape_shapes() -> None:
    # a torchvision dataset's loader: what the loop reads is not stated, but `.reshape` states its shape, and the
    # loop's target, bound afresh on each pass, is what the rebinding reads
    assert seen('''
for epoch in range(2):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, 28, 28)
        probe(images)
        probe(labels)
''') == ["(inferred, 28, 28)", "(...)"]


def test_batches_of_a_dataset_class_of_the_project() -> None:
    """A project `Dataset`: its `__getitem__` run on an int index gives one sample (tensors, ints, a dict of
    them), collated by the batch size; a sample it can't tell (a list of tensors of unknown shapes) stays unknown."""
    assert probe('''
import torch
from torch.utils.data import DataLoader, Dataset

class Pairs(Dataset):
    def __init__(self, n=100):
        self.x = torch.randn(n, 20)
        self.y = torch.randint(0, 3, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

class Encoded(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return {"input_ids": torch.randint(0, 100, (32,)), "label": i % 2}

class Ragged(Dataset):
    def __init__(self, seqs):
        self.seqs = seqs

    def __getitem__(self, i):
        return self.seqs[i]

for xb, yb in DataLoader(Pairs(), batch_size=10):
    probe(xb)
    probe(yb)
for batch in DataLoader(Encoded(texts), batch_size=4):
    probe(batch["input_ids"])
    probe_dtype(batch["label"])
for s in DataLoader(Ragged(sequences)):
    probe(s)
''') == ["(10, 20)", "(10,)", "(batch, 32)", "int", "(...)"]


def test_a_collate_fn_of_the_project_is_run_on_a_full_batch_of_samples() -> None:
    """A project `collate_fn` (a function, or an object of a class with `__call__`, as NLP collators are) gets a
    list of `batch_size` samples when every batch is full, and a list of some samples when the last is short (a
    size of its own, the batch); a collate the code does not define, another method of an object, or a
    `batch_sampler` leave the batch unknown."""
    assert probe('''
import functools
import torch
from torch.utils.data import DataLoader, Dataset

class Tracks(Dataset):
    def __init__(self, n=40):
        self.tracks = torch.randn(n, 16, 2)

    def __len__(self):
        return len(self.tracks)

    def __getitem__(self, idx):
        track = self.tracks[idx]
        return track[:8], track[8:]

def time_major(data):
    obs, pred = zip(*data)
    return torch.stack(obs).permute(1, 0, 2), torch.stack(pred).permute(1, 0, 2)

for obs, pred in DataLoader(Tracks(), batch_size=8, shuffle=True, collate_fn=time_major):
    probe(obs)
for obs, pred in DataLoader(Tracks(), batch_size=6, collate_fn=time_major):
    probe(obs)
for obs, pred in DataLoader(Tracks(), batch_size=8, collate_fn=functools.partial(time_major)):
    probe(obs)
for obs, pred in DataLoader(Tracks(), batch_sampler=sampler, collate_fn=time_major):
    probe(obs)
class Collator:
    def __call__(self, data):
        return time_major(data)
    def pad(self, data):
        return time_major(data)
for obs, pred in DataLoader(Tracks(), batch_size=8, collate_fn=Collator().pad):
    probe(obs)
for obs, pred in DataLoader(Tracks(), batch_size=8, collate_fn=Collator()):
    probe(obs)
''') == ["(8, 8, 2)", "(8, batch, 2)", "(...)", "(...)", "(...)", "(8, 8, 2)"]


def test_a_sample_of_nested_tuples_collates_to_lists_a_model_spreads() -> None:
    """`tuple(s[i] for s in self.signals), self.labels[i]`: the inner tuple is a list of stacked tensors, one per
    sensor, that `model(*signals)` spreads into `forward(self, *signals)`; `__getitem__` runs with the instance's
    constructor arguments, and return paths that disagree (a crop or not, the flag unknown) leave it unknown."""
    assert probe('''
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

class Sensors(Dataset):
    def __init__(self, n):
        self.signals = [torch.randn(n, 1, 50) for _ in range(3)]
        self.labels = torch.randint(0, 5, (n,))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return tuple(s[i] for s in self.signals), self.labels[i]

class Cropped(Dataset):
    def __init__(self, n, crop):
        self.x = torch.randn(n, 3, 64, 64)
        self.crop = crop

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if self.crop:
            return self.x[i, :, :32, :32]
        return self.x[i]

class Fused(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(50, 5)

    def forward(self, *signals):
        return self.head(torch.cat(signals, dim=1))

for signals, y in DataLoader(Sensors(40), batch_size=10):
    probe(signals[2])
    probe(Fused()(*signals))
for x in DataLoader(Cropped(40, True), batch_size=10):
    probe(x)
for x in DataLoader(Cropped(40, augment), batch_size=10):
    probe(x)
''') == ["(10, 1, 50)", "(10, 3, 5)", "(10, 3, 32, 32)", "(...)"]  # the instance's `crop` picks the path


def test_a_window_the_datasets_length_keeps_inside_the_data_is_exact() -> None:
    """The default sampler draws each index below `__len__`: `len(text) - block - 1` windows of `block + 1` tokens
    all fit, so every sample is that long; a length that lets the last windows run past the end, or a sampler of
    the code's, says only that a window is at most that long."""
    assert probe('''
import torch
from torch.utils.data import DataLoader, Dataset

class Windows(Dataset):
    def __init__(self, data, block, fits=True):
        self.data = data
        self.block = block
        self.fits = fits

    def __len__(self):
        return len(self.data) - self.block - 1 if self.fits else len(self.data)

    def __getitem__(self, i):
        chunk = self.data[i:i + self.block + 1]
        return chunk[:-1], chunk[1:]

tokens = torch.randint(0, 50, (1001,))
for x, y in DataLoader(Windows(tokens, 64), batch_size=8, shuffle=True):
    probe(x)
    probe(y)
for x, y in DataLoader(Windows(tokens, 64, fits=False), batch_size=8):
    probe(x)
for x, y in DataLoader(Windows(tokens, 64), batch_size=8, sampler=sampler):
    probe(x)
''') == ["(8, 64)", "(8, 64)", "(batch, (self.block + 1)[:-1])",
                "(8, (self.block + 1)[:-1])"]


def test_a_window_that_starts_an_offset_after_the_index_is_exact_where_it_fits() -> None:
    """A forecasting dataset's target is the window after the inputs (`series[i + window:i + window + horizon]`):
    as long as `horizon` where `__len__` keeps the last index's target inside the series, also for the indices of
    a `random_split` part or a `Subset`, which are the whole dataset's; a length that lets it run past the end, or a
    start that may count from the end (`i - 1`), says nothing."""
    assert probe('''
import torch
from torch.utils.data import DataLoader, Dataset, Subset, random_split

class Forecast(Dataset):
    def __init__(self, series, window=24, horizon=1, spare=0):
        self.series = series
        self.window = window
        self.horizon = horizon
        self.spare = spare

    def __len__(self):
        return len(self.series) - self.window - self.horizon + 1 - self.spare

    def __getitem__(self, i):
        x = self.series[i:i + self.window]
        y = self.series[i + self.window:i + self.window + self.horizon]
        return x, y

class Lagged(Forecast):
    def __getitem__(self, i):
        return self.series[i - 1:i + self.window - 1], self.series[i:i + 1]

series = torch.randn(600)
for x, y in DataLoader(Forecast(series, horizon=6), batch_size=8):
    probe(y)
for x, y in DataLoader(Forecast(series, horizon=6, spare=-1), batch_size=8):
    probe(y)
train_ds, val_ds = random_split(Forecast(series), [500, 76])
for x, y in DataLoader(val_ds, batch_size=8):
    probe(x)
    probe(y)
for x, y in DataLoader(Subset(Forecast(series), range(100)), batch_size=8):
    probe(y)
for x, y in DataLoader(Lagged(series), batch_size=8):
    probe(x)
''') == ["(batch, 6)", "(batch, self.horizon)", "(batch, 24)", "(batch, 1)", "(batch, 1)", "(8, self.window)"]


def test_a_progress_bar_goes_through_the_loaders_batches() -> None:
    """`tqdm(loader)` yields the loader's batches unchanged; a bar made without an iterable states none."""
    assert seen('''
from tqdm import tqdm
from tqdm.auto import tqdm as auto_tqdm
loader = DataLoader(TensorDataset(features, labels), batch_size=16, shuffle=True)
for step, (xb, yb) in enumerate(tqdm(loader, desc="train")):
    probe(xb)
for xb, yb in auto_tqdm(iterable=loader, leave=False):
    probe(yb)
for xb, yb in tqdm(*loaders):
    probe(xb)
bar = tqdm(total=100)
for xb in bar:
    probe(xb)
''') == ["(batch, 13)", "(batch,)", "(...)", "(...)"]


def test_a_dataset_that_hands_a_tensors_rows_as_a_tuple_gives_batches_of_each_row() -> None:
    # `tuple(views[i])` in `__getitem__`: as many views as the tensor has rows, each collated on its own
    assert seen('''
from torch import nn
from torch.utils.data import Dataset
class MultiView(Dataset):
    def __init__(self, n=32, cfg={"views": 6}):
        self.views = torch.randn(n, cfg["views"], 3, 24, 24)
        self.labels = torch.randint(0, 4, (n,))
    def __len__(self):
        return len(self.labels)
    def __getitem__(self, i):
        return tuple(self.views[i]), self.labels[i]
def two(a, b):
    return b
class Second(nn.Module):
    def forward(self, a, b):
        return b
class Masked(nn.Module):
    def forward(self, a, b, mask=None):
        return mask
for views, labels in DataLoader(MultiView(), batch_size=8):
    probe(views[0])
    probe(two(*views))
    probe(Second()(*views))
    probe(Masked()(*views))
''') == ["(8, 3, 24, 24)", "(8, 3, 24, 24)", "(8, 3, 24, 24)", "(...)"]


STATEFUL = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
class Tagger(nn.Module):
    def __init__(self, batch_size=16):
        super().__init__()
        self.batch_size = batch_size
        self.rnn = nn.GRU(3, 8, batch_first=True)
    def forward(self, x):
        out, _ = self.rnn(x, torch.zeros(1, self.batch_size, 8))
        return out[:, -1]
model = Tagger()
'''


def _rows(rows: int, loader: str = "batch_size=16", body: str = "model(x)") -> list[tuple[str, int]]:
    found = lint(STATEFUL + f'''
for x, y in DataLoader(TensorDataset(torch.randn({rows}, 5, 3), torch.randn({rows})), {loader}):
    {body}
''', "SC105")
    return [(f.code, f.location.row) for f in found.findings]


def test_a_model_called_on_every_batch_runs_on_the_short_last_one() -> None:
    """35 rows in batches of 16: the last batch has 3, and a state sized by the batch size rejects it."""
    found = lint(STATEFUL + '''
for epoch in range(3):
    for x, y in DataLoader(TensorDataset(torch.randn(35, 5, 3), torch.randn(35)), batch_size=16, shuffle=True):
        with torch.no_grad():
            pred = model(x)
''', "SC105")
    assert [(f.code, f.location.row) for f in found.findings] == [("SC105", 11)]
    assert "on the last batch, of 3 rows, then in Tagger.forward" in found.findings[0].message
    assert _rows(35, body="y = model(x), y") == [("SC105", 11)]


def test_every_batch_full_or_the_last_pass_not_certain_proves_nothing() -> None:
    # full batches: a multiple of the batch size, or the short one dropped; a last batch of one row broadcasts
    assert not _rows(32)
    assert not _rows(35, "batch_size=16, drop_last=True")
    assert not _rows(33)
    # a `drop_last` the code does not state (an option, a parameter) may drop it: nothing is known of a last batch
    assert not _rows(35, "batch_size=16, drop_last=bool(int(input()))")
    assert _rows(35, "batch_size=16, drop_last=False") == [("SC105", 11)]
    # a sampler of the code's decides how many rows there are
    assert not _rows(35, "batch_size=16, sampler=range(32)")
    # the pass may end before the call, or the call may be skipped on the last one
    assert not _rows(35, body="if x.size(0) < 16:\n        continue\n    model(x)")
    assert not _rows(35, body="if len(y) == 16:\n        model(x)")
    assert not _rows(35, body="model(x) if len(y) == 16 else None")
    assert not _rows(35, body="model(x)\n    break")
    assert not _rows(35, body="try:\n        model(x)\n    except RuntimeError:\n        pass")
    # a loop that takes the first batch on every pass, or no loop: the first batch is full
    assert not lint(STATEFUL + '''
loader = DataLoader(TensorDataset(torch.randn(35, 5, 3), torch.randn(35)), batch_size=16)
for step in range(10):
    x, y = next(iter(loader))
    model(x)
x, y = next(iter(loader))
model(x)
''', "SC105").findings


def test_numbers_and_numpy_arrays_of_a_sample_are_collated() -> None:
    """The default collation makes a (batch,) tensor of Python numbers the code does not state (`float(...)`,
    `int(...)`, `.item()`, an element of a list of them) and stacks numpy arrays as tensors (a numpy scalar too);
    `torch.tensor([float(v)])` holds one number."""
    assert probe('''
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

class Rows(Dataset):
    def __init__(self, n=400):
        self.x = torch.randn(n, 100)
        self.spam = [float(i % 2) for i in range(n)]
        self.images = np.zeros((n, 64, 64, 3), dtype=np.float32)
        self.labels = np.zeros(n, dtype=np.int64)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return (self.spam[i], int(self.x[i, 1]), self.x[i, 0].item(), torch.tensor([float(self.x[i, 2])]),
                self.images[i], self.labels[i])

for spam, bucket, first, price, image, label in DataLoader(Rows(), batch_size=40):
    probe(spam)
    probe(bucket)
    probe(first)
    probe(price)
    probe(image)
    probe(label)
    probe_dtype(label)
''') == ["(40,)", "(40,)", "(40,)", "(40, 1)", "(40, 64, 64, 3)", "(40,)", "int"]


def test_a_part_of_a_dataset_gives_its_samples() -> None:
    """A `random_split` part or a `Subset` of a project dataset or a `TensorDataset` gives the whole dataset's
    samples in batches of a size of their own (its length is not the whole's); a loop over it runs at least once
    (a helper's failure in it is certain) where the code states the part's rows (literal lengths or indices), not
    for fractions."""
    assert probe('''
import torch
from torch.utils.data import DataLoader, Dataset, Subset, TensorDataset, random_split

class Churn(Dataset):
    def __init__(self, n=1000):
        self.x = torch.randn(n, 12)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], i % 2

train_ds, val_ds = random_split(Churn(), [800, 200])
for x, y in DataLoader(val_ds, batch_size=50):
    probe(x)
    probe(y)
for x, y in DataLoader(Subset(TensorDataset(torch.randn(100, 3), torch.randn(100)), range(10)), batch_size=5):
    probe(x)
''') == ["(batch, 12)", "(batch,)", "(batch, 3)"]
    def loop(parts: str) -> list:
        return [f.location.row for f in lint(f'''
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

def evaluate(loader):
    for x, y in loader:
        F.mse_loss(torch.randn(x.size(0), 1), y)

data = TensorDataset(torch.randn(1000, 12), torch.randn(1000))
train_ds, val_ds = random_split(data, {parts})
evaluate(DataLoader(val_ds, batch_size=50))
''', "SC104").findings]
    assert loop("[800, 200]") == [8]
    assert loop("[0.8, 0.2]") == []


def test_batches_of_one_are_whole_whatever_the_datasets_length() -> None:
    """`batch_size=1` (the default too) divides any length: every batch holds one sample, even where the dataset's
    length comes from a file (ShannonAI/mrc-for-flat-nested-ner's inference reads `label_idx.item()` of each)."""
    assert probe('''
import json
import torch
from torch.utils.data import DataLoader, Dataset

class Queries(Dataset):
    def __init__(self, path):
        self.all_data = json.load(open(path))

    def __len__(self):
        return len(self.all_data)

    def __getitem__(self, item):
        label_idx = torch.LongTensor([int(self.all_data[item]["label"])])
        return [torch.zeros(16), label_idx]

for tokens, label_idx in DataLoader(dataset=Queries(path), batch_size=1, shuffle=False):
    probe(label_idx)
for tokens, label_idx in DataLoader(Queries(path)):
    probe(tokens)
for tokens, label_idx in DataLoader(Queries(path), batch_size=2):
    probe(tokens)
''') == ["(1, 1)", "(1, 16)", "(batch, 16)"]


def test_a_split_sized_by_the_length_of_a_project_dataset() -> None:
    """`len(ds)` of a project dataset is what its `__len__` returns on the object built, and a share of it made an
    int again sizes a `Subset`: a loop over its loader in a called function runs at least once, so what fails there
    fails on every call."""
    source = '''
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Subset


class Frames(Dataset):
    def __init__(self, signal, context=16):
        self.signal = signal
        self.context = context

    def __len__(self):
        return self.signal.shape[0] - self.context

    def __getitem__(self, i):
        return self.signal[i:i + self.context], self.signal[i + self.context, :1]


def fit(head, loader):
    for frames, target in loader:
        loss = F.l1_loss(head(frames.flatten(1)), target.squeeze(-1))


def main():
    frames = Frames(torch.randn(400, 4))
    probe_dim(len(frames))
    cut = int(0.75 * len(frames))
    probe_dim(cut)
    fit(torch.nn.Linear(64, 1), DataLoader(Subset(frames, range(cut)), batch_size=32, shuffle=True))
'''
    assert probe(source) == ["384", "288"]
    found = lint(source, "SC104")
    assert [(f.code, f.location.row) for f in found.findings] == [("SC104", 21)]
    # a dataset whose `__len__` the analysis can't read: a length of its own, where the code reads it
    assert probe(source.replace("return self.signal.shape[0] - self.context", "return len(open('x').read())")) \
        == ["len(frames)", "cut"]


def test_the_length_of_a_tensor_dataset_sizes_its_split() -> None:
    """`len(TensorDataset(x, y))` is the rows of `x`: `random_split(ds, [len(ds) - n_val, n_val])` then has lengths
    the code states, each filling a batch."""
    source = HEADER + '''
from torch.utils.data import random_split

def loaders(batch_size=64):
    ds = TensorDataset(features, labels)
    n_val = len(ds) // 10
    probe_dim(n_val)
    train_ds, val_ds = random_split(ds, [len(ds) - n_val, n_val])
    return DataLoader(train_ds, batch_size=batch_size, shuffle=True)

def step(model, batch):
    x, y = batch
    return ((model(x) - y) ** 2).mean()

def fit():
    model = torch.nn.Linear(13, 1)
    for batch in loaders():
        step(model, batch)
probe_dim(len(TensorDataset(labels)))
probe_dim(len(TensorDataset(*[features])))
'''
    assert probe(source) == ["100", "1000", "len(TensorDataset(*[features]))"]
    found = lint(source, "SC104")
    assert [(f.code, f.location.row) for f in found.findings] == [("SC104", 18)]


def test_a_list_the_constructor_fills_gives_its_elements_to_getitem() -> None:
    """A dataset's `__init__` appending a sample per pass of a loop (`self.windows.append(...)`) keeps that list for
    `__getitem__`: an append is no new value bound (a list of a loop of known length is indexed as one whose elements
    are all alike). A list another method also fills, or one the constructor binds afresh under a condition, holds
    no one value."""
    assert probe('''
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

class EcgBeats(Dataset):
    def __init__(self, records):
        self.beats, self.rhythm = [], []
        for signal, label in records:
            self.beats.append(torch.as_tensor(np.zeros((2, 180), dtype=np.float32)))
            self.rhythm.append(int(label))

    def __len__(self):
        return len(self.beats)

    def __getitem__(self, i):
        return self.beats[i], self.rhythm[i]

class Renders(Dataset):
    def __init__(self, n_views: int = 24):
        self.views = []
        for k in range(n_views):
            self.views.append(torch.rand(3, 128, 128))

    def __len__(self):
        return len(self.views)

    def __getitem__(self, idx):
        return self.views[idx]

class Replay(Dataset):
    def __init__(self, episodes):
        self.frames = []
        for episode in episodes:
            self.frames.append(torch.zeros(4, 84, 84))

    def push(self, frame):
        self.frames.append(frame)

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, idx):
        return self.frames[idx]

class Resized(Dataset):
    def __init__(self, paths, large):
        self.crops = []
        for path in paths:
            self.crops.append(torch.zeros(3, 32, 32))
        if large:
            self.crops = [torch.zeros(3, 64, 64) for path in paths]

    def __len__(self):
        return len(self.crops)

    def __getitem__(self, idx):
        return self.crops[idx]

for beats, rhythm in DataLoader(EcgBeats(records), batch_size=32, shuffle=True):
    probe(beats)
    probe(rhythm)
for views in DataLoader(Renders(), batch_size=8):
    probe(views)
for frames in DataLoader(Replay(episodes), batch_size=8):
    probe(frames)
for crops in DataLoader(Resized(paths, True), batch_size=8):
    probe(crops)
''') == ["(batch, 2, 180)", "(batch,)", "(8, 3, 128, 128)", "(...)", "(...)"]


def test_a_list_of_samples_is_a_dataset() -> None:
    """A plain list handed to a `DataLoader` as its dataset: each batch collates what every element is, where the
    elements agree; a list of samples of different shapes (or of what the code does not state) gives nothing."""
    assert probe('''
import torch
from torch.utils.data import DataLoader

def pack(samples):
    return torch.stack(samples).transpose(1, 2)

clouds = [torch.randn(1024, 3) for _ in range(6)]
for points in DataLoader(clouds, batch_size=2, collate_fn=pack):
    probe(points)
pairs = [(torch.randn(6), float(v)) for v in values]
for x, y in DataLoader(pairs, batch_size=8, shuffle=True):
    probe(x)
    probe(y)
mixed = [torch.randn(6), torch.randn(7)]
for x in DataLoader(mixed, batch_size=2):
    probe(x)
for x in DataLoader(list(paths), batch_size=2):
    probe(x)
''') == ["(2, 3, 1024)", "(batch, 6)", "(batch,)", "(...)", "(...)"]


def test_a_transform_object_the_dataset_holds_is_called() -> None:
    """`self.transform(image)` where the dataset holds an object of a project class with `__call__`: its run gives
    the sample (a numpy array here, which only a run of the code follows), as a call through a name holding it
    does."""
    assert probe('''
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

class CenterCrop:
    def __init__(self, size):
        self.size = size

    def __call__(self, image):
        top = (image.shape[0] - self.size) // 2
        left = (image.shape[1] - self.size) // 2
        return image[top:top + self.size, left:left + self.size]

class Slides(Dataset):
    def __init__(self, paths, transform):
        self.tiles = [np.zeros((256, 256, 3), dtype=np.float32) for path in paths]
        self.transform = transform

    def __len__(self):
        return len(self.tiles)

    def __getitem__(self, idx):
        return torch.from_numpy(self.transform(self.tiles[idx])).permute(2, 0, 1)

for tiles in DataLoader(Slides(paths, CenterCrop(224)), batch_size=16):
    probe(tiles)
''') == ["(batch, 3, 224, 224)"]  # the array's own sizes tell the crop's offsets: the slices are 224 long


def test_padded_batches_of_lengths_drawn_below_a_bound() -> None:
    """`pad_sequence` pads to the longest sequence: a length of its own, at most the largest length the code
    states (a length drawn with `torch.randint(10, 21, ...)`, `random.randint(5, 12)` or `np.random.randint(3, 9)`
    is at most 20, 12, 8), or the longest of literal lengths; a prefix `pos[:, :T]` of a table longer than any such
    `T` is `T` long."""
    assert probe('''
import random
import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence

clips = [torch.randn(int(torch.randint(10, 21, (1,))), 40) for _ in range(8)]
padded = pad_sequence(clips, batch_first=True)
probe(padded)
probe_dim(padded.shape[1])
probe(pad_sequence([torch.randn(7, 6), torch.randn(9, 6)]))
probe(pad_sequence([torch.randn(7, 6), torch.randn(9, 5)]))
words = [torch.randint(0, 100, (random.randint(5, 12),)) for _ in range(4)]
probe(pad_sequence(words, batch_first=True, padding_value=0))
probe(torch.zeros(np.random.randint(3, 9)))
table = torch.zeros(1, 64, 16)
probe(table[:, :padded.shape[1]])
probe(table[:, :torch.zeros(100).shape[0]])
''') == ["(8, longest, 40)", "longest", "(9, 2, 6)", None, "(4, longest)", "(np.random.randint(3, 9),)",
         "(1, longest, 16)", "(1, 64, 16)"]


def test_sizes_drawn_for_each_sample_vary_per_item() -> None:
    """A size drawn on each pass of the loop that appends samples, by a comprehension's element, or by each call of
    `__getitem__` varies per item; one drawn once, before the loop, is every sample's."""
    assert probe('''
import random
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

class Clips(Dataset):
    def __init__(self, n=32, fixed=False):
        rng = np.random.default_rng(0)
        frames = random.randint(50, 100)
        self.clips, self.padded, self.mels = [], [], [torch.randn(random.randint(5, 9), 8) for _ in range(n)]
        for _ in range(n):
            self.clips.append(torch.randn(int(rng.uniform(0.5, 1.0) * 100), 40))
            self.padded.append(torch.randn(frames, 40))

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        return self.clips[i], self.padded[i], self.mels[i], torch.zeros(random.randint(1, 4))

for clip, padded, mel, tail in DataLoader(Clips(), batch_size=1):
    probe(clip)
    probe(padded)
    probe(mel)
    probe(tail)
''') == ["(1, 100 * (rng.uniform(0.5, 1.0) per item), 40)", "(1, random.randint(50, 100), 40)",
         "(1, random.randint(5, 9) per item, 8)", "(1, random.randint(1, 4) per item)"]


_RELIEF = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ReliefTiles(Dataset):
    """Synthetic elevation tiles: a slope over the grid plus noise, the shaded relief as the input."""

    def __init__(self, count=40, side=32):
        rows, cols = np.mgrid[0:side, 0:side]
        self.tiles = []
        for k in range(count):
            height = 0.01 * k * rows + 0.02 * cols + np.random.randn(side, side)
            self.tiles.append(height.astype(np.float32))

    def __len__(self):
        return len(self.tiles)

    def __getitem__(self, i):
        height = self.tiles[i]
        return torch.from_numpy(np.stack([height, 0.5 * height, height ** 2])), torch.from_numpy(height%s)


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.same = nn.Conv2d(3, 8, 3, padding=1)
        self.out = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        skip = self.same(x)
        up = F.interpolate(self.down(x), size=skip.shape[-2:], mode="nearest")
        return self.out(torch.cat([up, skip], dim=1)).squeeze(1)


net = TinyUNet()
for shaded, height in DataLoader(ReliefTiles(), batch_size=8):
    loss = F.mse_loss(net(shaded), height)
'''


def test_a_decoder_resized_to_its_skip_scored_against_a_grid_built_target() -> None:
    """The target a dataset builds over `np.mgrid` keeps its (side, side), and a decoder resized to its skip's sizes
    keeps them too: a (1, side, side) target against the (B, side, side) output broadcasts; the target without the
    added axis is the look-alike."""
    assert codes_of(lint(_RELIEF % "[None]", "SC104")) == ["SC104"]
    assert codes_of(lint(_RELIEF % "", "SC104")) == []


def test_a_list_a_function_builds_sample_by_sample_is_a_dataset() -> None:
    """`DataLoader(examples)` only indexes the list it is handed: the samples a function of the project appended one
    per pass are still what each batch collates. A list handed to a function that may change it (one that appends
    other samples) is no longer known."""
    assert probe('''
import random
import torch
from torch.utils.data import DataLoader, random_split

def make_examples(n_examples, n_features=40, n_classes=10):
    examples = []
    for i in range(n_examples):
        examples.append((torch.randn(n_features), i % n_classes))
    return examples

def add_noisy_copies(examples):
    examples.append(random.choice(["a", 1]))

def main():
    examples = make_examples(640)
    train_part, val_part = random_split(examples, [0.9, 0.1])
    for feats, labels in DataLoader(examples, batch_size=32, shuffle=True):
        probe(feats)
        probe(labels)
    noisy = make_examples(640)
    add_noisy_copies(noisy)
    for feats, labels in DataLoader(noisy, batch_size=32):
        probe(feats)

main()
''') == ["(32, 40)", "(32,)", "(...)"]


_FOCAL_DATA = '''
import torch


def make_examples(n_examples, n_features=40, n_classes=10):
    examples = []
    for i in range(n_examples):
        feats = torch.randn(n_features)
        examples.append((feats, i % n_classes))
    return examples
'''

_FOCAL_LOSSES = '''
import torch.nn.functional as F


def focal_loss(logits, target, gamma=2.0):
    ce = F.cross_entropy(logits, target, reduction="none")
    pt = (-ce).exp()
    return (1 - pt) ** gamma * ce
'''

_FOCAL_TRAIN = '''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from audio.data import make_examples
from audio.losses import focal_loss


def main():
    examples = make_examples(640)
    loader = DataLoader(examples, batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = torch.optim.Adam(model.parameters())
    for feats, labels in loader:
        loss = focal_loss(model(feats), labels)%s
        opt.zero_grad()
        loss.backward()
        opt.step()


main()
'''


def test_backward_of_an_unreduced_loss_over_batches_of_a_built_list(tmp_path: Path) -> None:
    """A package's data helper builds the samples in a loop and its loss helper keeps one focal loss per sample: the
    script's `loss.backward()` on the (batch,) losses of a loader over that list raises; the mean is the look-alike."""
    assert lint_project(tmp_path, {"audio/__init__.py": "", "audio/data.py": _FOCAL_DATA,
                                    "audio/losses.py": _FOCAL_LOSSES, "train.py": _FOCAL_TRAIN % ""},
                         "SC107") == [("train.py", 18)]
    assert lint_project(tmp_path, {"train.py": _FOCAL_TRAIN % ".mean()"}, "SC107") == []


_REVIEWS_DATA = '''
import random

import torch

PAD_ID = 0


def load_reviews(n_reviews, vocab_size, seed=0):
    rng = random.Random(seed)
    reviews = []
    for _ in range(n_reviews):
        ids = [rng.randint(1, vocab_size - 1) for _ in range(rng.randint(5, 30))]
        reviews.append({"ids": ids, "label": 1 if rng.random() > 0.5 else 0})
    return reviews


def pad_batch(samples):
    width = max(len(s["ids"]) for s in samples)
    ids = torch.full((len(samples), width), PAD_ID, dtype=torch.long)
    for row, s in enumerate(samples):
        ids[row, : len(s["ids"])] = torch.tensor(s["ids"])
    labels = torch.tensor([s["label"] for s in samples])
    return ids, labels


def label_weights(reviews, n_classes: int):
    counts = torch.zeros(n_classes)
    for review in reviews:
        counts[review["label"]] += 1
    return counts.sum() / (n_classes * counts.clamp(min=1))


def add_unlabelled(reviews, extra):
    reviews.extend(extra)
'''

_REVIEWS_MODEL = '''
import torch.nn as nn


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab_size, dim, n_classes):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean", padding_idx=0)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.out(self.embed(ids))
'''

_REVIEWS_TRAIN = '''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from textcls.data import add_unlabelled, label_weights, load_reviews, pad_batch
from textcls.model import BagOfEmbeddings

CFG = {"vocab": 500, "dim": 32, "batch_size": 24, "lr": 0.05}


class Runner:
    def __init__(self, cfg):
        self.model = BagOfEmbeddings(cfg["vocab"], cfg["dim"], 2)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"])
        reviews = load_reviews(300, cfg["vocab"])%s
        self.criterion = nn.CrossEntropyLoss(weight=label_weights(reviews, 2), reduction="none")
        self.loader = DataLoader(reviews, batch_size=cfg["batch_size"], shuffle=True, collate_fn=pad_batch)

    def run_epoch(self):
        total = 0.0
        for ids, labels in self.loader:
            losses = self.criterion(self.model(ids), labels)
            self.opt.zero_grad()
            losses.mean().backward()
            self.opt.step()
            total += losses%s.item()
        return total


print(Runner(CFG).run_epoch())
'''


def test_item_of_per_sample_losses_over_samples_drawn_at_random(tmp_path: Path) -> None:
    """Reviews a helper draws at random (token ids of a drawn length, a label `1 if rng.random() > 0.5 else 0`),
    padded by the project's `collate_fn` for a batch size read from a config dict (300 reviews are no multiple of
    24: a short last batch): each batch's labels are ints, one per sample, so the unreduced losses are (batch,) and
    their `.item()` raises, class weights counted by a helper of the package reading the reviews or not; the summed
    losses are the look-alike. Reviews a helper of the package may add anything to are no longer known."""
    package = {"textcls/__init__.py": "", "textcls/data.py": _REVIEWS_DATA, "textcls/model.py": _REVIEWS_MODEL}
    assert lint_project(tmp_path, {**package, "train.py": _REVIEWS_TRAIN % ("", "")}, "SC107") == [("train.py", 27)]
    assert lint_project(tmp_path, {"train.py": _REVIEWS_TRAIN % ("", ".sum()")}, "SC107") == []
    changed = "\n        add_unlabelled(reviews, [])"
    assert lint_project(tmp_path, {"train.py": _REVIEWS_TRAIN % (changed, "")}, "SC107") == []


def test_what_a_random_generator_draws_for_a_label() -> None:
    """A `random.Random`'s draws are its module's: `rng.randrange(n)` is an int whatever `n` is, so is a label
    drawn or defaulted (`rng.randrange(n) if rng.random() > 0.3 else 0`); a number drawn or a default is a number.
    Two ints the code states either way (`1 if same else 0`) stay one of the two, not some other size."""
    assert probe('''
import random
import torch

def labels(n, same):
    rng = random.Random(0)
    drawn = [rng.randrange(n), random.randint(0, n)]
    probe_dtype(torch.tensor(drawn))
    defaulted = [rng.randrange(n) if rng.random() > 0.3 else 0 for _ in range(4)]
    probe(torch.tensor(defaulted))
    probe_dtype(torch.tensor(defaulted))
    weights = [rng.random() if same else 1.0, 2.0]
    probe_dtype(torch.tensor(weights))
    probe_dim(1 if same else 0)
''') == ["int", "(4,)", "int", "float", None]


def test_padded_batches_of_clips_of_drawn_lengths_at_a_named_batch_size() -> None:
    """A dataset whose `__init__` builds a few clips of drawn lengths (a loop short enough to be run pass by pass:
    each clip is `(n_mels, frames)` with its own `frames`) gives any index what all its clips agree on; a
    `collate_fn` padding them to the longest, for a batch size the code names, gives `(batch, n_mels, longest)`.
    The labels, 0, 1 and 2 by position, agree on nothing: unknown."""
    assert probe('''
import torch
from torch.utils.data import DataLoader, Dataset

class Clips(Dataset):
    def __init__(self, n_mels: int):
        self.items = []
        for i in range(12):
            frames = int(torch.randint(50, 70, (1,)))
            self.items.append((torch.randn(n_mels, frames), i % 3))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]

def pad(batch):
    longest = max(mel.shape[1] for mel, _ in batch)
    mels = torch.zeros(len(batch), batch[0][0].shape[0], longest)
    for i, (mel, _) in enumerate(batch):
        mels[i, :, : mel.shape[1]] = mel
    return mels, torch.tensor([label for _, label in batch])

def main(batch_size: int):
    for mels, labels in DataLoader(Clips(40), batch_size=batch_size, collate_fn=pad):
        probe(mels)
        probe(labels)

main(8)
''') == ["(batch, 40, longest)", "(...)"]


def test_an_iterator_of_a_loader_bound_to_a_name_gives_its_batches() -> None:
    """`batches = iter(loader)` then `next(batches)`: taking an item leaves an iterator whose items are still the
    loader's batches, in a module's code as in a function's."""
    assert seen('''
loader = DataLoader(TensorDataset(features, labels), batch_size=10)
batches = iter(loader)
x, y = next(batches)
probe(x)
probe(next(batches)[1])
def sanity_check():
    it = iter(loader)
    xb, _ = next(it)
    probe(xb)
''') == ["(10, 13)", "(10,)", "(10, 13)"]
