import torch
import torch.nn as nn


def sequence_mask(lengths, max_len=None):
    """Boolean (batch, max_len) mask, True on real tokens."""
    batch_size = lengths.numel()
    max_len = max_len or int(lengths.max())
    return torch.arange(0, max_len, device=lengths.device).repeat(batch_size, 1).lt(lengths.unsqueeze(1))


class RNNEncoder(nn.Module):
    def __init__(self, vocab, dim, pad_idx=0):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim, padding_idx=pad_idx)
        self.rnn = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * dim, dim)

    def forward(self, src, lengths):
        mask = sequence_mask(lengths, src.size(1))
        out, _ = self.rnn(self.embeddings(src))
        memory = torch.tanh(self.proj(out)) * mask.unsqueeze(-1)
        return memory, mask


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab=120, dim=24, n_classes=3):
        super().__init__()
        self.encoder = RNNEncoder(vocab, dim)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, src, lengths):
        memory, mask = self.encoder(src, lengths)
        pooled = memory.sum(1) / mask.sum(1, keepdim=True)
        return self.out(pooled)
