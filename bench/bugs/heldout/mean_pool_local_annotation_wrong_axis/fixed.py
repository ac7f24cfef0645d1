import torch
from torch import nn, Tensor
from jaxtyping import Float, Int


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab: int = 900, dim: int = 40, classes: int = 3) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=80, batch_first=True), num_layers=1
        )
        self.fc = nn.Linear(dim, classes)

    def pool(self, hidden: Float[Tensor, "B T D"]) -> Tensor:
        pooled: Float[Tensor, "B D"] = hidden.mean(dim=1)
        return pooled

    def forward(self, ids: Int[Tensor, "B T"]) -> Float[Tensor, "B 3"]:
        return self.fc(self.pool(self.encoder(self.embed(ids))))


if __name__ == "__main__":
    model = MeanPoolClassifier()
    ids = torch.randint(0, 900, (3, 20))
    print(model(ids).shape)
