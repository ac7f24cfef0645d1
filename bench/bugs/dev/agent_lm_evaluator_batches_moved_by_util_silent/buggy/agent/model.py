import torch
from torch import nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=64, dim=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.block = nn.TransformerEncoderLayer(dim, heads, 2 * dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, attention_mask):
        t = input_ids.size(1)
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool, device=input_ids.device), diagonal=1)
        h = self.block(self.embed(input_ids), src_mask=causal, src_key_padding_mask=attention_mask == 0)
        return self.lm_head(h)
