import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class BiGRUEncoder(nn.Module):
    """Embeds token ids and runs a bidirectional GRU; returns per-token states and a sentence vector."""

    def __init__(self, vocab_size: int, emb_dim: int, hidden_dim: int, dropout: float = 0.0, pad_idx: int = 0):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.rnn = nn.GRU(emb_dim, hidden_dim, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)

    def forward(self, tokens, lengths):
        emb = self.dropout(self.embedding(tokens))
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        packed_out, h_n = self.rnn(packed)
        out, _ = pad_packed_sequence(packed_out, batch_first=True, total_length=tokens.size(1))
        # merge the two directions of every token
        out = out[:, :, : self.hidden_dim] + out[:, :, self.hidden_dim :]
        sentence = h_n[-2] + h_n[-1]
        return out, sentence
