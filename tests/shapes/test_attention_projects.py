"""Attention and einsum bugs in small projects written the way repositories are: a model package of several files,
a dataset, a trainer or runner class holding the model and the loader, a config; each with its fixed look-alike."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project, project_findings

# a causal mask made once for the context length (`block_size`) and kept as a buffer, given whole to a batch-first
# nn.MultiheadAttention while the dataset's chunks are shorter (checked in torch 2.13: "The shape of the 2D
# attn_mask is torch.Size([128, 128]), but should be (32, 32)"); the fix slices it to the tokens' length
_GPT_ATTENTION = '''
import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.attn = nn.MultiheadAttention(n_embd, n_head, dropout=0.1, batch_first=True)
        self.register_buffer("causal_mask", torch.triu(torch.ones(block_size, block_size, dtype=torch.bool), 1))

    def forward(self, x):
        t = x.size(1)
        y, _ = self.attn(x, x, x, attn_mask=self.causal_mask%s, need_weights=False)
        return y
'''
_GPT_MODEL = '''
import torch
import torch.nn as nn

from .attention import CausalSelfAttention


class Layer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln = nn.LayerNorm(cfg["n_embd"])
        self.sa = CausalSelfAttention(cfg["n_embd"], cfg["n_head"], cfg["block_size"])

    def forward(self, x):
        return x + self.sa(self.ln(x))


class MiniGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg["vocab_size"], cfg["n_embd"])
        self.pos = nn.Embedding(cfg["block_size"], cfg["n_embd"])
        self.blocks = nn.Sequential(*[Layer(cfg) for _ in range(cfg["n_layer"])])
        self.lm_head = nn.Linear(cfg["n_embd"], cfg["vocab_size"])

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        return self.lm_head(self.blocks(self.tok(idx) + self.pos(pos)))
'''
_GPT_DATA = '''
import torch
from torch.utils.data import Dataset


class Chunks(Dataset):
    def __init__(self, seq_len):
        self.data = torch.randint(0, 65, (5000,))
        self.seq_len = seq_len

    def __len__(self):
        return len(self.data) - self.seq_len - 1

    def __getitem__(self, i):
        chunk = self.data[i:i + self.seq_len + 1]
        return chunk[:-1], chunk[1:]
'''
# the runner's steps counted by a `while` whose condition holds on entry, over a loader it keeps on `self`
_GPT_TRAIN = '''
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import Chunks
from gpt import MiniGPT


class Runner:
    def __init__(self, cfg, model, loader):
        self.model = model
        self.loader = loader
        self.optim = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])

    def step(self, xb, yb):
        logits = self.model(xb)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), yb.view(-1))
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()

    def train(self, max_iters):
        it = 0
        while it < max_iters:
            for xb, yb in self.loader:
                self.step(xb, yb)
                it += 1


def main():
    cfg = dict(vocab_size=65, n_embd=64, n_head=4, n_layer=2, block_size=128, seq_len=32, batch_size=12, lr=3e-4)
    loader = DataLoader(Chunks(cfg["seq_len"]), batch_size=cfg["batch_size"], shuffle=True, drop_last=True)
    Runner(cfg, MiniGPT(cfg), loader).train(100)


if __name__ == "__main__":
    main()
'''


def _gpt(mask: str) -> dict[str, str]:
    return {"gpt/__init__.py": "from .model import MiniGPT\n", "gpt/attention.py": _GPT_ATTENTION % mask,
            "gpt/model.py": _GPT_MODEL, "data.py": _GPT_DATA, "train.py": _GPT_TRAIN}


def test_a_causal_buffer_for_the_context_length_given_shorter_chunks_by_a_runner(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _gpt(""), "SC105") == [("train.py", 17)]
    assert lint_project(tmp_path, _gpt("[:t, :t]"), "SC105") == []


# a graph convolution of a traffic model contracts the nodes of a (batch, time, nodes, channels) input with the
# normalized adjacency a helper of utils/ builds with numpy (D^-1/2 A D^-1/2, `np.diag`); the dataset hands each
# window as (nodes, time, 1), so the temporal convolution runs over the nodes and the einsum meets the window where
# the nodes belong (checked in torch 2.13: "einsum(): subscript w has size 12 for operand 1 which does not broadcast
# with previously seen size 20"); the fix yields (time, nodes, 1)
_TRAFFIC_GRAPH = '''
import numpy as np
import torch


def normalized_adjacency(num_nodes, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.random((num_nodes, num_nodes)) > 0.7).astype(np.float32)
    a = a + a.T + np.eye(num_nodes, dtype=np.float32)
    d = np.diag(1.0 / np.sqrt(a.sum(1)))
    return torch.from_numpy(d @ a @ d).float()
'''
_TRAFFIC_LAYERS = '''
import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.theta = nn.Linear(c_in, c_out)

    def forward(self, x, adj):
        return self.theta(torch.einsum("vw,btwc->btvc", adj, x))


class TemporalConv(nn.Module):
    def __init__(self, c_in, c_out, kt=3):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, (kt, 1))

    def forward(self, x):
        return self.conv(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)


class STBlock(nn.Module):
    def __init__(self, c_in, c_hid, c_out):
        super().__init__()
        self.t1 = TemporalConv(c_in, c_hid)
        self.g = GraphConv(c_hid, c_hid)
        self.t2 = TemporalConv(c_hid, c_out)

    def forward(self, x, adj):
        return self.t2(self.g(self.t1(x).relu(), adj).relu())
'''
_TRAFFIC_TRAIN = '''
from types import SimpleNamespace

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from model.layers import STBlock
from utils.graph import normalized_adjacency

cfg = SimpleNamespace(num_nodes=20, window=12, horizon=3, batch_size=16)


class TrafficWindows(Dataset):
    def __init__(self, series, window, horizon):
        self.series = series
        self.window = window
        self.horizon = horizon

    def __len__(self):
        return self.series.shape[0] - self.window - self.horizon

    def __getitem__(self, i):
        x = self.series[i:i + self.window]%s.unsqueeze(-1)
        return x, self.series[i + self.window:i + self.window + self.horizon].T


series = torch.randn(500, cfg.num_nodes)
adj = normalized_adjacency(cfg.num_nodes)
model = STBlock(1, 16, 32)
head = nn.Linear(32 * (cfg.window - 4), cfg.horizon)
for x, y in DataLoader(TrafficWindows(series, cfg.window, cfg.horizon), batch_size=cfg.batch_size, shuffle=True):
    h = model(x, adj)
    pred = head(h.permute(0, 2, 1, 3).flatten(2))
'''


def test_an_einsum_with_the_adjacency_a_numpy_helper_normalizes(tmp_path: Path) -> None:
    files = {"model/__init__.py": "", "model/layers.py": _TRAFFIC_LAYERS, "utils/__init__.py": "",
             "utils/graph.py": _TRAFFIC_GRAPH, "train.py": _TRAFFIC_TRAIN % ".T"}
    assert lint_project(tmp_path, files, "SC105") == [("train.py", 33)]
    assert lint_project(tmp_path, {"train.py": _TRAFFIC_TRAIN % ""}, "SC105") == []


# a token tagger whose positional table, made for 512 positions, is cut to the tokens (`self.pe[:, :x.size(1)]`)
# and added to them: the sum keeps the tokens' length, so the (batch, longest) padding mask a collate function
# makes is still checked against a TransformerEncoder that is not batch first (checked in torch 2.13: "Expected
# key_padded_mask.shape[0] to be 29, but got 16"); the layer made batch first stays clean
_TAGGER_ENCODER = '''
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=512):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div)
        pe[:, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class SequenceEncoder(nn.Module):
    def __init__(self, vocab_size, d_model, nhead, num_layers):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=4 * d_model%s)
        self.encoder = nn.TransformerEncoder(layer, num_layers)

    def forward(self, tokens, padding_mask):
        return self.encoder(self.pos(self.embed(tokens)), src_key_padding_mask=padding_mask)
'''
_TAGGER_MODULE = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

from .encoder import SequenceEncoder


class TaggerModule(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.hparams = hparams
        self.encoder = SequenceEncoder(hparams["vocab_size"], hparams["d_model"], hparams["nhead"], hparams["layers"])
        self.classifier = nn.Linear(hparams["d_model"], hparams["num_tags"])

    def forward(self, tokens, padding_mask):
        return self.classifier(self.encoder(tokens, padding_mask))

    def training_step(self, batch, batch_idx):
        logits = self(batch["tokens"], batch["padding_mask"])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), batch["tags"].reshape(-1), ignore_index=-100)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams["lr"])
'''
_TAGGER_DATA = '''
import torch
from torch.utils.data import Dataset


class TokenDataset(Dataset):
    def __init__(self, n, vocab_size, num_tags):
        lengths = torch.randint(4, 30, (n,))
        self.samples = [(torch.randint(1, vocab_size, (int(l),)), torch.randint(0, num_tags, (int(l),)))
                        for l in lengths]

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def collate_batch(batch):
    longest = max(len(tokens) for tokens, _ in batch)
    tokens = torch.zeros(len(batch), longest, dtype=torch.long)
    tags = torch.full((len(batch), longest), -100, dtype=torch.long)
    for i, (tok, tag) in enumerate(batch):
        tokens[i, : len(tok)] = tok
        tags[i, : len(tag)] = tag
    return {"tokens": tokens, "tags": tags, "padding_mask": tokens == 0}
'''
_TAGGER_TRAIN = '''
from torch.utils.data import DataLoader

from src.tagger import TaggerModule, TokenDataset, collate_batch

HPARAMS = {"vocab_size": 800, "d_model": 64, "nhead": 4, "layers": 2, "num_tags": 9, "lr": 5e-4}


def fit(module, loader, epochs=2):
    optimizer = module.configure_optimizers()
    module.train()
    for epoch in range(epochs):
        for batch_idx, batch in enumerate(loader):
            loss = module.training_step(batch, batch_idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    loader = DataLoader(TokenDataset(96, HPARAMS["vocab_size"], HPARAMS["num_tags"]), batch_size=16, shuffle=True,
                        collate_fn=collate_batch)
    fit(TaggerModule(HPARAMS), loader)
'''


def test_a_padding_mask_after_a_positional_table_cut_to_the_tokens(tmp_path: Path) -> None:
    files = {"src/__init__.py": "",
             "src/tagger/__init__.py": "from .module import TaggerModule\nfrom .data import TokenDataset, collate_batch\n",
             "src/tagger/encoder.py": _TAGGER_ENCODER % "", "src/tagger/module.py": _TAGGER_MODULE,
             "src/tagger/data.py": _TAGGER_DATA, "train.py": _TAGGER_TRAIN}
    assert lint_project(tmp_path, files, "SC105") == [("train.py", 14)]
    assert lint_project(tmp_path, {"src/tagger/encoder.py": _TAGGER_ENCODER % ", batch_first=True"}, "SC105") == []


# a tagger of a `src/` package: the dataset hands token ids, a collate function of the package pads them with
# `pad_sequence` (sequence first, its default) after `zip(*batch)`, and a trainer of the script masks the padding of
# the (longest, batch) tokens, giving that mask to a `TransformerEncoder` that is not batch first: it asks for the
# (batch, longest) mask (checked in torch 2.13: "Expected key_padded_mask.shape[0] to be 32, but got 19"). The
# trainer's epochs are counted by `range(args.epochs)` of the script's own parse; the fix transposes the mask
_PADDED_DATA = '''
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

PAD = 0


class TagDataset(Dataset):
    def __init__(self, sentences, tags):
        self.sentences = sentences
        self.tags = tags

    def __len__(self):
        return len(self.sentences)

    def __getitem__(self, i):
        return torch.tensor(self.sentences[i]), torch.tensor(self.tags[i])


def collate_batch(batch):
    words, tags = zip(*batch)
    return pad_sequence(words, padding_value=PAD), pad_sequence(tags, padding_value=-100)
'''
_PADDED_MODEL = '''
import torch.nn as nn


class TransformerTagger(nn.Module):
    def __init__(self, vocab_size, num_tags, d_model=128, nhead=4, num_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=256)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.out = nn.Linear(d_model, num_tags)

    def forward(self, words, padding_mask):
        return self.out(self.encoder(self.embed(words), src_key_padding_mask=padding_mask))
'''
_PADDED_TRAIN = '''
import argparse
import random

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tagger import TagDataset, TransformerTagger, collate_batch
from tagger.data import PAD


class Trainer:
    def __init__(self, model, loader, lr):
        self.model = model
        self.loader = loader
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self):
        for words, tags in self.loader:
            mask = %s
            scores = self.model(words, mask)
            loss = F.cross_entropy(scores.view(-1, scores.size(-1)), tags.view(-1), ignore_index=-100)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    sents = [[random.randint(1, 999) for _ in range(random.randint(3, 20))] for _ in range(500)]
    tags = [[random.randint(0, 8) for _ in s] for s in sents]
    loader = DataLoader(TagDataset(sents, tags), batch_size=args.batch_size, shuffle=True, collate_fn=collate_batch)
    trainer = Trainer(TransformerTagger(1000, 9), loader, 1e-3)
    for _ in range(args.epochs):
        trainer.train_epoch()


if __name__ == "__main__":
    main()
'''


def _padded(mask: str) -> dict[str, str]:
    return {"pyproject.toml": '[project]\nname = "tagger"\n',
            "src/tagger/__init__.py": "from .data import TagDataset, collate_batch\nfrom .model import TransformerTagger\n",
            "src/tagger/data.py": _PADDED_DATA, "src/tagger/model.py": _PADDED_MODEL,
            "scripts/train.py": _PADDED_TRAIN % mask}


def test_a_padding_mask_of_tokens_a_collate_function_pads_sequence_first(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _padded("words == PAD"), "SC105") == [("scripts/train.py", 22)]
    assert lint_project(tmp_path, _padded("(words == PAD).t()"), "SC105") == []


# a forecaster whose GRU encoder (not batch first) hands its outputs time-major, (window, batch, hidden), to an
# attention module of another file written for (batch, window, hidden) keys: bmm against the (batch, hidden, 1)
# query finds the window where the batch belongs (checked in torch 2.13: "Expected size for first two dimensions of
# batch2 tensor to be: [24, 32] but got: [16, 32]") whatever the batch size the ini file holds, and mixes the
# batch's windows where the two happen to be one; the outputs made batch first stay clean
_WINDOW_ENCODER = '''
import torch.nn as nn


class WindowEncoder(nn.Module):
    def __init__(self, n_features, hidden):
        super().__init__()
        self.rnn = nn.GRU(n_features, hidden)

    def forward(self, windows):
        outputs, last = self.rnn(windows.transpose(0, 1))
        return outputs%s, last[-1]
'''
_WINDOW_ATTENTION = '''
import torch
import torch.nn as nn


class BilinearAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, keys, query):
        scores = torch.bmm(keys, self.proj(query).unsqueeze(2)).squeeze(2)
        return torch.bmm(scores.softmax(dim=1).unsqueeze(1), keys).squeeze(1)
'''
_WINDOW_MODEL = '''
import torch
import torch.nn as nn

from .attention import BilinearAttention
from .encoder import WindowEncoder


class Forecaster(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg.getint("model", "hidden")
        self.encoder = WindowEncoder(cfg.getint("data", "features"), hidden)
        self.attention = BilinearAttention(hidden)
        self.head = nn.Linear(2 * hidden, 1)

    def forward(self, windows):
        keys, query = self.encoder(windows)
        return self.head(torch.cat([self.attention(keys, query), query], dim=1)).squeeze(1)
'''
_WINDOW_TRAIN = '''
import configparser

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from forecast.model import Forecaster


class Windows(Dataset):
    def __init__(self, series, window):
        self.series = series
        self.window = window

    def __len__(self):
        return len(self.series) - self.window

    def __getitem__(self, i):
        return self.series[i:i + self.window], self.series[i + self.window, 0]


def train(cfg, model, loader):
    opt = torch.optim.Adam(model.parameters(), lr=cfg.getfloat("train", "lr"))
    for epoch in range(10):
        for x, y in loader:
            loss = F.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    cfg = configparser.ConfigParser()
    cfg.read("forecast.ini")
    series = torch.randn(500, cfg.getint("data", "features"))
    loader = DataLoader(Windows(series, 24), batch_size=cfg.getint("train", "batch_size"), shuffle=True)
    train(cfg, Forecaster(cfg), loader)
'''


def _windows(outputs: str) -> dict[str, str]:
    return {"forecast/__init__.py": "", "forecast/encoder.py": _WINDOW_ENCODER % outputs,
            "forecast/attention.py": _WINDOW_ATTENTION, "forecast/model.py": _WINDOW_MODEL,
            "train.py": _WINDOW_TRAIN,
            "forecast.ini": "[data]\nfeatures = 5\n[model]\nhidden = 32\n[train]\nbatch_size = 16\nlr = 0.001\n"}


def test_time_major_encoder_outputs_as_the_keys_of_a_batch_first_attention(tmp_path: Path) -> None:
    found = project_findings(tmp_path, _windows(""), "SC105")
    assert [(name, finding.location.row) for name, finding in found] == [("train.py", 27)]
    assert "the batch of self.proj(query).unsqueeze(2) is the second dim of keys" in found[0][1].message
    assert lint_project(tmp_path, _windows(".transpose(0, 1)"), "SC105") == []
