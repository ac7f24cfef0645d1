import torch
from torch import nn


class RNNEncoder(nn.Module):
    def __init__(self, vocab_size, emb_size=32, n_hid=48, n_layers=2, pad_idx=1):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_size, padding_idx=pad_idx)
        self.rnn = nn.LSTM(emb_size, n_hid, num_layers=n_layers, batch_first=True)

    def forward(self, tokens):
        out, _ = self.rnn(self.emb(tokens))
        return out


class PoolingLinearClassifier(nn.Module):
    def __init__(self, n_hid, n_classes, p=0.2):
        super().__init__()
        self.n_classes = n_classes
        self.drop = nn.Dropout(p)
        self.lin = nn.Linear(n_hid, n_classes)

    def forward(self, hidden):
        return self.lin(self.drop(hidden[:, -1]))


class TextClassifier(nn.Module):
    def __init__(self, vocab_size, n_classes, n_hid=48):
        super().__init__()
        self.encoder = RNNEncoder(vocab_size, n_hid=n_hid)
        self.head = PoolingLinearClassifier(n_hid, n_classes)

    def forward(self, tokens):
        return self.head(self.encoder(tokens))
