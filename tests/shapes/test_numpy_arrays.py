"""numpy arrays handed to torch: their constructors' shapes, read where they become tensors, and nothing else."""

from __future__ import annotations

from tests.helpers import lint
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
''') == ["(100, 3)", "int", "(10, 4)", "(2, 2)", "(100, 3)", "(8, 2)", "(3, 3)", "(100,)", "(300,)", None]


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
    """A synthetic regression set: `default_rng` draws, a linear target made with `@`, noise added and scaled. An
    array's `@` is numpy's, read there: `X @ X` of a (500, 8) array raises, and gives no tensor."""
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
''') == ["(500, 8)", "(500,)", "(150,)", "int", "(4, 5)", "(4, 5)", "float", None, None, None, None]


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


def test_numpys_own_operations_on_arrays() -> None:
    """What a data pipeline does to arrays before torch sees them: lists made arrays, joins along an axis, new
    axes, reshapes and transposes, ufuncs, comparisons that broadcast, ranges."""
    assert probe('''
import numpy as np
import torch

t = np.arange(2000) / 250
wave = np.sin(2 * np.pi * t)
gains = np.array([1.0, 1.4, -0.6])
probe(torch.from_numpy(wave[:, None] * gains))
probe(torch.from_numpy(np.stack([wave, wave, wave], axis=1)))
probe(torch.from_numpy(np.concatenate([wave[:, None], np.zeros((2000, 2))], axis=1)))
probe(torch.from_numpy(np.vstack([wave, wave])))
probe(torch.from_numpy(np.hstack([wave, wave])))
probe(torch.from_numpy(np.expand_dims(wave, 0)))
probe(torch.from_numpy(wave[..., None, None]))
probe(torch.from_numpy(np.zeros((4, 5, 6)).transpose(2, 0, 1)))
probe(torch.from_numpy(np.zeros((4, 5)).T))
probe(torch.from_numpy(np.zeros((4, 5, 6)).reshape(4, -1)))
probe(torch.from_numpy(np.zeros((4, 5)).flatten()))
probe(torch.from_numpy(np.where(wave > 0, wave, 0.0)))
probe(torch.from_numpy(np.array(["a", "b", "c"])[None, :] == np.array(["a", "b"])[:, None]))
probe(torch.from_numpy(np.linspace(0, 1, 7)))
probe(torch.from_numpy(np.eye(3)))
probe(torch.from_numpy(np.ones_like(gains)))
probe(torch.from_numpy(np.array([[1, 2], [3, 4]])))
probe(torch.from_numpy(np.random.default_rng(0).gamma(2.0, 1.0, 64)))
''') == ["(2000, 3)", "(2000, 3)", "(2000, 3)", "(2, 2000)", "(4000,)", "(1, 2000)", "(2000, 1, 1)", "(6, 4, 5)",
         "(5, 4)", "(4, 30)", "(20,)", "(2000,)", "(2, 3)", "(7,)", "(3, 3)", "(3,)", "(2, 2)", "(64,)"]


def test_where_picking_between_two_numbers_has_the_conditions_shape() -> None:
    """Labels or sample weights made from a condition (`np.where(clicks > 0, 3.0, 1.0)`): the condition's shape, of
    floats unless both numbers are ints; a value that is neither a number nor a known array leaves it unknown."""
    assert probe('''
import numpy as np
import torch

clicks = (np.random.rand(64) < 0.3).reshape(-1, 1)
probe(torch.from_numpy(np.where(clicks[:, 0], 3.0, 1.0)))
probe_dtype(torch.from_numpy(np.where(clicks, 1, 0)))
probe(torch.from_numpy(np.where(clicks, 1, 0)))
probe(torch.from_numpy(np.where(clicks, unknown, 0.0)))
''') == ["(64,)", "int", "(64, 1)", None]


def test_what_numpy_would_refuse_or_does_not_state_is_unknown() -> None:
    """Arrays that do not broadcast, joins of unequal arrays, a list of arrays of different shapes, an axis
    argument that isn't an int, a ufunc given an `out=`: none is guessed."""
    assert probe('''
import numpy as np
import torch

a, b = np.zeros((3, 4)), np.zeros((5, 4))
probe(torch.from_numpy(a + b))
probe(torch.from_numpy(np.stack([a, b])))
probe(torch.from_numpy(np.concatenate([a, b], axis=1)))
probe(torch.from_numpy(np.array([a, b])))
probe(torch.from_numpy(np.concatenate([a, b], axis=None)))
probe(torch.from_numpy(np.sin(a, out=a)))
probe(torch.from_numpy(np.concatenate([a, b])))
''') == [None, None, None, None, None, None, "(8, 4)"]


def test_a_count_len_or_int_gives_a_constructor_is_one_size() -> None:
    # `np.full(len(mol.atoms), i)`, a graph's membership vector: what `len()` or `int()` returns is an int, never
    # a tuple of sizes, where a bare name the analysis can't explain may be either
    assert probe('''
import numpy as np
import torch

def members(mol, i, n, width):
    probe(torch.from_numpy(np.full(len(mol.atoms), i)))
    probe(torch.from_numpy(np.zeros(int(width))))
    probe(torch.from_numpy(np.zeros(n)))
''') == ["(len(mol.atoms),)", "(width,)", None]


def test_a_transposed_arrays_memory_order_is_not_told() -> None:
    """`torch.from_numpy(a.T)` shares the transposed strides; numpy's own copies choose their memory order, so the
    layout is unknown after a transpose, and row-major after `copy()` or `np.ascontiguousarray`."""
    assert probe('''
import numpy as np
import torch

a = np.zeros((4, 5))
probe_layout(torch.from_numpy(a))
probe_layout(torch.from_numpy(a.T))
probe_layout(torch.from_numpy(a.T.copy()))
probe_layout(torch.from_numpy(np.ascontiguousarray(a.T)))
''') == [(0, 1), None, (0, 1), (0, 1)]


def test_arrays_held_by_dicts_lists_and_the_projects_functions() -> None:
    """A table of columns (`{name: rng.normal(size=n) for name in COLUMNS}`), stacked into features by a helper
    and one-hot encoded with a comparison against the levels, reaches torch through the functions that make it."""
    assert probe('''
import numpy as np
import torch

NUMERIC = ["age", "income"]
LEVELS = {"plan": ["basic", "pro", "team"]}


def load(n=100):
    rng = np.random.default_rng(0)
    table = {name: rng.normal(0.0, 1.0, n) for name in NUMERIC}
    for name, levels in LEVELS.items():
        table[name] = np.random.choice(levels, n)
    return table


def encode(table):
    numeric = np.stack([table[c] for c in NUMERIC], axis=1)
    onehots = [(table[c][:, None] == np.array(levels)[None]).astype(np.float32) for c, levels in LEVELS.items()]
    return np.concatenate([numeric] + onehots, axis=1)


probe(torch.from_numpy(load()["age"]))
probe(torch.from_numpy(encode(load())))
''') == ["(100,)", "(100, 5)"]


def test_a_window_at_a_start_a_list_holds_has_the_length_the_code_says() -> None:
    """`self.starts = list(range(0, len(signal) - window, stride))`: every start leaves room for a window, so
    `signal[start:start + window]` is `window` long; starts that are not all stated ints, or a list with a start
    past the room, leave it unknown."""
    source = '''
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, signal, window=128, stride=64):
        self.signal = signal
        self.window = window
        self.starts = %s

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, idx):
        start = self.starts[idx]
        return torch.from_numpy(self.signal[start:start + self.window])


for x in DataLoader(Windows(np.zeros((2000, 3))), batch_size=8):
    probe(x)
'''
    assert probe(source % "list(range(0, len(signal) - window, stride))") == ["(batch, 128, 3)"]
    assert probe(source % "list(range(0, len(signal), stride))") == ["(8, self.window, 3)"]
    assert probe(source % "[0, 64, -5]") == ["(batch, self.window, 3)"]


def test_windows_a_loop_cuts_from_a_series_keep_their_length() -> None:
    """`for s in range(len(series) - lookback): xs.append(series[s:s + lookback])`: every `s` is below the last
    start that leaves room, so each window is `lookback` long, and `np.stack(xs)` is (windows, lookback); a loop that
    runs past the room (`range(len(series))`) leaves the windows' length unknown (a size named after the code's
    bound, not 30). There are as many windows as the passes of the loop: those `range` spells out (370), and its
    count past them (`range(19970)`: a list each pass appends to holds 19970)."""
    source = '''
import numpy as np
import torch


def sliding_windows(series, lookback):
    xs = []
    for s in range(%s):
        xs.append(series[s:s + lookback])
    return np.stack(xs)


probe(torch.from_numpy(sliding_windows(np.zeros(400), 30)))
probe(torch.from_numpy(sliding_windows(np.zeros(20000), 30)))
'''
    assert probe(source % "len(series) - lookback") == ["(370, 30)", "(19970, 30)"]
    assert probe(source % "len(series)") == ["(400, lookback)", "(20000, lookback)"]


def test_tiling_and_the_remainder_of_an_array() -> None:
    """A traffic table's time-of-day channel: `np.arange(steps) % 288 / 288.0`, one column tiled across the nodes
    (`np.tile(col, (1, n_nodes))`); a repetition count longer than the array's rank pads the array with ones in
    front, a shorter one the counts. What numpy gives (checked): (31, 20), (15,), (2, 2, 6), (2, 6, 8)."""
    assert probe('''
import numpy as np
import torch

steps, n_nodes = 31, 20
tod = np.tile((np.arange(steps) % 288 / 288.0)[:, None], (1, n_nodes))
probe(torch.tensor(tod))
probe(torch.tensor(np.tile(np.arange(5), 3)))
probe(torch.tensor(np.tile(np.zeros((2, 3)), (2, 1, 2))))
probe(torch.tensor(np.tile(np.zeros((2, 3, 4)), (2, 2))))
probe_dtype(torch.tensor(np.arange(10) // 3))
probe(torch.tensor(np.tile(np.zeros((2, 3)), reps)))
''') == ["(31, 20)", "(15,)", "(2, 2, 6)", "(2, 6, 8)", "int", None]


def test_numbers_a_loop_appends_make_an_array_of_their_count() -> None:
    """Labels a loop appends, each a number (a capped remaining life, `min(life - end, 125)`), make a 1-d array
    whose length is not stated, the same for both lists the inner loop grows on the same passes (`n`); `min` of
    numbers is a number, of anything else nothing known."""
    assert probe('''
import numpy as np
import torch

def remaining_life(lives, window=30):
    targets, floats = [], []
    for life in lives:
        for end in range(window, int(life)):
            targets.append(min(int(life) - end, 125))
            floats.append(max(float(end) / life, 0.0))
    probe(torch.from_numpy(np.asarray(targets, dtype=np.float32)))
    probe(torch.from_numpy(np.array(floats)))
    probe_dtype(torch.from_numpy(np.asarray(targets, dtype=np.float32)))

def not_numbers(rows):
    caps = []
    for row in rows:
        caps.append(min(row, torch.ones(3)))
    probe(torch.from_numpy(np.asarray(caps)))
''') == ["(n,)", "(n,)", "float", None]


def test_a_draw_without_size_is_one_number() -> None:
    """`rng.integers(0, 20)`, `rng.random()`, `np.random.randint(0, 3)` without `size` are numbers (a random length
    in a synthetic data set); with a `size` they are arrays, not numbers."""
    assert probe('''
import numpy as np
import torch

rng = np.random.default_rng(0)
lives = []
for cell in range(6):
    life = 60 + rng.integers(0, 20)
    lives.append(min(life, 70))
probe(torch.from_numpy(np.asarray(lives)))
probe(torch.tensor([rng.random(), np.random.randint(0, 3), rng.normal(0.0, 1.0)]))
sized = []
for cell in range(6):
    sized.append(min(rng.integers(0, 20, 3), 70))
probe(torch.from_numpy(np.asarray(sized)))
''') == ["(6,)", "(3,)", None]


def test_audio_features_made_with_numpy() -> None:
    """A hand-written feature pipeline: windows (`np.hanning`), a real FFT along an axis (`n // 2 + 1` bins, or `n`
    given), a DCT matrix scaled by a numpy scalar (`np.sqrt(2.0 / n)`), noise drawn with another array's
    `.shape`, a clip length from a sample rate times seconds, and the elements of a 1-D array iterated."""
    assert probe('''
import numpy as np
import torch

def dct_matrix(n_out, n_in):
    n = np.arange(n_in)
    k = np.arange(n_out)[:, None]
    return (np.cos(np.pi / n_in * (n + 0.5) * k) * np.sqrt(2.0 / n_in)).astype(np.float32)

rng = np.random.default_rng(0)
sample_rate, seconds = 16000, 0.5
t = np.arange(int(sample_rate * seconds)) / sample_rate
clip = np.sin(2 * np.pi * 440 * t) + 0.1 * rng.normal(size=t.shape)
frames = np.stack([clip[s:s + 400] * np.hamming(400) for s in range(0, len(clip) - 400 + 1, 160)])
probe(torch.from_numpy(clip))
probe(torch.from_numpy(np.abs(np.fft.rfft(frames, axis=1)) ** 2))
probe(torch.from_numpy(np.fft.rfft(frames, n=512)))
probe(torch.from_numpy(np.fft.irfft(np.fft.rfft(frames))))
probe(torch.from_numpy(dct_matrix(13, 40)))
pitches = rng.integers(0, 12, size=32)
tones = [np.sin(2 * np.pi * (220 + 20 * p) * t) for p in pitches]
probe(torch.from_numpy(tones[0]))
probe(torch.from_numpy(np.fft.rfft(frames, axis=2)))
''') == ["(8000,)", "(48, 201)", "(48, 257)", "(48, 400)", "(13, 40)", "(8000,)", None]


def test_a_numpy_function_given_unpacked_keywords_is_no_number() -> None:
    """`np.sqrt(**opts)` beside an array: which argument it is given can't be told, so it is no known number (the
    fuzzer's program crashed the analysis there)."""
    assert probe('''
import numpy as np
import torch

probe(torch.from_numpy(np.zeros(3) * np.sqrt(**opts)))
probe(torch.from_numpy(np.zeros(3) * np.sqrt(2.0)))
''') == [None, "(3,)"]



def test_an_array_of_unknown_data_reshaped_to_stated_sizes() -> None:
    """`np.asarray(ann["keypoints"]).reshape(N_JOINTS, 3)`: whatever the data holds, the array has the sizes the
    reshape states."""
    assert probe("""
import numpy as np
import torch

N_JOINTS = 17

def load(annotations):
    for ann in annotations:
        probe(torch.from_numpy(np.asarray(ann["keypoints"], dtype=np.float32).reshape(N_JOINTS, 3)))
""") == ["(17, 3)"]


def test_rows_an_int_array_picks() -> None:
    """`np.eye(k)[labels]` (one-hot rows) and `table[ids]` (a lookup) give one row per index, as a tensor indexed by
    an int tensor does; a boolean mask picks a count of its own (`(table[:, 0] > 0).sum()`), and several index arrays
    broadcast together: unknown."""
    assert probe('''
import numpy as np
import torch

rng = np.random.default_rng(0)
labels = rng.integers(0, 7, size=300)
table = rng.normal(size=(50, 16)).astype(np.float32)
ids = np.arange(20)
probe(torch.from_numpy(np.eye(7, dtype=np.float32)[labels]))
probe(torch.from_numpy(table[ids]))
probe(torch.from_numpy(table[torch.arange(5)].copy()))
probe(torch.from_numpy(table[:, ids]))
probe(torch.from_numpy(table[table[:, 0] > 0]))
probe(torch.from_numpy(table[ids, ids]))
probe(torch.from_numpy(table[rng.normal(size=20)]))
''') == ["(300, 7)", "(20, 16)", "(5, 16)", "(50, 20)", "((table[:, 0] > 0).sum(), 16)", None,
                                                   None]


def test_a_stepped_slice_keeps_what_python_keeps() -> None:
    """An augmentation's flip (`img[:, ::-1]`) keeps every entry of a dim, even of a size not known; a stride over a
    literal size keeps what Python's own slice rule keeps (`[::2]` of 32 is 16, `[5:1:-2]` is 2); a stride over a
    size not known, or a step not stated, stays unknown."""
    assert probe('''
import numpy as np
import torch

def f(side: int, step: int):
    img = np.zeros((32, 32, 3), dtype=np.float32)
    probe(torch.from_numpy(np.ascontiguousarray(img[:, ::-1, :])))
    probe(torch.from_numpy(img[::2].copy()))
    probe(torch.from_numpy(img[1::3, 5:1:-2].copy()))
    probe(torch.from_numpy(img[:, ::1]))
    grid = np.zeros((side, side))
    probe(torch.from_numpy(grid[::-1, ::2].copy()))
    probe(torch.from_numpy(img[::step]))
''') == ["(32, 32, 3)", "(16, 32, 3)", "(11, 2, 3)", "(32, 32, 3)", "(side, side[::2])", "((32)[::step], 32, 3)"]


def test_a_signal_framed_by_an_index_array_has_the_frames_shape() -> None:
    """A hand-written STFT: the wave `np.pad`ded by half a window on each side (one pair pads every axis, one pair
    per axis each its own), framed by a 2-d array of sample indices (`wave[starts[:, None] + offsets]` puts the
    index array's dims where the indexed dim was), the starts an int array however the int that scales them is
    named; a pad width or a scale the code does not state leaves it unknown."""
    assert probe('''
import numpy as np
import torch

def frames(n_fft: int, width, scale):
    hop = 160
    wave = np.zeros(16000, dtype=np.float32)
    padded = np.pad(wave, (n_fft // 2, n_fft // 2), mode="reflect")
    probe(torch.from_numpy(padded))
    count = 1 + (16000 - 400) // hop
    starts = hop * np.arange(count)
    probe_dtype(torch.from_numpy(starts))
    index = starts[:, None] + np.arange(400)[None, :]
    probe(torch.from_numpy(wave[index]))
    image = np.zeros((3, 30, 40))
    probe(torch.from_numpy(np.pad(image, ((0, 0), (1, 1), (2, 2)))))
    probe(torch.from_numpy(np.pad(image, 1)))
    probe(torch.from_numpy(np.pad(image, width)))
    probe_dtype(torch.from_numpy(scale * np.arange(count)))
''') == ["(2 * (n_fft // 2) + 16000,)", "int", "(98, 400)", "(3, 32, 44)", "(5, 32, 42)", None, "?"]


def test_an_int_apart_from_an_index_array_is_numpy_s_advanced_indexing() -> None:
    """numpy takes `cube[0, :, idx]`'s int as an index array too: apart from `idx`, their broadcast dims go first,
    (2, 6) where torch's basic int gives (6, 2); an int beside the index array (`cube[0, idx]`) is read as both read it."""
    assert probe('''
import numpy as np
import torch

cube = np.zeros((5, 6, 7))
idx = np.array([0, 1])
probe(torch.from_numpy(cube[0, :, idx]))
probe(torch.from_numpy(cube[0, idx]))
probe(torch.from_numpy(cube)[0, :, torch.from_numpy(idx)])
''') == [None, "(2, 7)", "(6, 2)"]


def test_a_grid_of_coordinates_and_the_rows_an_unpacking_takes() -> None:
    """`np.mgrid[0:h, 0:w]` is one (h, w) grid per slice, stacked, and unpacking an array gives its rows as
    unpacking a tensor does, so a synthetic depth map built from `ys, xs` keeps its (h, w); a complex step (a
    count of points) and an unpacking into another count are unknown."""
    assert probe('''
import numpy as np
import torch

rows, cols = 30, 40
yy, xx = np.mgrid[0:rows, 0:cols]
probe(torch.from_numpy(yy))
probe(torch.from_numpy(np.mgrid[2:rows, 0:cols:2]))
probe_dtype(torch.from_numpy(xx))
probe(torch.from_numpy(np.mgrid[0:cols]))
height = 1.0 + 0.5 * yy / rows + np.random.randn(rows, cols)
probe(torch.from_numpy(height[None]))
probe(torch.from_numpy(np.mgrid[0:1:5j, 0:1:5j]))
a, b, c = np.mgrid[0:rows, 0:cols]
probe(torch.from_numpy(a))
first, second = np.zeros((2, 5, 6))
probe(torch.from_numpy(second))
''') == ["(30, 40)", "(2, 28, 20)", "int", "(40,)", "(1, 30, 40)", None, None, "(5, 6)"]


def test_windows_a_comprehension_slices_over_a_long_range_are_counted_and_whole() -> None:
    """`np.stack([prices[i:i + 10] for i in range(110)])` over 120 days: too many passes to run one by one, each `i`
    is an int below 110, so every window stays inside the table (10 rows), and there is one window per pass (the
    same as the `for` loop that appends them); the same over `range(len(prices) - window)`. Two clauses over one
    range are two ints, and a condition leaves the count unknown."""
    assert probe('''
import numpy as np
import torch

prices = np.zeros((120, 5))
window = 10
probe(torch.from_numpy(np.stack([prices[i:i + 10] for i in range(110)])))
probe(torch.from_numpy(np.stack([prices[i:i + window] for i in range(len(prices) - window)])))
probe(torch.from_numpy(np.stack([prices[i:i + 10] for i in range(110) if i % 2])))
probe_dim(len([i - j for i in range(100) for j in range(100)]))
probe(torch.from_numpy(np.stack([prices[i:i + 20] for i in range(110)])))
''') == ["(110, 10, 5)", "(110, 10, 5)", "(n, 10, 5)", "len([i - j for i in range(100) for j in range(100)])",
           "(110, (120)[i:i + 20], 5)"]
    # (N, window, features) windows into a Conv1d over the 5 features (checked in torch: "expected input[110, 10,
    # 5] to have 5 channels, but got 10 channels instead"); with the features moved to dim 1, it runs
    windows = '''
import numpy as np
import torch
import torch.nn as nn

prices = np.random.rand(120, 5)
x = torch.from_numpy(np.stack([prices[i:i + 10] for i in range(110)])).float()
h = nn.Conv1d(5, 16, 3)(x)
'''
    assert [(f.location.row, f.code) for f in lint(windows, "SC105").findings] == [(8, "SC105")]
    assert lint(windows.replace("(x)", "(x.transpose(1, 2))"),
                "SC105").findings == []
