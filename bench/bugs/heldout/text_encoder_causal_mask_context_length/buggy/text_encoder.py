import torch
import torch.nn as nn


class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_model * 4), nn.GELU(), nn.Linear(d_model * 4, d_model))
        self.ln_2 = nn.LayerNorm(d_model)

    def attention(self, x, attn_mask=None):
        return self.attn(x, x, x, need_weights=False, attn_mask=attn_mask)[0]

    def forward(self, x, attn_mask=None):
        x = x + self.attention(self.ln_1(x), attn_mask=attn_mask)
        return x + self.mlp(self.ln_2(x))


class TextTransformer(nn.Module):
    def __init__(self, context_length=16, vocab_size=200, width=32, heads=4, layers=2, output_dim=24):
        super().__init__()
        self.context_length = context_length
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.randn(context_length, width) * 0.01)
        self.resblocks = nn.ModuleList(ResidualAttentionBlock(width, heads) for _ in range(layers))
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Parameter(torch.randn(width, output_dim) * width ** -0.5)
        self.register_buffer("attn_mask", self.build_attention_mask(), persistent=False)

    def build_attention_mask(self):
        mask = torch.empty(self.context_length, self.context_length)
        mask.fill_(float("-inf"))
        mask.triu_(1)
        return mask

    def forward(self, text):
        seq_len = text.shape[1]
        x = self.token_embedding(text) + self.positional_embedding[:seq_len]
        x = x.permute(1, 0, 2)
        for r in self.resblocks:
            x = r(x, attn_mask=self.attn_mask)
        x = self.ln_final(x.permute(1, 0, 2))
        x = x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ self.text_projection
        return x
