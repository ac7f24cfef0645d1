import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_size, n_layers=1, dropout=0.0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden_size, n_layers, dropout=dropout, bidirectional=True)

    def forward(self, src):
        embedded = self.embedding(src)
        outputs, hidden = self.rnn(embedded)
        return outputs, hidden


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_size, n_layers=1):
        super().__init__()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden_size, n_layers)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, token, hidden=None):
        embedded = self.embedding(token).unsqueeze(0)
        if hidden is None:
            hidden = torch.zeros(self.n_layers, token.shape[0], self.hidden_size)
        output, hidden = self.rnn(embedded, hidden)
        return self.out(output.squeeze(0)), hidden
