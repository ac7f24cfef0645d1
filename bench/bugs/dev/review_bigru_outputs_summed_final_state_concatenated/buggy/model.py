import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import BiGRUEncoder


class AttentiveReviewClassifier(nn.Module):
    def __init__(self, vocab_size: int, emb_dim: int, hidden_dim: int, n_classes: int, dropout: float = 0.2):
        super().__init__()
        self.encoder = BiGRUEncoder(vocab_size, emb_dim, hidden_dim, dropout)
        self.out = nn.Linear(hidden_dim, n_classes)

    def forward(self, tokens, lengths):
        states, sentence = self.encoder(tokens, lengths)
        scores = torch.bmm(states, sentence.unsqueeze(2)).squeeze(2)          # (batch, seq)
        scores = scores.masked_fill(tokens == 0, float("-inf"))
        alpha = F.softmax(scores, dim=1)
        context = torch.bmm(alpha.unsqueeze(1), states).squeeze(1)
        return self.out(context), alpha
