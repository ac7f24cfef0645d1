import torch
import torch.nn.functional as F
from torch import einsum, nn


class CrossAttention(nn.Module):
    def __init__(self, query_dim: int, context_dim: int, heads: int = 4, dim_head: int = 8) -> None:
        super().__init__()
        inner_dim = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_k = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_v = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def reshape_heads_to_batch_dim(self, tensor: torch.Tensor) -> torch.Tensor:
        batch_size, seq_len, dim = tensor.shape
        tensor = tensor.reshape(batch_size, seq_len, self.heads, dim // self.heads)
        return tensor.permute(0, 2, 1, 3).reshape(batch_size * self.heads, seq_len, dim // self.heads)

    def reshape_batch_dim_to_heads(self, tensor: torch.Tensor) -> torch.Tensor:
        batch_size, seq_len, dim = tensor.shape
        tensor = tensor.reshape(batch_size // self.heads, self.heads, seq_len, dim)
        return tensor.permute(0, 2, 1, 3).reshape(batch_size // self.heads, seq_len, dim * self.heads)

    def forward(self, x: torch.Tensor, context: torch.Tensor) -> torch.Tensor:
        q = self.reshape_heads_to_batch_dim(self.to_q(x))
        k = self.reshape_heads_to_batch_dim(self.to_k(context))
        v = self.reshape_heads_to_batch_dim(self.to_v(context))
        sim = einsum("b i d, b j d -> b i j", q, k) * self.scale
        out = einsum("b i j, b j d -> b i d", sim.softmax(dim=-1), v)
        return self.to_out(self.reshape_batch_dim_to_heads(out))


class TinyDenoiser(nn.Module):
    def __init__(self, channels: int = 4, dim: int = 32, vocab: int = 100, text_dim: int = 24) -> None:
        super().__init__()
        self.text_encoder = nn.Embedding(vocab, text_dim)
        self.proj_in = nn.Conv2d(channels, dim, 1)
        self.attn = CrossAttention(dim, text_dim)
        self.proj_out = nn.Conv2d(dim, channels, 1)

    def forward(self, latents: torch.Tensor, prompt_ids: torch.Tensor) -> torch.Tensor:
        h = self.proj_in(latents)
        b, c, hh, ww = h.shape
        tokens = h.flatten(2).transpose(1, 2)
        context = self.text_encoder(prompt_ids)
        tokens = tokens + self.attn(tokens, context)
        return self.proj_out(tokens.transpose(1, 2).reshape(b, c, hh, ww))


def tokenize(prompt: str, length: int = 12) -> torch.Tensor:
    ids = [sum(map(ord, word)) % 100 for word in prompt.split()][:length]
    return torch.tensor(ids + [0] * (length - len(ids))).unsqueeze(0)


def finetune(prompt: str, images: torch.Tensor, steps: int = 2) -> None:
    model = TinyDenoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    prompt_ids = tokenize(prompt)
    for step in range(steps):
        noise = torch.randn_like(images)
        pred = model(images + noise, prompt_ids)
        loss = F.mse_loss(pred, noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    finetune("a photo of a cat on a sofa", torch.randn(4, 4, 8, 8))
