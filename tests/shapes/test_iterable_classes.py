"""What a loop over an object of a project class binds: the values its generator `__iter__` hands out, read with
the object's attributes; nothing for an `__iter__` that returns an iterator or a class iterated by `__getitem__`."""

from __future__ import annotations

from tests.helpers import lint
from tests.shapes.probe import probe

BATCH_ITERATOR = '''
import torch

class BatchIterator:
    def __init__(self, x, y, batch_size=32):
        self.x, self.y = x, y
        self.batch_size = batch_size

    def __iter__(self):
        for i in range(0, self.x.size(0), self.batch_size):
            yield self.x[i:i + self.batch_size], self.y[i:i + self.batch_size]
'''


def test_a_loop_over_a_batch_iterator_gets_its_yielded_batches() -> None:
    """256 rows in batches of 32 are eight full batches; of 250 rows the last is shorter, so the batch is a size of
    its own (the features known all the same)."""
    assert probe(BATCH_ITERATOR + '''
X, Y = torch.randn(256, 20), torch.randint(0, 4, (256,))
for x, y in BatchIterator(X, Y, 32):
    probe(x)
    probe(y)
loader = BatchIterator(X, Y)
for step, (x, y) in enumerate(loader):
    probe(x)
for x, y in BatchIterator(X[:250], Y[:250]):
    probe(x)
''') == ["(32, 20)", "(32,)", "(32, 20)", "(n, 20)"]


def test_the_yields_read_the_objects_attributes() -> None:
    assert probe('''
import torch

class Windows:
    def __init__(self, length, features=8):
        self.length = length
        self.features = features

    def __iter__(self):
        for _ in range(10):
            yield torch.randn(4, self.length, self.features)

for w in Windows(16):
    probe(w)
for w in Windows(24, features=3):
    probe(w)
''') == ["(4, 16, 8)", "(4, 24, 3)"]


def test_an_iter_that_hands_on_another_methods_generator_gets_its_yields() -> None:
    """transformer-xl's `def __iter__(self): return self.get_fixlen_iter()`."""
    assert probe('''
import torch

class OrderedIterator:
    def __init__(self, data, bptt):
        self.data = data
        self.bptt = bptt

    def fixed_length(self, start=0):
        for i in range(start, 100, self.bptt):
            yield self.data[:, :5], self.data

    def __iter__(self):
        return self.fixed_length()

for x, y in OrderedIterator(torch.randn(20, 32), 20):
    probe(x)
''') == ["(20, 5)"]


def test_iterators_with_next_and_getitem_sequences_give_nothing() -> None:
    assert probe('''
import torch

class Stream:
    def __init__(self):
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.i += 1
        return torch.randn(4, 8)

class Rows:
    def __getitem__(self, i):
        return torch.randn(4, 8)

for a in Stream():
    probe(a)
for b in Rows():
    probe(b)
''') == ["(...)", "(...)"]


def test_a_shape_bug_on_a_batch_iterators_batches_is_reported() -> None:
    found = [(f.location.row, f.code) for f in lint(BATCH_ITERATOR + '''
from torch import nn

model = nn.Linear(10, 4)
X, Y = torch.randn(256, 20), torch.randint(0, 4, (256,))
for x, y in BatchIterator(X, Y):
    out = model(x)
''', "SC105").findings]
    assert found == [(18, "SC105")]
