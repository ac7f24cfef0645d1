import torch
import torch.nn as nn


class SurvivalNet(nn.Module):
    def __init__(self, n_features=7, hidden=20, dropout=0.2):
        super().__init__()
        self.linear1 = nn.Linear(n_features, hidden)
        self.linear2 = nn.Linear(hidden, 15)
        self.dropout = nn.Dropout(p=dropout)
        self.linear3 = nn.Linear(15, 1)

    def forward(self, x):
        x = torch.relu(self.linear1(x))
        x = torch.relu(self.linear2(x))
        x = self.dropout(x)
        return self.linear3(x)

    @torch.no_grad()
    def predict_proba(self, x):
        self.eval()
        return torch.sigmoid(self(x)).squeeze(-1)
