import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature_map(x):
    return F.elu(x) + 1


class RecurrentLinearAttention(nn.Module):
    """Causal linear attention computed step by step with a running key-value state."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, eps=1e-6):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.d_head).unbind(2)
        q, k = elu_feature_map(q), elu_feature_map(k)
        Si = x.new_zeros(b, self.n_heads, self.d_head, self.d_head)
        Zi = x.new_zeros(b, self.n_heads, self.d_head)
        outputs = []
        for i in range(t):
            Si += torch.einsum("bhd,bhm->bhdm", k[:, i], v[:, i])
            Zi = Zi + k[:, i]
            num = torch.einsum("bhd,bhdm->bhm", q[:, i], Si)
            den = torch.einsum("bhd,bhd->bh", q[:, i], Zi)[..., None] + eps
            outputs.append((num / den).reshape(b, d))
        return self.out(torch.stack(outputs, dim=1))


class Block(nn.Module):
    def __init__(self, d_model=16, n_heads=2):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.attn = RecurrentLinearAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 32), nn.GELU(), nn.Linear(32, d_model))

    def forward(self, x):
        x = x + self.attn(self.norm(x))
        return x + self.ff(x)


model = nn.Sequential(nn.Embedding(20, 16), Block(), nn.Linear(16, 20))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    tokens = torch.randint(0, 20, (2, 6))
    logits = model(tokens[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 20), tokens[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
