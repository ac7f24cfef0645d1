"""Links the analysis used to lose on the way to a shape bug, each in a small project of several files checked in
torch 2.13 (the Lightning one with the model's code alone: the bug is in its `forward`), with its fixed twin and a
clean look-alike: a generator's batches cut on unrolled passes (a short last batch), a chunk of at most `BPTT` rows
against a causal mask made for a command-line context, the language-model tutorials' `batchify`, a parser a helper
builds and returns (`build_parser().parse_args()`), an ini file named by a config module another file imports from,
and a Lightning trainer's `fit` running the model's `training_step` on the loader's batches."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project
from tests.shapes.probe import probe

_SIGNALS = {
    'net.py': '''import torch.nn as nn
import torch.nn.functional as F

from settings import CONV_LAYERS, N_CLASSES


class Conv1dClassifier(nn.Module):
    def __init__(self, layers=CONV_LAYERS, n_classes=N_CLASSES):
        super().__init__()
        self.convs = nn.ModuleList(
            [nn.Conv1d(spec["in"], spec["out"], spec["kernel"], padding=spec["kernel"] // 2) for spec in layers]
        )
        self.fc = nn.Linear(layers[-1]["out"], n_classes)

    def forward(self, x):
        for conv in self.convs:
            x = F.relu(conv(x))
        x = F.adaptive_max_pool1d(x, 1).squeeze(-1)
        return self.fc(x)
''',
    'settings.py': '''CONV_LAYERS = [
    {"in": 10, "out": 32, "kernel": 3},
    {"in": 32, "out": 64, "kernel": 3},
    {"in": 64, "out": 64, "kernel": 3},
]
N_CLASSES = 4
BATCH_SIZE = 16
''',
    'train.py': '''import torch
import torch.nn as nn

from net import Conv1dClassifier
from settings import BATCH_SIZE
from utils import batches, load_signals


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.crit = nn.CrossEntropyLoss()

    def fit(self, X, y, epochs=2):
        for _ in range(epochs):
            for xb, yb in batches(X, y, BATCH_SIZE):
                self.opt.zero_grad()
                out = self.model(xb)
                loss = self.crit(out, yb)
                loss.backward()
                self.opt.step()
        return loss.item()


def main():
    X, y = load_signals()
    trainer = Trainer(Conv1dClassifier())
    print(trainer.fit(X, y))


if __name__ == "__main__":
    main()
''',
    'utils.py': '''import numpy as np
import torch


def load_signals(n=200, n_features=10, n_classes=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features)).astype(np.float32)
    y = rng.integers(0, n_classes, size=n)
    X = torch.from_numpy(X).unsqueeze(1)
    y = torch.from_numpy(y).long()
    return X, y


def batches(X, y, batch_size):
    for i in range(0, len(X), batch_size):
        yield X[i:i + batch_size], y[i:i + batch_size]
''',
}

_LANGUAGE_MODEL = {
    'model.py': '''import math

import torch
from torch import nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=512):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div)
        pe[:, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe.unsqueeze(1))

    def forward(self, x):
        return x + self.pe[: x.size(0)]


class SeqModel(nn.Module):
    def __init__(self, n_tokens, d_model=64, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(n_tokens, d_model)
        self.pos = PositionalEncoding(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads)
        self.out = nn.Linear(d_model, n_tokens)

    def forward(self, src, src_mask):
        x = self.pos(self.embed(src))
        y, _ = self.attn(x, x, x, attn_mask=src_mask)
        return self.out(y)
''',
    'train.py': '''import argparse

import torch
import torch.nn as nn

from model import SeqModel
from utils import causal_mask, get_batch


BPTT = 20


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--bptt", type=int, default=20)
    p.add_argument("--context", type=int, default=35)
    p.add_argument("--batch-size", type=int, default=10)
    p.add_argument("--vocab", type=int, default=100)
    return p.parse_args()


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data[:nbatch * bsz]
    return data.view(bsz, -1).t().contiguous()


def train_epoch(model, source, args, criterion, opt):
    mask = causal_mask(args.context)
    total = 0.0
    for i in range(0, source.size(0) - 1, BPTT):
        data, targets = get_batch(source, i, BPTT)
        output = model(data, mask)
        loss = criterion(output.view(-1, args.vocab), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total


def main():
    args = parse()
    corpus = torch.randint(0, args.vocab, (1000,))
    source = batchify(corpus, args.batch_size)
    model = SeqModel(args.vocab)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print(train_epoch(model, source, args, nn.CrossEntropyLoss(), opt))


if __name__ == "__main__":
    main()
''',
    'utils.py': '''import torch


def causal_mask(size):
    return torch.triu(torch.full((size, size), float("-inf")), diagonal=1)


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target
''',
}

_FPN = {
    'det/__init__.py': '''''',
    'det/fpn.py': '''import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, widths=(16, 32, 64, 128)):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 7, stride=2, padding=3), nn.ReLU())
        self.stages = nn.ModuleList()
        c = widths[0]
        for w in widths[1:]:
            self.stages.append(nn.Sequential(nn.Conv2d(c, w, 3, stride=2, padding=1), nn.BatchNorm2d(w), nn.ReLU()))
            c = w

    def forward(self, x):
        x = self.stem(x)
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class FPN(nn.Module):
    def __init__(self, in_channels=(32, 64, 128), out_channels=32):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in in_channels])
        self.smooth = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels])

    def forward(self, feats):
        c3, c4, c5 = feats
        p5 = self.lateral[2](c5)
        p4 = self.lateral[1](c4) + F.interpolate(p5, scale_factor=2, mode="nearest")
        p3 = self.lateral[0](c3) + F.interpolate(p4, scale_factor=2, mode="nearest")
        return [self.smooth[0](p3), self.smooth[1](p4), self.smooth[2](p5)]


class Detector(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.backbone = Backbone()
        self.fpn = FPN()
        self.cls_head = nn.Conv2d(32, num_classes, 3, padding=1)

    def forward(self, images):
        pyramid = self.fpn(self.backbone(images))
        return [self.cls_head(p) for p in pyramid]
''',
    'options.py': '''import argparse


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--img-size", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=2)
    return parser
''',
    'train.py': '''import torch

from det.fpn import Detector
from options import build_parser


def run(opt):
    model = Detector()
    x = torch.randn(opt.batch_size, 3, opt.img_size, opt.img_size)
    return model(x)


if __name__ == "__main__":
    opt = build_parser().parse_args()
    run(opt)
''',
}

_SETTINGS = {
    'config.ini': '''[model]
embed_dim = 16
hidden_size = 24
num_classes = 3
vocab_size = 100

[train]
batch_size = 4
seq_len = 12
lr = 0.001
''',
    'model.py': '''import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.score = nn.Linear(hidden_size, 1)

    def forward(self, outputs):
        weights = F.softmax(self.score(outputs), dim=1)
        return weights


class BiLSTMAttn(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_size, num_classes):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden_size, batch_first=True, bidirectional=True)
        self.attention = Attention(2 * hidden_size)
        self.fc = nn.Linear(2 * hidden_size, num_classes)

    def forward(self, tokens):
        out, _ = self.lstm(self.embedding(tokens))
        weights = self.attention(out)
        weights = weights.expand(-1, -1, self.hidden_size)
        context = (out * weights).sum(dim=1)
        return self.fc(context)
''',
    'settings.py': '''import configparser
import os

_parser = configparser.ConfigParser()
_parser.read(os.path.join(os.path.dirname(__file__), "config.ini"))

EMBED_DIM = _parser.getint("model", "embed_dim")
HIDDEN_SIZE = _parser.getint("model", "hidden_size")
NUM_CLASSES = _parser.getint("model", "num_classes")
VOCAB_SIZE = _parser.getint("model", "vocab_size")
BATCH_SIZE = _parser.getint("train", "batch_size")
SEQ_LEN = _parser.getint("train", "seq_len")
LR = _parser.getfloat("train", "lr")
''',
    'train.py': '''import torch
import torch.nn as nn

import settings
from model import BiLSTMAttn


def fake_batch():
    x = torch.randint(0, settings.VOCAB_SIZE, (settings.BATCH_SIZE, settings.SEQ_LEN))
    y = torch.randint(0, settings.NUM_CLASSES, (settings.BATCH_SIZE,))
    return x, y


def main():
    model = BiLSTMAttn(settings.VOCAB_SIZE, settings.EMBED_DIM, settings.HIDDEN_SIZE, settings.NUM_CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.LR)
    criterion = nn.CrossEntropyLoss()
    x, y = fake_batch()
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())


if __name__ == "__main__":
    main()
''',
}

_LIGHTNING = {
    'config.py': '''from dataclasses import dataclass


@dataclass
class Seq2SeqConfig:
    src_vocab: int = 40
    tgt_vocab: int = 30
    emb_dim: int = 16
    hid_dim: int = 32
    src_len: int = 10
    tgt_len: int = 8
    batch_size: int = 4
''',
    'decoder.py': '''import torch
import torch.nn as nn
import torch.nn.functional as F


class DotAttention(nn.Module):
    def forward(self, query, keys):
        scores = torch.bmm(keys, query.unsqueeze(2)).squeeze(2)
        weights = F.softmax(scores, dim=1)
        return torch.bmm(weights.unsqueeze(1), keys).squeeze(1)


class Decoder(nn.Module):
    def __init__(self, vocab, emb_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb_dim)
        self.attention = DotAttention()
        self.cell = nn.GRUCell(emb_dim + hid_dim, 2 * hid_dim)
        self.out = nn.Linear(2 * hid_dim, vocab)

    def forward(self, token, hidden, enc_outputs):
        context = self.attention(hidden, enc_outputs)
        x = torch.cat([self.embedding(token), context], dim=1)
        hidden = self.cell(x, hidden)
        return self.out(hidden), hidden
''',
    'encoder.py': '''import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, emb_dim, hid_dim):
        super().__init__()
        self.hid_dim = hid_dim
        self.embedding = nn.Embedding(vocab, emb_dim)
        self.rnn = nn.GRU(emb_dim, hid_dim, batch_first=True, bidirectional=True)

    def forward(self, src):
        outputs, hidden = self.rnn(self.embedding(src))
        outputs = outputs[:, :, :self.hid_dim] + outputs[:, :, self.hid_dim:]
        hidden = torch.cat((hidden[-2], hidden[-1]), dim=1)
        return outputs, hidden
''',
    'train.py': '''import lightning.pytorch as pl
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from config import Seq2SeqConfig
from decoder import Decoder
from encoder import Encoder


class Seq2Seq(pl.LightningModule):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = Encoder(cfg.src_vocab, cfg.emb_dim, cfg.hid_dim)
        self.decoder = Decoder(cfg.tgt_vocab, cfg.emb_dim, cfg.hid_dim)

    def forward(self, src, tgt):
        enc_outputs, hidden = self.encoder(src)
        logits = []
        token = tgt[:, 0]
        for t in range(1, tgt.size(1)):
            out, hidden = self.decoder(token, hidden, enc_outputs)
            logits.append(out)
            token = tgt[:, t]
        return torch.stack(logits, dim=1)

    def training_step(self, batch, batch_idx):
        src, tgt = batch
        logits = self(src, tgt)
        loss = nn.functional.cross_entropy(logits.reshape(-1, self.cfg.tgt_vocab), tgt[:, 1:].reshape(-1))
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class PairData(pl.LightningDataModule):
    def __init__(self, cfg, n=64):
        super().__init__()
        self.cfg = cfg
        self.src = torch.randint(0, cfg.src_vocab, (n, cfg.src_len))
        self.tgt = torch.randint(0, cfg.tgt_vocab, (n, cfg.tgt_len))

    def train_dataloader(self):
        return DataLoader(TensorDataset(self.src, self.tgt), batch_size=self.cfg.batch_size, shuffle=True)


def main():
    cfg = Seq2SeqConfig()
    model = Seq2Seq(cfg)
    trainer = pl.Trainer(max_epochs=1, accelerator="cpu")
    trainer.fit(model, datamodule=PairData(cfg))


if __name__ == "__main__":
    main()
''',
}


def _replaced(files: dict[str, str], name: str, old: str, new: str) -> dict[str, str]:
    assert old in files[name]
    return {**files, name: files[name].replace(old, new)}


# signals of 10 features unsqueezed to (N, 1, 10) by the loader helper into a ModuleList of `Conv1d(10, ...)` built
# from a config list of dicts, batched by a generator over `range(0, len(X), batch_size)` (12 batches of 16, a last
# of 8): "expected input[16, 1, 10] to have 10 channels, but got 1 channels instead"; `unsqueeze(-1)` is clean


def test_a_generators_batches_with_a_short_last_one_keep_their_channels(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _SIGNALS, "SC105") == [("train.py", 19)]
    fixed = _replaced(_SIGNALS, "utils.py", ".unsqueeze(1)", ".unsqueeze(-1)")
    assert lint_project(tmp_path, fixed, "SC105") == []


def test_yields_of_one_rank_keep_the_sizes_they_agree_on() -> None:
    assert probe('''
import torch

def batches(X, y, batch_size):
    for i in range(0, len(X), batch_size):
        yield X[i:i + batch_size], y[i:i + batch_size]

def same(X):
    for _ in range(3):
        yield X

def either(flag):
    yield torch.randn(4, 8)
    yield torch.randn(4, 8, 2)

X, y = torch.randn(200, 1, 10), torch.randint(0, 4, (200,))
for xb, yb in batches(X, y, 16):
    probe(xb)
    probe(yb)
for x in same(X):
    probe(x)
for z in either(True):
    probe(z)
''') == ["(n, 1, 10)", "(n,)", "(200, 1, 10)", "(...)"]


# the word-language-model tutorial's loop: chunks of at most `BPTT = 20` rows given a causal mask made once for
# `--context` (default 35): "The shape of the 2D attn_mask is torch.Size([35, 35]), but should be (20, 20)"; the
# mask cut to the chunk is clean


def test_a_bounded_chunk_against_a_mask_of_an_options_default(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _LANGUAGE_MODEL, "SC105") == [("train.py", 33)]
    fixed = _replaced(_LANGUAGE_MODEL, "train.py", "output = model(data, mask)",
                      "output = model(data, mask[:data.size(0), :data.size(0)])")
    assert lint_project(tmp_path, fixed, "SC105") == []


def test_batchify_keeps_whole_chunks() -> None:
    assert probe('''
import torch

def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data[:nbatch * bsz]
    probe(data)
    return data.view(bsz, -1).t().contiguous()

def other(data, n, bsz):
    return data[:(data.size(0) // n) * bsz]

probe(batchify(torch.randint(0, 10, (1000,)), 7))
probe(other(torch.randn(100, 3), 3, 7))
''') == ["(bsz * (data.size(0) // bsz), ...)", "(142, 7)", "(100, 3)"]


# an FPN given 200-pixel images, the size an option of a parser `options.build_parser()` builds and returns:
# "The size of tensor a (25) must match the size of tensor b (26)"; 256 is clean


def test_a_parser_a_helper_builds_and_returns_keeps_its_defaults(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _FPN, "SC105") == [("train.py", 10)]
    fixed = _replaced(_FPN, "options.py", "default=200", "default=256")
    assert lint_project(tmp_path, fixed, "SC105") == []


# `settings.py` reads `config.ini` (hidden_size = 24) and binds its options to module names the trainer reads as
# `settings.HIDDEN_SIZE`: a bidirectional LSTM's (B, T, 48) outputs times weights expanded to 24, "The size of tensor
# a (48) must match the size of tensor b (24)"; expanded to 2H, or with hidden_size = 1 (they broadcast), clean


def test_an_ini_file_named_by_an_imported_config_module(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _SETTINGS, "SC105") == [("train.py", 19)]
    fixed = _replaced(_SETTINGS, "model.py", "-1, -1, self.hidden_size)", "-1, -1, 2 * self.hidden_size)")
    assert lint_project(tmp_path, fixed, "SC105") == []
    one = _replaced(_SETTINGS, "config.ini", "hidden_size = 24", "hidden_size = 1")
    assert lint_project(tmp_path, one, "SC105") == []


# a seq2seq LightningModule trained by `trainer.fit`: the encoder adds its GRU's directions (H) but concatenates
# its final states (2H), so the decoder's `bmm` of the (B, T, H) outputs by the (B, 2H, 1) query fails ("Expected
# size for first two dimensions of batch2 tensor to be: [4, 32] but got: [4, 64]"); outputs left concatenated and a
# GRUCell fed `emb_dim + 2 * hid_dim` is clean


def test_a_lightning_trainer_runs_the_training_step_on_the_datamodules_batches(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _LIGHTNING, "SC105") == [("train.py", 23)]
    fixed = _replaced(_replaced(_LIGHTNING, "encoder.py", "        outputs = outputs[:, :, :self.hid_dim] + "
                                "outputs[:, :, self.hid_dim:]\n", ""),
                      "decoder.py", "nn.GRUCell(emb_dim + hid_dim,", "nn.GRUCell(emb_dim + 2 * hid_dim,")
    assert lint_project(tmp_path, fixed, "SC105") == []


def test_a_lightning_trainer_given_a_loader(tmp_path: Path) -> None:
    loader = _replaced(_LIGHTNING, "train.py", "trainer.fit(model, datamodule=PairData(cfg))",
                       "trainer.fit(model, DataLoader(TensorDataset(PairData(cfg).src, PairData(cfg).tgt), "
                       "batch_size=4))")
    assert lint_project(tmp_path, loader, "SC105") == [("train.py", 23)]
    keyword = _replaced(_LIGHTNING, "train.py", "trainer.fit(model, datamodule=PairData(cfg))",
                        "trainer.fit(model=model, train_dataloaders=PairData(cfg).train_dataloader())")
    assert lint_project(tmp_path, keyword, "SC105") == [("train.py", 23)]


def test_a_fit_of_another_trainer_runs_nothing(tmp_path: Path) -> None:
    # a trainer class of the project's, or of a package not known to call `training_step`: nothing is run
    other = _replaced(_LIGHTNING, "train.py", "trainer = pl.Trainer(max_epochs=1, accelerator=\"cpu\")",
                      "trainer = object()")
    assert lint_project(tmp_path, other, "SC105") == []


# a model handed through Accelerate's `prepare` (with its optimizer and loader) or scripted by `torch.jit.script`
# is the same model: 24 features into `nn.Linear(20, ...)`, "mat1 and mat2 shapes cannot be multiplied (8x24 and
# 20x32)"

_MLP = '''
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, in_dim=20, hidden=32, n_classes=3):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
'''

_ACCELERATED = '''
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

from model import Net


def main(features=24):
    accelerator = Accelerator()
    model = Net()
    opt = torch.optim.Adam(model.parameters())
    data = TensorDataset(torch.randn(64, features), torch.randint(0, 3, (64,)))
    model, opt, loader = accelerator.prepare(model, opt, DataLoader(data, batch_size=8))
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()


main()
'''


def test_objects_prepared_by_accelerate_are_the_objects_given(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"model.py": _MLP, "train.py": _ACCELERATED}, "SC105") == [("train.py", 16)]
    fixed = {"model.py": _MLP, "train.py": _ACCELERATED.replace("features=24", "features=20")}
    assert lint_project(tmp_path, fixed, "SC105") == []


def test_a_scripted_model_runs_its_forward(tmp_path: Path) -> None:
    script = '''
import torch

from model import Net

model = torch.jit.script(Net())
out = model(torch.randn(8, 24))
'''
    assert lint_project(tmp_path, {"model.py": _MLP, "train.py": script}, "SC105") == [("train.py", 7)]
    assert lint_project(tmp_path, {"model.py": _MLP, "train.py": script.replace("24", "20")}, "SC105") == []


def test_a_list_grown_over_the_numbers_of_a_range_joins_as_many_tensors() -> None:
    assert probe('''
import torch

def per_class(shots, classes, size=16):
    xs = []
    for c in classes:
        xs.append(torch.randn(shots, 3, size, size))
    return torch.cat(xs)

def each_one(n):
    return torch.cat([torch.randn(1) for _ in range(n)])

def main(n_classes: int, shots: int):
    probe(per_class(shots, list(range(n_classes))))
    probe(per_class(shots, range(n_classes)))

main(6, 15)
''') == ["(n_classes * shots, 3, 16, 16)", "(n_classes * shots, 3, 16, 16)"]


# embeddings of a support set gathered one batch at a time and stacked: 6 classes of 15 shots (options' defaults)
# are 90 rows, in batches of 32 the last holds 26 ("stack expects each tensor to be equal size, but got [32, 8] at
# entry 0 and [26, 8] at entry 2"); `torch.cat` of them is clean

_SUPPORT = '''
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def support_set(shots, classes, size=8):
    images, labels = [], []
    for c in classes:
        images.append(torch.randn(shots, 3, size, size))
        labels.append(torch.full((shots,), c))
    return TensorDataset(torch.cat(images), torch.cat(labels))


@torch.no_grad()
def embed_all(encoder, loader):
    feats = []
    for images, _ in loader:
        feats.append(encoder(images))
    return torch.stack(feats).view(-1, 8)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ways", type=int, default=6)
    parser.add_argument("--shots", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    data = support_set(args.shots, list(range(args.ways)))
    print(embed_all(encoder, DataLoader(data, batch_size=args.batch_size)).shape)


if __name__ == "__main__":
    main()
'''


def test_features_of_each_batch_stacked_from_a_per_class_dataset(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"support.py": _SUPPORT}, "SC105") == [("support.py", 22)]
    fixed = _SUPPORT.replace("torch.stack(feats).view(-1, 8)", "torch.cat(feats)")
    assert lint_project(tmp_path, {"support.py": fixed}, "SC105") == []


# a notebook's minibatch iterator picks rows of tensors with a numpy array of indices, `inputs[excerpt]` of
# `excerpt = indices[start_idx:start_idx + batchsize]`: ECG windows of 10 samples laid out (N, 1, 10) into a
# ModuleList of `Conv1d(10, ...)` built from a config list ("expected input[20, 1, 10] to have 10 channels, but got
# 1 channels instead"); laid out (N, 10, 1), clean

_MINIBATCHES = '''
import numpy as np
import torch
import torch.nn as nn

LAYERS = [(10, 16), (16, 32)]


def load_ecg(n=120, length=10, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, length).astype("float32")
    y = rng.randint(0, 2, size=n)
    return torch.from_numpy(X)[:, None, :], torch.from_numpy(y)


def iterate_minibatches(inputs, targets, batchsize, shuffle=False):
    indices = np.arange(len(inputs))
    if shuffle:
        np.random.shuffle(indices)
    for start_idx in range(0, len(inputs) - batchsize + 1, batchsize):
        excerpt = indices[start_idx:start_idx + batchsize]
        yield inputs[excerpt], targets[excerpt]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList()
        for c_in, c_out in LAYERS:
            self.convs.append(nn.Conv1d(c_in, c_out, kernel_size=3, padding=1))
        self.out = nn.Linear(LAYERS[-1][1], 2)

    def forward(self, x):
        for conv in self.convs:
            x = torch.relu(conv(x))
        return self.out(x.mean(-1))


X, y = load_ecg()
net = Net()
opt = torch.optim.Adam(net.parameters())
for epoch in range(2):
    for xb, yb in iterate_minibatches(X, y, 20, shuffle=True):
        loss = nn.functional.cross_entropy(net(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
'''


def test_rows_a_numpy_index_array_picks_from_a_tensor(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"notebook.py": _MINIBATCHES}, "SC105") == [("notebook.py", 35)]
    fixed = _MINIBATCHES.replace("[:, None, :]", "[:, :, None]")
    assert lint_project(tmp_path, {"notebook.py": fixed}, "SC105") == []
    assert probe('''
import numpy as np
import torch

x = torch.randn(50, 4)
probe(x[np.arange(10)])
probe(x[np.arange(10) > 3])
''') == ["(10, 4)", None]


# a LightningModule whose validation step scores images left unflattened: `fit` runs it on the validation loader
# (its sanity check runs before the first training batch), "mat1 and mat2 shapes cannot be multiplied (112x28 and
# 784x10)"; flattened as in the training step, clean

_VALIDATED = '''
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(28 * 28, 10)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.fc(x.flatten(1)), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", F.cross_entropy(self.fc(x.squeeze(1)), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader(n):
    return DataLoader(TensorDataset(torch.randn(n, 1, 28, 28), torch.randint(0, 10, (n,))), batch_size=4)


trainer = pl.Trainer(max_epochs=1)
trainer.fit(LitClassifier(), loader(64), loader(16))
'''


def test_a_lightning_fit_runs_the_validation_step_on_the_validation_loader(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"lit.py": _VALIDATED}, "SC105") == [("lit.py", 20)]
    fixed = _VALIDATED.replace("x.squeeze(1)", "x.flatten(1)")
    assert lint_project(tmp_path, {"lit.py": fixed}, "SC105") == []
    no_validation = _VALIDATED.replace("loader(64), loader(16))", "loader(64))")
    assert lint_project(tmp_path, {"lit.py": no_validation}, "SC105") == []


def test_an_option_of_a_section_a_name_holds(tmp_path: Path) -> None:
    # `model_cfg = config["model"]`, then `model_cfg.getint("hidden_size")`: the file's 24
    train = '''
import configparser

import torch
import torch.nn as nn

from model import BiLSTMAttn


def read_config(path="params.ini"):
    config = configparser.ConfigParser()
    config.read(path)
    return config


def main():
    config = read_config()
    model_cfg = config["model"]
    train_cfg = config["train"]
    model = BiLSTMAttn(model_cfg.getint("vocab_size"), model_cfg.getint("embed_dim"),
                       model_cfg.getint("hidden_size"), model_cfg.getint("num_classes"))
    x = torch.randint(0, 100, (train_cfg.getint("batch_size"), train_cfg.getint("seq_len")))
    y = torch.randint(0, 3, (train_cfg.getint("batch_size"),))
    loss = nn.CrossEntropyLoss()(model(x), y)
    loss.backward()


if __name__ == "__main__":
    main()
'''
    files = {"model.py": _SETTINGS["model.py"], "params.ini": _SETTINGS["config.ini"], "train.py": train}
    assert lint_project(tmp_path, files, "SC105") == [("train.py", 24)]
    fixed = _replaced(files, "model.py", "-1, -1, self.hidden_size)", "-1, -1, 2 * self.hidden_size)")
    assert lint_project(tmp_path, fixed, "SC105") == []
    one = _replaced(files, "params.ini", "hidden_size = 24", "hidden_size = 1")
    assert lint_project(tmp_path, one, "SC105") == []


# a U-Net whose decoder takes its skips back with `skips.pop()` inside `torch.cat`, on 90x120 images (a config
# dataclass): four poolings leave 5x7, upsampled to 10x14 against an 11x15 skip ("Sizes of tensors must match except in
# dimension 1. Expected size 11 but got size 10"); 96x128 images are clean

_UNET = {
    'config.py': '''from dataclasses import dataclass


@dataclass
class Config:
    image_height: int = 90
    image_width: int = 120
    batch_size: int = 4
    num_samples: int = 16
    lr: float = 1e-4
    epochs: int = 1
''',
    'data.py': '''import torch
from torch.utils.data import Dataset


class CarvanaLike(Dataset):
    def __init__(self, cfg):
        self.n = cfg.num_samples
        self.h = cfg.image_height
        self.w = cfg.image_width

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        image = torch.rand(3, self.h, self.w)
        mask = (torch.rand(1, self.h, self.w) > 0.5).float()
        return image, mask
''',
    'model.py': '''import torch
import torch.nn as nn


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, 3, 1, 1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(out_channels, out_channels, 3, 1, 1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.conv(x)


class UNET(nn.Module):
    def __init__(self, in_channels=3, out_channels=1, features=[8, 16, 32, 64]):
        super().__init__()
        self.ups = nn.ModuleList()
        self.downs = nn.ModuleList()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        for feature in features:
            self.downs.append(DoubleConv(in_channels, feature))
            in_channels = feature
        for feature in reversed(features):
            self.ups.append(nn.ConvTranspose2d(feature * 2, feature, kernel_size=2, stride=2))
            self.ups.append(DoubleConv(feature * 2, feature))
        self.bottleneck = DoubleConv(features[-1], features[-1] * 2)
        self.final_conv = nn.Conv2d(features[0], out_channels, kernel_size=1)

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = self.pool(x)
        x = self.bottleneck(x)
        for i in range(0, len(self.ups), 2):
            x = self.ups[i](x)
            x = torch.cat([skips.pop(), x], dim=1)
            x = self.ups[i + 1](x)
        return self.final_conv(x)
''',
    'train.py': '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config import Config
from data import CarvanaLike
from model import UNET


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = UNET(in_channels=3, out_channels=1)
        self.loss_fn = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.loader = DataLoader(CarvanaLike(cfg), batch_size=cfg.batch_size, shuffle=True)

    def train_fn(self):
        for data, targets in self.loader:
            predictions = self.model(data)
            loss = self.loss_fn(predictions, targets)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    def fit(self):
        for epoch in range(self.cfg.epochs):
            print(epoch, self.train_fn())


if __name__ == "__main__":
    Trainer(Config()).fit()
''',
}


def test_skips_popped_inside_an_expression_come_back_last_first(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _UNET, "SC105") == [("train.py", 20)]
    fixed = _replaced(_replaced(_UNET, "config.py", "image_height: int = 90", "image_height: int = 96"),
                      "config.py", "image_width: int = 120", "image_width: int = 128")
    assert lint_project(tmp_path, fixed, "SC105") == []


def test_a_pop_inside_an_expression_takes_the_element_off() -> None:
    assert probe('''
import torch

def f():
    skips = []
    for k in (8, 4, 2):
        skips.append(torch.randn(1, k))
    a = skips.pop()
    probe(a)
    b = torch.cat([skips.pop(), torch.randn(1, 4)], dim=0)
    probe(b)
    probe(skips.pop(0))
    both = [torch.randn(3), torch.randn(5)]
    pair = torch.cat([both.pop(), both.pop()])
    probe(pair)

f()
''') == ["(1, 2)", "(2, 4)", "(1, 8)", None]


# a datamodule that makes its splits in `setup`, which the trainer calls before asking for the loaders: images left
# (batch, 28, 28) by `squeeze(1)` into `nn.Linear(28 * 28, 10)` ("mat1 and mat2 shapes cannot be multiplied (224x28 and
# 784x10)"); flattened, clean

_DATAMODULE = '''
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split


class Data(pl.LightningDataModule):
    def __init__(self, batch_size=8):
        super().__init__()
        self.batch_size = batch_size

    def setup(self, stage=None):
        full = TensorDataset(torch.randn(100, 1, 28, 28), torch.randint(0, 10, (100,)))
        self.train_ds, self.val_ds = random_split(full, [80, 20])

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=self.batch_size)


class Lit(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(28 * 28, 10)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.fc(x.squeeze(1)), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    pl.Trainer(max_epochs=1).fit(Lit(), datamodule=Data())
'''


def test_a_datamodule_set_up_before_its_loaders(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"lit.py": _DATAMODULE}, "SC105") == [("lit.py", 32)]
    fixed = _DATAMODULE.replace("x.squeeze(1)", "x.flatten(1)")
    assert lint_project(tmp_path, {"lit.py": fixed}, "SC105") == []


# an nn.Sequential subclass filled by add_module in a loop over a config's channels, its Linear sized for 128 samples,
# fed signals of lengths a numpy generator draws (`rng.normal(size=rng.integers(60, max_len + 1))`) padded to another
# config's 140 ("mat1 and mat2 shapes cannot be multiplied (16x1088 and 1024x6)"); padded to 128, clean

_PADDED = {
    'config.py': '''from dataclasses import dataclass, field


@dataclass
class CNNConfig:
    in_channels: int = 1
    channels: tuple = (16, 32, 64)
    kernel_size: int = 5
    pool: int = 2
    seq_len: int = 128
    num_classes: int = 6

    @property
    def flat_features(self):
        length = self.seq_len
        for _ in self.channels:
            length = length // self.pool
        return self.channels[-1] * length


@dataclass
class DataConfig:
    max_len: int = 140
    n_samples: int = 64
    batch_size: int = 16
''',
    'data.py': '''import numpy as np
import torch
from torch.utils.data import Dataset


class PaddedSignals(Dataset):
    def __init__(self, n, max_len, n_classes=6, seed=0):
        rng = np.random.default_rng(seed)
        self.samples = [rng.normal(size=rng.integers(60, max_len + 1)).astype(np.float32) for _ in range(n)]
        self.labels = rng.integers(0, n_classes, size=n)
        self.max_len = max_len

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        x = self.samples[idx]
        x = np.pad(x, (0, self.max_len - len(x)))
        return torch.from_numpy(x).unsqueeze(0), int(self.labels[idx])
''',
    'model.py': '''import torch.nn as nn


class ConvStack(nn.Sequential):
    def __init__(self, cfg):
        super().__init__()
        c_in = cfg.in_channels
        for i, c_out in enumerate(cfg.channels):
            self.add_module(f"conv{i}", nn.Conv1d(c_in, c_out, cfg.kernel_size, padding=cfg.kernel_size // 2))
            self.add_module(f"relu{i}", nn.ReLU())
            self.add_module(f"pool{i}", nn.MaxPool1d(cfg.pool))
            c_in = c_out
        self.add_module("flatten", nn.Flatten())
        self.add_module("fc", nn.Linear(cfg.flat_features, cfg.num_classes))
''',
    'train.py': '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config import CNNConfig, DataConfig
from data import PaddedSignals
from model import ConvStack


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    return correct / len(loader.dataset)


def main():
    mcfg, dcfg = CNNConfig(), DataConfig()
    ds = PaddedSignals(dcfg.n_samples, dcfg.max_len)
    loader = DataLoader(ds, batch_size=dcfg.batch_size, shuffle=True)
    model = ConvStack(mcfg)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for x, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    print(evaluate(model, loader))


if __name__ == "__main__":
    main()
''',
}


def test_samples_of_a_length_drawn_by_a_numpy_generator_padded_to_a_config_length(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _PADDED, "SC105") == [("train.py", 15), ("train.py", 29)]
    fixed = _replaced(_PADDED, "config.py", "max_len: int = 140", "max_len: int = 128")
    assert lint_project(tmp_path, fixed, "SC105") == []


def test_an_option_converted_by_int_from_the_parsers_entries(tmp_path: Path) -> None:
    # `int(config["model"]["hidden_size"])`: the file's 24, as `getint` reads it
    train = '''
import configparser

import torch
import torch.nn as nn

from model import BiLSTMAttn

config = configparser.ConfigParser()
config.read("params.ini")


def main():
    model = BiLSTMAttn(int(config["model"]["vocab_size"]), int(config["model"]["embed_dim"]),
                       int(config["model"]["hidden_size"]), config.getint("model", "num_classes", fallback=3))
    x = torch.randint(0, 100, (4, 12))
    loss = nn.CrossEntropyLoss()(model(x), torch.randint(0, 3, (4,)))
    loss.backward()


main()
'''
    files = {"model.py": _SETTINGS["model.py"], "params.ini": _SETTINGS["config.ini"], "train.py": train}
    assert lint_project(tmp_path, files, "SC105") == [("train.py", 17)]
    fixed = _replaced(files, "model.py", "-1, -1, self.hidden_size)", "-1, -1, 2 * self.hidden_size)")
    assert lint_project(tmp_path, fixed, "SC105") == []
    one = _replaced(files, "params.ini", "hidden_size = 24", "hidden_size = 1")
    assert lint_project(tmp_path, one, "SC105") == []


def test_fake_data_gives_images_of_the_size_it_is_given() -> None:
    # torchvision's FakeData draws a (C, H, W) tensor, makes it a PIL image (gray for 1 channel, RGB for 3) and
    # transforms it: RGB 100x120 images into a gray `Conv2d(1, ...)` raise
    assert probe('''
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

rgb = datasets.FakeData(size=64, image_size=(3, 100, 120), num_classes=10, transform=transforms.ToTensor())
gray = datasets.FakeData(64, (1, 28, 28), 10, transforms.ToTensor())
raw = datasets.FakeData(size=64, image_size=(3, 100, 120))
for x, y in DataLoader(rgb, batch_size=8):
    probe(x)
for x, y in DataLoader(gray, batch_size=8):
    probe(x)
for x, y in DataLoader(raw, batch_size=8):
    probe(x)
''') == ["(batch, 3, 100, 120)", "(batch, 1, 28, 28)", "(...)"]
