import torch
from torch import nn


class SentenceEncoder(nn.Module):
    def __init__(self, vocab: int = 1000, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.Dropout(0.1))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(self.proj(self.embed(ids)), dim=-1)


def embed_corpus(encoder: nn.Module, corpus: torch.Tensor, batch_size: int = 16) -> torch.Tensor:
    encoder.eval()
    chunks = []
    with torch.no_grad():
        for start in range(0, len(corpus), batch_size):
            chunks.append(encoder(corpus[start:start + batch_size]))
    return torch.cat(chunks)


encoder = SentenceEncoder()
corpus = torch.randint(0, 1000, (48, 20))
index = embed_corpus(encoder, corpus)
query = embed_corpus(encoder, corpus[:1])
print((index @ query.T).squeeze(1).topk(3).indices.tolist())
