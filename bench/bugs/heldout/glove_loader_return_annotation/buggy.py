import torch
from torch import nn, Tensor
from jaxtyping import Float, Int


def load_vectors(vocab_size: int) -> Float[Tensor, "V 300"]:
    """Pretrained 300-d word vectors (random here, as if read from glove.840B.300d)."""
    return torch.randn(vocab_size, 300)


def sentence_embedding(vectors: Float[Tensor, "V D"], ids: Int[Tensor, "B T"]) -> Float[Tensor, "B D"]:
    return vectors[ids].mean(dim=1)


class SentimentProbe(nn.Module):
    def __init__(self, dim: int = 100) -> None:
        super().__init__()
        self.out = nn.Linear(dim, 2)

    def forward(self, emb: Tensor) -> Tensor:
        return self.out(emb)


if __name__ == "__main__":
    vectors = load_vectors(5000)
    ids = torch.randint(0, 5000, (6, 15))
    labels = torch.randint(0, 2, (6,))
    probe = SentimentProbe()
    opt = torch.optim.Adam(probe.parameters(), lr=1e-3)
    emb = sentence_embedding(vectors, ids)
    loss = nn.functional.cross_entropy(probe(emb), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(round(loss.item(), 3))
