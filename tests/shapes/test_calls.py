"""Objects and calls: which layer a name or argument holds when a helper builds it, and what the code a call runs
finds, reported where the caller wrote it."""

from __future__ import annotations

from tests.helpers import lint


def rows(source: str, code: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint(source, code).findings]


def test_a_stack_of_helper_blocks_is_reported_at_the_block_that_does_not_fit() -> None:
    """Two blocks from one helper share its `nn.Sequential(...)`: the finding names the caller's argument."""
    found = rows('''
import torch.nn as nn

def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())

encoder = nn.Sequential(block(1, 16), block(16, 32), block(64, 64))
decoder = nn.Sequential(block(64, 32), block(32, 16))
''', "SC105")
    assert found == [(7, "`block(64, 64)` expects 64, but the layers before it give 32 channels (dim -3) "
                         "(`block(16, 32)`)")]


def test_a_models_return_annotation_stands_where_its_forward_says_less() -> None:
    """An encoder given as an annotated parameter, whose forward ends in a layer the analysis doesn't model: its
    jaxtyping return annotation is what a call gives."""
    found = rows('''
import torch
from torch import Tensor, nn
from jaxtyping import Float

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = make_body()
    def forward(self, x: Float[Tensor, "B 3 H W"]) -> Float[Tensor, "B 256"]:
        return self.body(x).flatten(1)

class Probe(nn.Module):
    def __init__(self, encoder: Encoder, classes: int = 10):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(512, classes)
    def forward(self, images):
        return self.head(self.encoder(images))
''', "SC105")
    assert found == [(19, "`self.head(self.encoder(images))`: the input is (B, 256): 256 features (last dim), but "
                          "`self.head` = nn.Linear(512, classes) expects 512")]


MULTI_HEAD = '''
import torch
import torch.nn as nn

class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.tasks = nn.ModuleDict({{"age": nn.Linear(64, 1), "kind": nn.Linear(128, 5)}})
        {extra}
    def forward(self, h):
        return {{name: task(h) for name, task in self.tasks.items()}}, [task(h) for task in self.tasks.values()]

MultiTask()(torch.randn(4, 64))
'''


def test_the_layers_of_a_module_dict_through_its_views() -> None:
    found = rows(MULTI_HEAD.format(extra=""), "SC105")
    assert [row for row, _ in found] == [13]
    assert "then in MultiTask.forward, `task(h)`: h is (4, 64): 64 features (last dim), but `task` = " \
           "nn.Linear(128, 5) expects 128" in found[0][1]


def test_a_module_dict_entry_replaced_after_it_is_built() -> None:
    assert rows(MULTI_HEAD.format(extra='self.tasks["kind"] = nn.Linear(64, 5)'), "SC105") == []


def test_a_list_of_batches_handed_to_a_helper_is_run_through() -> None:
    """The tensors come into the helper inside a list (of tuples): the call is still run on them."""
    found = rows('''
import torch
import torch.nn as nn

def evaluate(model, batches):
    for x, y in batches:
        out = model(x)

def first(model, data):
    return model(data[0])

fc = nn.Linear(10, 3)
evaluate(fc, [(torch.randn(8, 12), torch.zeros(8))])
first(fc, {"a": torch.randn(8, 10)})
first(fc, [torch.randn(8, 12)])
''', "SC105")
    assert [row for row, _ in found] == [13, 15]
    assert found[0][1].startswith("`evaluate(fc, [(torch.randn(8, 12), torch.zeros(8))])`: then in evaluate, "
                                  "`model(x)`: x is (8, 12): 12 features (last dim)")
