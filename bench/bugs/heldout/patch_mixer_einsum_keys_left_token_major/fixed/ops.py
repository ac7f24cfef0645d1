import math

import torch


def attention_scores(q, k, scale=None):
    """q, k: (batch, heads, tokens, head_dim) -> (batch, heads, q_tokens, k_tokens)."""
    scale = scale if scale is not None else 1.0 / math.sqrt(q.size(-1))
    return torch.einsum("bhqd,bhkd->bhqk", q, k) * scale


def attend(weights, v):
    return torch.einsum("bhqk,bhkd->bhqd", weights, v)
