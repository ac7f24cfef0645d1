import torch
from torch import nn
import torch.nn.functional as F


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model: int = 128, n_head: int = 8, n_kv_head: int = 2) -> None:
        super().__init__()
        self.n_head, self.n_kv_head = n_head, n_kv_head
        self.head_dim = d_model // n_head
        self.q_proj = nn.Linear(d_model, n_head * self.head_dim)
        self.kv_proj = nn.Linear(d_model, 2 * n_kv_head * self.head_dim)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape

        def split_heads(t: torch.Tensor, heads: int) -> torch.Tensor:
            return t.view(B, T, heads, self.head_dim).transpose(1, 2)

        q = split_heads(self.q_proj(x), self.n_head)
        k, v = self.kv_proj(x).chunk(2, dim=-1)
        k = split_heads(k, self.n_kv_head)
        v = split_heads(v, self.n_kv_head)
        k = k.repeat_interleave(self.n_head // self.n_kv_head, dim=1)
        v = v.repeat_interleave(self.n_head // self.n_kv_head, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(y.transpose(1, 2).reshape(B, T, C))


if __name__ == "__main__":
    attn = GroupedQueryAttention()
    out = attn(torch.randn(2, 16, 128))
    print(out.shape)
