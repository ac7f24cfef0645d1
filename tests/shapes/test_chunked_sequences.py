"""Chunks of a corpus cut by `min(bptt, len(source) - 1 - i)` (the word-language-model tutorial's `get_batch`): a
length the code bounds by its int, at most `bptt` rows, so a mask made once for a longer context fails on every
chunk; each with its fixed look-alike."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

# a transformer language model of another file whose causal mask is made once for a 64-token context, given
# chunks of at most 35 rows (checked in torch 2.13: "The shape of the 2D attn_mask is torch.Size([64, 64]), but
# should be (35, 35)"); the mask cut to the chunk, or one made for each chunk's length, is clean
_LM = '''
import math

import torch
import torch.nn as nn


class LearnedPositions(nn.Module):
    """Sequence-first positions: one learned vector per step, up to `max_len`."""

    def __init__(self, d_model, max_len=512):
        super().__init__()
        self.table = nn.Parameter(torch.zeros(max_len, 1, d_model))
        nn.init.normal_(self.table, std=0.02)

    def forward(self, x):
        steps = x.size(0)
        return x + self.table[:steps]


class TransformerLM(nn.Module):
    def __init__(self, ntoken, d_model, nhead, nlayers, context):
        super().__init__()
        self.embed = nn.Embedding(ntoken, d_model)
        self.pos = LearnedPositions(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2 * d_model)
        self.encoder = nn.TransformerEncoder(layer, nlayers)
        self.decoder = nn.Linear(d_model, ntoken)
        self.src_mask = nn.Transformer.generate_square_subsequent_mask(context)
        self.d_model = d_model

    def forward(self, src%s):
        x = self.pos(self.embed(src) * math.sqrt(self.d_model))
        out = self.encoder(x, mask=%s)
        return self.decoder(out)
'''
_DATA = '''
import torch


def batchify(ids, bsz):
    nbatch = ids.size(0) // bsz
    return ids[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_chunk(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target
'''
_TRAIN = '''
import argparse

import torch
import torch.nn as nn

from data import batchify, get_chunk
from lm import TransformerLM

parser = argparse.ArgumentParser()
parser.add_argument("--emsize", type=int, default=32)
parser.add_argument("--nhead", type=int, default=2)
parser.add_argument("--batch_size", type=int, default=4)
args = parser.parse_args()

ntokens = 50
bptt = 35
max_context = 64
corpus = torch.randint(0, ntokens, (600,))
train_data = batchify(corpus, args.batch_size)
model = TransformerLM(ntokens, args.emsize, args.nhead, 2, max_context)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)

model.train()
for i in range(0, train_data.size(0) - 1, bptt):
    data, targets = get_chunk(train_data, i, bptt)
    output = model(%s)
    loss = criterion(output.view(-1, ntokens), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
'''


def _chunks(mask: str, parameter: str = "", call: str = "data") -> dict[str, str]:
    return {"lm.py": _LM % (parameter, mask), "data.py": _DATA, "train.py": _TRAIN % call}


def test_a_mask_made_for_the_context_given_chunks_of_at_most_bptt_rows(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _chunks("self.src_mask"), "SC105") == [("train.py", 28)]
    assert lint_project(tmp_path, _chunks("self.src_mask[:x.size(0), :x.size(0)]"), "SC105") == []


def test_a_mask_made_for_each_chunk_by_the_trainer(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _chunks("self.src_mask if src_mask is None else src_mask", ", src_mask=None",
                                          "data, nn.Transformer.generate_square_subsequent_mask(len(data))"),
                        "SC105") == []


def test_a_chunk_bounded_by_the_mask_size_is_not_told_apart(tmp_path: Path) -> None:
    # at most 64 rows against a 64-token mask: a chunk may be that long (the last one is shorter, which the
    # analysis does not count)
    files = _chunks("self.src_mask")
    files["train.py"] = files["train.py"].replace("bptt = 35", "bptt = 64")
    assert lint_project(tmp_path, files, "SC105") == []


_CAPPED = '''
import torch


def head(n):
    k = min(8, n)
    return torch.zeros(k, 3) + torch.zeros(10, 3)
'''


def test_a_count_capped_by_min_may_be_one_and_broadcast(tmp_path: Path) -> None:
    # `min(8, n)` is at most 8, but 1 where n is: (1, 3) + (10, 3) broadcasts
    assert lint_project(tmp_path, {"head.py": _CAPPED}, "SC105") == []
