import torch
from torch import nn


class DecoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, causal_mask, pad_mask):
        h = self.ln1(x)
        attended, _ = self.attn(h, h, h, attn_mask=causal_mask, key_padding_mask=pad_mask, need_weights=False)
        x = x + attended
        return x + self.ff(self.ln2(x))


class MidiDecoder(nn.Module):
    def __init__(self, n_tokens=90, d_model=32, n_heads=4, n_layers=2, max_len=64, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(n_tokens, d_model, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(DecoderBlock(d_model, n_heads) for _ in range(n_layers))
        self.out = nn.Linear(d_model, n_tokens)

    def forward(self, tokens):
        seq_len = tokens.size(1)
        causal_mask = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
        pad_mask = tokens == self.pad_id
        x = self.tok(tokens) + self.pos(torch.arange(seq_len))
        for block in self.blocks:
            x = block(x, causal_mask, pad_mask)
        return self.out(x)
