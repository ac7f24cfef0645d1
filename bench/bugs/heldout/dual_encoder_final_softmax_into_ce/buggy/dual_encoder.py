import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)

    def forward(self, tokens):
        _, (h, _) = self.rnn(self.embed(tokens))
        return h[-1]


class DualEncoder(nn.Module):
    """Scores every candidate response against the dialogue context."""

    def __init__(self, vocab=400, dim=32):
        super().__init__()
        self.context_encoder = Encoder(vocab, dim)
        self.response_encoder = Encoder(vocab, dim)
        self.M = nn.Parameter(torch.eye(dim))
        self.final_layer = nn.Softmax(dim=1)

    def forward(self, context, candidates):
        b, n, t = candidates.shape
        c = self.context_encoder(context)
        r = self.response_encoder(candidates.reshape(b * n, t)).view(b, n, -1)
        logits = torch.einsum("bd,de,bne->bn", c, self.M, r)
        output = self.final_layer(logits)
        return output
