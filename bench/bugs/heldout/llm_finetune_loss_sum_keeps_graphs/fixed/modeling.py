from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class CausalLMOutput:
    loss: torch.Tensor
    logits: torch.Tensor


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=64, dim=32, n_layers=1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, labels=None):
        t = input_ids.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        logits = self.lm_head(self.blocks(self.embed(input_ids), mask=mask, is_causal=True))
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return CausalLMOutput(loss=loss, logits=logits)
