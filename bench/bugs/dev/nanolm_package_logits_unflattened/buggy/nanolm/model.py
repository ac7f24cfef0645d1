from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class LMConfig:
    vocab_size: int = 97
    block_size: int = 16
    n_embd: int = 32
    n_layer: int = 2
    n_head: int = 4


class TinyLM(nn.Module):
    def __init__(self, config: LMConfig) -> None:
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        layer = nn.TransformerEncoderLayer(config.n_embd, config.n_head, 4 * config.n_embd, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, config.n_layer)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        t = idx.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        x = self.wte(idx) + self.wpe(torch.arange(t))
        return self.lm_head(self.blocks(x, mask=mask, is_causal=True))
