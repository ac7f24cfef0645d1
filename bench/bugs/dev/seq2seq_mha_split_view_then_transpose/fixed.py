import math

import torch
from torch import nn


class ScaleDotProductAttention(nn.Module):
    def forward(self, q, k, v, mask=None):
        d_tensor = k.size(-1)
        score = (q @ k.transpose(2, 3)) / math.sqrt(d_tensor)
        if mask is not None:
            score = score.masked_fill(mask == 0, -10000)
        score = torch.softmax(score, dim=-1)
        return score @ v, score


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_head: int) -> None:
        super().__init__()
        self.n_head = n_head
        self.attention = ScaleDotProductAttention()
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_concat = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        q, k, v = self.w_q(q), self.w_k(k), self.w_v(v)
        q, k, v = self.split(q), self.split(k), self.split(v)
        out, attention = self.attention(q, k, v, mask=mask)
        return self.w_concat(self.concat(out))

    def split(self, tensor):
        batch_size, length, d_model = tensor.size()
        d_tensor = d_model // self.n_head
        return tensor.view(batch_size, length, self.n_head, d_tensor).transpose(1, 2)

    def concat(self, tensor):
        batch_size, head, length, d_tensor = tensor.size()
        d_model = head * d_tensor
        return tensor.transpose(1, 2).contiguous().view(batch_size, length, d_model)


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int, ffn_hidden: int, n_head: int, drop_prob: float) -> None:
        super().__init__()
        self.attention = MultiHeadAttention(d_model, n_head)
        self.norm1 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, ffn_hidden), nn.ReLU(), nn.Dropout(drop_prob), nn.Linear(ffn_hidden, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, src_mask):
        x = self.norm1(x + self.attention(x, x, x, mask=src_mask))
        return self.norm2(x + self.ffn(x))


def make_src_mask(src: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    return (src != pad_idx).unsqueeze(1).unsqueeze(2)


if __name__ == "__main__":
    emb = nn.Embedding(30, 32, padding_idx=0)
    layer = EncoderLayer(d_model=32, ffn_hidden=64, n_head=8, drop_prob=0.1)
    opt = torch.optim.Adam(list(emb.parameters()) + list(layer.parameters()), lr=1e-3)
    for step in range(2):
        src = torch.randint(0, 30, (3, 9))
        out = layer(emb(src), make_src_mask(src))
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
