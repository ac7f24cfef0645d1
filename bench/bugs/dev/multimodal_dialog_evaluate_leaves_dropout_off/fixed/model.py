import torch
import torch.nn as nn


class HierarchicalEncoder(nn.Module):
    """Utterance GRU over words, context GRU over utterances, image features fused at the end."""

    def __init__(self, vocab_size, emb_dim=16, hidden=32, image_dim=20, dropout=0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.utterance_rnn = nn.GRU(emb_dim, hidden, batch_first=True)
        self.context_rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.image_proj = nn.Linear(image_dim, hidden)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(2 * hidden, vocab_size)

    def forward(self, turns, images):
        b, n_turns, n_words = turns.shape
        words = self.embedding(turns.view(b * n_turns, n_words))
        _, h_utt = self.utterance_rnn(words)
        utterances = h_utt[-1].view(b, n_turns, -1)
        _, h_ctx = self.context_rnn(self.dropout(utterances))
        fused = torch.cat([h_ctx[-1], self.image_proj(images)], dim=-1)
        return self.out(self.dropout(fused))
