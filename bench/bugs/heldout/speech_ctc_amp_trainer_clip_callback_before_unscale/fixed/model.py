import torch.nn as nn


class TinyCTCModel(nn.Module):
    def __init__(self, n_mels=20, hidden=32, vocab=12):
        super().__init__()
        self.encoder = nn.GRU(n_mels, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, feats):
        h, _ = self.encoder(feats)
        return self.proj(h).log_softmax(-1)
