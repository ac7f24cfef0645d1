import torch.nn as nn
import torch.nn.functional as F


class TokenClassificationHead(nn.Module):
    def __init__(self, in_dim, num_labels, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.proj = nn.Linear(in_dim, num_labels)

    def forward(self, features):
        return self.proj(self.dropout(features))

    def loss(self, scores, labels, pad_label=-100):
        return F.cross_entropy(scores, labels, ignore_index=pad_label)


class BiLSTMTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.embed_dim, padding_idx=0)
        self.encoder = nn.LSTM(cfg.embed_dim, cfg.hidden, batch_first=True, bidirectional=True)
        self.head = TokenClassificationHead(2 * cfg.hidden, len(cfg.labels), cfg.dropout)

    def forward(self, tokens):
        features, _ = self.encoder(self.embed(tokens))
        return self.head(features)
