from typing import List

import torch
from torch import nn


class SentimentNet(nn.Module):
    def __init__(self, vocab: int = 500, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(dim, 2)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.embed(ids)))


class Predictor:
    def __init__(self, model: nn.Module, labels: List[str]) -> None:
        self.model = model
        self.labels = labels

    def predict(self, ids: torch.Tensor) -> List[str]:
        with torch.inference_mode():
            scores = self.model(ids)
        return [self.labels[i] for i in scores.argmax(-1).tolist()]


net = SentimentNet()
predictor = Predictor(net, ["negative", "positive"])
print(predictor.predict(torch.randint(0, 500, (4, 9))))
