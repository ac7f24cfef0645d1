import torch
import torch.nn as nn


class EventSequenceModel(nn.Module):
    """Tiny causal model over coded patient-timeline events, predicting the next event token."""

    def __init__(self, vocab_size: int = 50, d_model: int = 32, dropout: float = 0.3):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.rnn = nn.GRU(d_model, d_model, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h, _ = self.rnn(self.drop(self.embed(tokens)))
        return self.head(self.drop(h))
