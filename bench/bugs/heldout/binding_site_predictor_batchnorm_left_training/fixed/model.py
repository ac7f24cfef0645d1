import torch.nn as nn


class BindingSiteCNN(nn.Module):
    """Per-residue binding-site scores from (pre-computed) protein language model embeddings."""

    def __init__(self, embed_dim=32, channels=(24, 16), kernel=5, dropout=0.3):
        super().__init__()
        layers, c_in = [], embed_dim
        for c_out in channels:
            layers += [nn.Conv1d(c_in, c_out, kernel, padding=kernel // 2), nn.BatchNorm1d(c_out), nn.ReLU(), nn.Dropout(dropout)]
            c_in = c_out
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Conv1d(c_in, 1, 1)

    def forward(self, emb):
        x = self.features(emb.transpose(1, 2))
        return self.classifier(x).squeeze(1)
