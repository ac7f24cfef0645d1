import torch
from jaxtyping import Float, Int
from torch import Tensor, nn

Tokens = Int[Tensor, "batch seq"]
Embeddings = Float[Tensor, "batch dim"]

embedding = nn.EmbeddingBag(200, 16, mode="mean")


def encode(ids: Tokens) -> Embeddings:
    return embedding(ids)


vocab = {w: i for i, w in enumerate("the a cat dog sat on mat".split())}
sentence = torch.tensor([vocab[w] for w in "the cat sat on the mat".split()])
vector = encode(sentence.unsqueeze(0))
print(vector.shape)
