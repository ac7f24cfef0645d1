import torch
from torch import nn


class ConcatPoolingHead(nn.Module):
    """Concatenates [CLS], mean- and max-pooled token states, as Kaggle NLP baselines do."""

    def __init__(self, hidden: int = 32, labels: int = 2) -> None:
        super().__init__()
        self.classifier = nn.Linear(3 * hidden, labels)

    def forward(self, hidden_states: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.unsqueeze(-1).float()
        mean_pool = (hidden_states * m).sum(1) / m.sum(1)
        max_pool = hidden_states.masked_fill(m == 0, -1e4).max(dim=1).values
        cls = hidden_states[:, 0]
        return self.classifier(torch.cat([cls, mean_pool, max_pool], dim=-1))


encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, batch_first=True), 1)
head = ConcatPoolingHead()
ids_embeddings = torch.randn(3, 14, 32)
mask = torch.ones(3, 14)
print(head(encoder(ids_embeddings), mask).shape)
