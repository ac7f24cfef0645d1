import torch
import torch.nn as nn


class TokenTagger(nn.Module):
    def __init__(self, vocab_size, num_tags, emb_dim=32, hidden=48, dropout=0.2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.encoder = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(2 * hidden, num_tags)

    def forward(self, token_ids):
        h, _ = self.encoder(self.embed(token_ids))
        return self.classifier(self.dropout(h))
