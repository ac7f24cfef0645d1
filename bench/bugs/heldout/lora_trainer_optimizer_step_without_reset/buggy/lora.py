import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.lora_a = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.t() @ self.lora_b.t()) * self.scaling


def inject_lora(model: nn.Module, targets=("q_proj", "v_proj"), rank=4):
    for name, child in model.named_children():
        if isinstance(child, nn.Linear) and name in targets:
            setattr(model, name, LoRALinear(child, rank=rank))
        else:
            inject_lora(child, targets, rank)
    return model


class TinyLM(nn.Module):
    def __init__(self, vocab=200, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.q_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        att = torch.softmax(self.q_proj(h) @ h.transpose(1, 2) / h.size(-1) ** 0.5, dim=-1)
        return self.out(att @ self.v_proj(h))
