import torch
import torch.nn as nn


class FraudScorer(nn.Module):
    def __init__(self, n_features, hidden, dropout):
        super().__init__()
        layers, width = [], n_features
        for h in hidden:
            layers += [nn.Linear(width, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)

    def score(self, x):
        """Logits for the loss and fraud probabilities for the dashboards, from one forward pass."""
        logits = self(x)
        return logits, torch.sigmoid(logits)
