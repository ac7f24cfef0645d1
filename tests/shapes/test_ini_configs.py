"""Sizes read from a project's ini file (`config.getint("model", "hidden")` of a `configparser` parser that reads
the file the project ships): the values of the run that reads that file, as a command-line option's default is the
value of a run with no flags, so a bug the shipped file makes is found; each with its fixed look-alike."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project


# a sentence classifier whose bidirectional LSTM outputs (batch, length, 2H) are weighted by attention scores
# expanded to H, the sizes read by `getint` from `settings.ini` in the trainer and handed to the model of another
# file (checked in torch 2.13: "The size of tensor a (48) must match the size of tensor b (24) at non-singleton
# dimension 2"); the weights expanded to 2H are clean

_CLASSIFIER_MODEL = '''
import torch
import torch.nn as nn


class AttentiveBiLSTM(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_size, num_classes):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden_size, batch_first=True, bidirectional=True)
        self.score = nn.Linear(2 * hidden_size, 1)
        self.out = nn.Linear(2 * hidden_size, num_classes)

    def forward(self, tokens):
        emb = self.embedding(tokens)
        outputs, (h_n, c_n) = self.lstm(emb)
        alpha = torch.softmax(self.score(outputs), dim=1)
        alpha = alpha.expand(-1, -1, %s)
        context = torch.sum(outputs * alpha, dim=1)
        return self.out(context)
'''

_CLASSIFIER_TRAIN = '''
import configparser

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import AttentiveBiLSTM


def load_config(path="settings.ini"):
    parser = configparser.ConfigParser()
    parser.read(path)
    return parser


def make_loader(cfg):
    n = 64
    x = torch.randint(0, cfg.getint("data", "vocab_size"), (n, cfg.getint("data", "seq_len")))
    y = torch.randint(0, cfg.getint("data", "num_classes"), (n,))
    return DataLoader(TensorDataset(x, y), batch_size=cfg.getint("train", "batch_size"), shuffle=True)


def main():
    cfg = load_config()
    model = AttentiveBiLSTM(
        cfg.getint("data", "vocab_size"),
        cfg.getint("model", "embed_dim"),
        cfg.getint("model", "hidden_size"),
        cfg.getint("data", "num_classes"),
    )
    loader = make_loader(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.getfloat("train", "lr"))
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(cfg.getint("train", "epochs")):
        for x, y in loader:
            logits = model(x)
            loss = loss_fn(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
'''

_CLASSIFIER_INI = '''
[data]
vocab_size = 500
seq_len = 20
num_classes = 3

[model]
embed_dim = 32
hidden_size = 24

[train]
batch_size = 8
lr = 0.001
epochs = 1
'''


def _classifier(expanded: str, hidden: int = 24, also_read: str = "") -> dict[str, str]:
    return {"model.py": _CLASSIFIER_MODEL % expanded,
            "train.py": _CLASSIFIER_TRAIN.replace("    parser.read(path)\n", "    parser.read(path)\n" + also_read),
            "settings.ini": _CLASSIFIER_INI.replace("hidden_size = 24", f"hidden_size = {hidden}")}


def test_bidirectional_outputs_times_weights_expanded_to_the_hidden_size_of_an_ini_file(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _classifier("self.hidden_size"), "SC105") == [("train.py", 37)]
    assert lint_project(tmp_path, _classifier("2 * self.hidden_size"), "SC105") == []


def test_an_ini_file_whose_hidden_size_is_one_broadcasts(tmp_path: Path) -> None:
    # (B, T, 2) times (B, T, 1) runs in torch: the file's value is the run's, and that run is clean
    assert lint_project(tmp_path, _classifier("self.hidden_size", hidden=1), "SC105") == []


def test_a_module_reading_two_ini_files_is_given_neither(tmp_path: Path) -> None:
    # the option may come from either file (the second read overrides the first): nothing is known of its value
    assert lint_project(tmp_path, _classifier("self.hidden_size", also_read='    parser.read("local.ini")\n'),
                        "SC105") == []


# a forecaster whose config module reads `conf/model.ini` into a module-level parser the network and the trainer
# import (`from settings import CONFIG`): the GRU's bidirectional states, 2H wide, times attention weights repeated
# to H (checked in torch 2.13: "The size of tensor a (16) must match the size of tensor b (32) at non-singleton
# dimension 2"); repeated to 2H they are clean

_FORECAST_SETTINGS = '''
import configparser
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = configparser.ConfigParser()
CONFIG.read(os.path.join(HERE, "conf/model.ini"))
'''

_FORECAST_NETWORK = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

from settings import CONFIG


class GRUAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = CONFIG["model"].getint("hidden")
        self.rnn = nn.GRU(CONFIG.getint("model", "n_features"), self.hidden,
                          num_layers=CONFIG.getint("model", "layers"), batch_first=True, bidirectional=True)
        self.attn = nn.Linear(2 * self.hidden, 1)
        self.regressor = nn.Linear(2 * self.hidden, 1)

    def forward(self, seq):
        states, _ = self.rnn(seq)
        weights = F.softmax(self.attn(states).squeeze(-1), dim=-1)
        weights = weights.unsqueeze(-1).repeat(1, 1, %s)
        pooled = (weights * states).sum(dim=1)
        return self.regressor(pooled).squeeze(-1)
'''

_FORECAST_TRAIN = '''
import torch
from torch.utils.data import DataLoader, Dataset

from network import GRUAttention
from settings import CONFIG


class Series(Dataset):
    def __init__(self, n=40):
        self.x = torch.randn(n, CONFIG.getint("data", "window"), CONFIG.getint("model", "n_features"))
        self.y = torch.randn(n)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def run():
    net = GRUAttention()
    loader = DataLoader(Series(), batch_size=CONFIG.getint("data", "batch"))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for seq, target in loader:
        pred = net(seq)
        loss = torch.nn.functional.mse_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    run()
'''

_FORECAST_INI = '''
[model]
n_features = 7
hidden = 16
layers = 1

[data]
window = 30
batch = 8
'''


def _forecast(repeated: str) -> dict[str, str]:
    return {"settings.py": _FORECAST_SETTINGS, "network.py": _FORECAST_NETWORK % repeated,
            "train.py": _FORECAST_TRAIN, "conf/model.ini": _FORECAST_INI}


def test_states_of_a_config_module_parser_imported_by_the_network(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _forecast("self.hidden"), "SC105") == [("train.py", 26)]
    assert lint_project(tmp_path, _forecast("2 * self.hidden"), "SC105") == []
