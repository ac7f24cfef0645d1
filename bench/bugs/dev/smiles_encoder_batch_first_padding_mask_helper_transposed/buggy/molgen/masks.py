import torch
from jaxtyping import Bool, Int
from torch import Tensor


def padding_mask(tokens: Int[Tensor, "B T"], pad_idx: int) -> Bool[Tensor, "B T"]:
    """True where the position is padding, as nn.TransformerEncoder's src_key_padding_mask wants it."""
    return (tokens == pad_idx).transpose(0, 1)


def lengths(tokens: Int[Tensor, "B T"], pad_idx: int) -> Int[Tensor, " B"]:
    return (tokens != pad_idx).sum(dim=1)
