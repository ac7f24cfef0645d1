import torch
import torch.nn as nn

from config import ModelConfig
from modules.encoder import EncoderLayer


class IntentClassifier(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.pos_emb = nn.Embedding(cfg.max_len, cfg.d_model)
        self.layers = nn.ModuleList(
            [EncoderLayer(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.dropout) for _ in range(cfg.n_layers)]
        )
        self.classifier = nn.Linear(cfg.d_model, cfg.num_intents)

    def forward(self, input_ids):
        token_mask = input_ids != self.cfg.pad_id
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.tok_emb(input_ids) + self.pos_emb(positions)
        for layer in self.layers:
            x = layer(x, token_mask)
        summed = (x * token_mask.unsqueeze(-1)).sum(1)
        pooled = summed / token_mask.sum(1, keepdim=True).clamp(min=1)
        return self.classifier(pooled)
