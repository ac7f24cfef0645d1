import torch
import torch.nn as nn
import torch.nn.functional as F


class AttnNetGated(nn.Module):
    def __init__(self, L=64, D=32, dropout=True, n_classes=1):
        super().__init__()
        self.attention_a = nn.Sequential(nn.Linear(L, D), nn.Tanh(), *( [nn.Dropout(0.25)] if dropout else []))
        self.attention_b = nn.Sequential(nn.Linear(L, D), nn.Sigmoid(), *( [nn.Dropout(0.25)] if dropout else []))
        self.attention_c = nn.Linear(D, n_classes)

    def forward(self, x):
        return self.attention_c(self.attention_a(x) * self.attention_b(x)), x


class CLAM_SB(nn.Module):
    """Single-branch clustering-constrained attention MIL over a bag of patch features."""

    def __init__(self, feat_dim=128, n_classes=2, dropout=True):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(feat_dim, 64), nn.ReLU(), nn.Dropout(0.25) if dropout else nn.Identity())
        self.attention_net = AttnNetGated(L=64, D=32, dropout=dropout)
        self.classifier = nn.Linear(64, n_classes)

    def forward(self, h):
        A, h = self.attention_net(self.fc(h))
        A = F.softmax(A.t(), dim=1)
        M = A @ h
        logits = self.classifier(M)
        return logits, F.softmax(logits, dim=1), A
