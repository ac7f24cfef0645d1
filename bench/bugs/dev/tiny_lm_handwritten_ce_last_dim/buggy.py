from dataclasses import dataclass

import torch
from torch import nn
import torch.nn.functional as F


@dataclass
class ModelArgs:
    vocab_size: int = 64
    context_length: int = 16
    d_model: int = 32
    batch_size: int = 4


def cross_entropy(logits, targets):
    """Mean negative log-likelihood over every leading position of (..., vocab) logits."""
    logits = logits - logits.max(dim=-1, keepdim=True).values
    log_norm = torch.logsumexp(logits, dim=-1)
    picked = torch.gather(logits, -1, targets.unsqueeze(-1)).squeeze(-1)
    return (log_norm - picked).mean()


class BigramMLP(nn.Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.emb = nn.Embedding(args.vocab_size, args.d_model)
        self.mlp = nn.Sequential(nn.Linear(args.d_model, 4 * args.d_model), nn.GELU(), nn.Linear(4 * args.d_model, args.d_model))
        self.lm_head = nn.Linear(args.d_model, args.vocab_size, bias=False)

    def forward(self, idx):
        return self.lm_head(self.mlp(self.emb(idx)))


def get_batch(args: ModelArgs, data):
    starts = torch.randint(0, len(data) - args.context_length - 1, (args.batch_size,))
    x = torch.stack([data[s:s + args.context_length] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + args.context_length] for s in starts.tolist()])
    return x, y


def train(args: ModelArgs, steps=5):
    data = torch.randint(0, args.vocab_size, (500,))
    model = BigramMLP(args)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        x, y = get_batch(args, data)
        loss = cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        x, y = get_batch(args, data)
        reference = F.cross_entropy(model(x).transpose(1, 2), y)
        print(f"train {loss.item():.4f} eval {reference.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(ModelArgs())
