"""Integer values drawn from a stated range (`Shape.below`): kept through views, moves and indexing, dropped by
anything that computes values, and checked against an embedding table's rows."""

from __future__ import annotations

from tests.shapes.probe import probe

HEADER = '''
import torch
import torch.nn as nn
emb = nn.Embedding(65, 8)
data = torch.randint(0, 100, (1000,))
'''


def conflicts(body: str) -> list:
    return probe(HEADER + body)


def test_indices_drawn_past_the_table_are_reported() -> None:
    found = conflicts('''
probe_conflict(emb(data))
probe_conflict(emb(torch.arange(80)))
probe_conflict(emb(torch.randperm(70)))
probe_conflict(emb(torch.randint(66, (4, 8))))
''')
    assert found[0] == ("`emb(data)`: data is (1000,): indices up to 99, but `emb` = nn.Embedding(65, 8) expects "
                        "indices below 65 (num_embeddings)")
    assert all(message is not None and "indices up to" in message for message in found)


def test_views_moves_and_indexing_keep_the_values() -> None:
    found = conflicts('''
batch = data[:32].view(4, 8).long()
probe_conflict(emb(batch))
probe_conflict(emb(data[torch.tensor([0, 1])]))
probe_conflict(emb(torch.flatten(data.unsqueeze(0))))
probe_conflict(emb(data.chunk(4)[0]))
probe_conflict(emb(torch.stack([data[i:i + 8] for i in torch.randint(900, (4,))])))
probe_conflict(emb(torch.cat([data[:8], data[8:16]])))
''')
    assert all(message is not None and "indices up to 99" in message for message in found)


def test_every_integer_legacy_constructor_keeps_a_numpy_arrays_range() -> None:
    found = conflicts('''
import numpy as np
ids = np.random.randint(0, 100, (4,))
probe_conflict(emb(torch.LongTensor(ids)))
probe_conflict(emb(torch.IntTensor(ids)))
probe_conflict(emb(torch.ShortTensor(ids)))
probe_conflict(emb(torch.ByteTensor(ids)))
''')
    assert all(message is not None and "indices up to 99" in message for message in found)


def test_values_an_operation_computes_have_no_bound() -> None:
    assert conflicts('''
probe_conflict(emb(data % 65))
probe_conflict(emb(data - 40))
probe_conflict(emb(data.clamp(max=64)))
probe_conflict(emb(-data))
probe_conflict(emb(data.view(10, 100).max(dim=1)[1]))
probe_conflict(emb(torch.randint(0, 65, (4, 8))))
probe_conflict(emb(torch.arange(65)))
probe_conflict(emb(torch.arange(0, 130, 2)))
''') == [None] * 8


def test_branches_keep_a_bound_only_where_they_agree() -> None:
    found = conflicts('''
probe_conflict(emb(torch.randint(0, 100, (4,)) if input() else torch.randint(0, 10, (4,))))
probe_conflict(emb(torch.randint(0, 100, (4,)) if input() else torch.randint(0, 100, (4,))))
''')
    assert found[0] is None
    assert found[1] is not None and "indices up to 99" in found[1]


def test_class_indices_past_the_classes_are_sc106_unless_a_value_is_ignored() -> None:
    from shapecheck.engine.linter import lint_text
    from shapecheck.engine.registry import resolve

    source = HEADER + '''
import torch.nn.functional as F
logits = torch.randn(32, 10)
labels = torch.randint(1, 11, (32,))
a = F.cross_entropy(logits, labels)
b = nn.CrossEntropyLoss()(logits, labels)
c = F.cross_entropy(logits, labels, ignore_index=10)
d = nn.CrossEntropyLoss(ignore_index=10)(logits, labels)
e = F.nll_loss(logits.log_softmax(-1), labels - 1)
'''
    found = lint_text(source, "t.py", resolve(["SC106"])).findings
    assert [(f.location.row, f.message.split(": ")[-1]) for f in found] == [
        (10, "class indices up to 10, but the input has 10 classes (dim 1)"),
        (11, "class indices up to 10, but the input has 10 classes (dim 1)")]


def test_a_range_one_past_a_table_of_the_same_symbolic_size_is_reported() -> None:
    assert conflicts('''
def positions(max_len, other):
    table = nn.Embedding(max_len, 16)
    probe_conflict(table(torch.arange(max_len + 1)))
    probe_conflict(table(torch.arange(max_len)))
    probe_conflict(table(torch.arange(other)))
''') == ["`table(torch.arange(max_len + 1))`: the input is (max_len + 1,): indices up to max_len, but `table` = "
         "nn.Embedding(max_len, 16) expects indices below max_len (num_embeddings)", None, None]
