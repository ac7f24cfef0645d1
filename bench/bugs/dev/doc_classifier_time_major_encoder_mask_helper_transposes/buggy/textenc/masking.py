from jaxtyping import Bool, Int
from torch import Tensor


def key_padding_mask(tokens: Int[Tensor, "S N"], pad_id: int) -> Bool[Tensor, "N S"]:
    """Tokens are time-major like the encoder's input; nn.TransformerEncoder wants the padding mask batch-first."""
    return (tokens == pad_id).transpose(0, 1)
