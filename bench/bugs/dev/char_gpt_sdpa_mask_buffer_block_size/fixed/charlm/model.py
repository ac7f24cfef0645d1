import torch
import torch.nn as nn

from charlm.layers import Block, init_weights


class CharGPT(nn.Module):
    def __init__(self, vocab_size, block_size=64, n_embd=48, n_head=4, n_layer=2):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.apply(init_weights)

    def forward(self, idx):
        B, T = idx.shape
        assert T <= self.block_size, "sequence longer than the context"
        pos = torch.arange(T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        x = self.blocks(x)
        return self.lm_head(self.ln_f(x))
