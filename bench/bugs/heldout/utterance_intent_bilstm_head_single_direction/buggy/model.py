import torch
import torch.nn as nn

from config import ModelConfig


class IntentClassifier(nn.Module):
    """Embeds token ids, runs a (bi)LSTM over them and classifies the last step."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.embed_dim, padding_idx=0)
        self.encoder = nn.LSTM(
            cfg.embed_dim,
            cfg.hidden,
            num_layers=cfg.num_layers,
            batch_first=True,
            bidirectional=cfg.bidirectional,
        )
        self.drop = nn.Dropout(cfg.dropout)
        self.head = nn.Linear(cfg.hidden, cfg.num_intents)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        emb = self.drop(self.embed(tokens))
        states, _ = self.encoder(emb)
        last = states[:, -1, :]
        return self.head(self.drop(last))
