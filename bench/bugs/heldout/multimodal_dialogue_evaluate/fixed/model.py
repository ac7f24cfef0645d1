import torch
import torch.nn as nn


class HierarchicalEncoder(nn.Module):
    """Utterance GRU, then a context GRU over the utterance vectors, fused with an image feature."""

    def __init__(self, vocab=300, emb=32, hidden=48, image_dim=20, n_responses=6, dropout=0.3):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.utterance_rnn = nn.GRU(emb, hidden, batch_first=True)
        self.context_rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.image_proj = nn.Linear(image_dim, hidden)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, n_responses)

    def forward(self, turns, image):
        b, n_turns, n_words = turns.shape
        _, h = self.utterance_rnn(self.embed(turns.view(b * n_turns, n_words)))
        _, ctx = self.context_rnn(h[-1].view(b, n_turns, -1))
        fused = torch.tanh(ctx[-1] + self.image_proj(image))
        return self.out(self.dropout(fused))
