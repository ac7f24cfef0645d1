import torch
from torch import nn


class TokenAndPositionEmbedding(nn.Module):
    def __init__(self, vocab: int = 300, max_len: int = 32, dim: int = 24) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(ids.size(1))[None, :]
        return self.tok(ids) + self.pos(positions)


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    layer = TokenAndPositionEmbedding().to(device)
    ids = torch.randint(0, 300, (4, 20), device=device)
    print(layer(ids).shape)


if __name__ == "__main__":
    main()
