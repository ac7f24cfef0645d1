import torch.nn as nn
import torch.nn.functional as F


class LeafNet(nn.Module):
    """Margin/shape/texture features -> 99 species in the Kaggle data; 12 here."""

    def __init__(self, n_features=24, n_hidden=48, n_classes=12, p_drop=0.3):
        super().__init__()
        self.l1 = nn.Linear(n_features, n_hidden)
        self.bn = nn.BatchNorm1d(n_hidden)
        self.drop = nn.Dropout(p_drop)
        self.l_out = nn.Linear(n_hidden, n_classes)

    def forward(self, x):
        x = self.drop(F.relu(self.bn(self.l1(x))))
        return self.l_out(x)
