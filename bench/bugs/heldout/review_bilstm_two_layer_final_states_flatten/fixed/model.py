import torch
import torch.nn as nn

from config import Config


class ReviewClassifier(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.embed_dim)
        self.lstm = nn.LSTM(
            cfg.embed_dim,
            cfg.hidden_size,
            num_layers=cfg.num_layers,
            bidirectional=True,
            batch_first=True,
            dropout=cfg.dropout,
        )
        self.drop = nn.Dropout(cfg.dropout)
        self.fc = nn.Linear(cfg.hidden_size * 2, cfg.num_classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        emb = self.drop(self.embedding(tokens))
        _, (h_n, _) = self.lstm(emb)
        # concatenate the final forward and backward states
        final = torch.cat([h_n[-2], h_n[-1]], dim=1)
        return self.fc(self.drop(final))
