import torch
import torch.nn as nn


class FingerprintFFN(nn.Module):
    """Feed-forward network over a bit fingerprint (a stand-in for a message-passing encoder)."""

    def __init__(self, fp_size=256, hidden_size=128, depth=3, dropout=0.2, num_tasks=1):
        super().__init__()
        layers = [nn.Dropout(dropout), nn.Linear(fp_size, hidden_size)]
        for _ in range(depth - 2):
            layers += [nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden_size, hidden_size)]
        layers += [nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden_size, num_tasks)]
        self.ffn = nn.Sequential(*layers)

    def forward(self, fingerprints):
        return self.ffn(fingerprints)
