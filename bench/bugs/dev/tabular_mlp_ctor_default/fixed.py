import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularNet(nn.Module):
    def __init__(self, n_features=10, hidden=64, n_classes=3, p_drop=0.1):
        super(TabularNet, self).__init__()
        self.fc1 = nn.Linear(n_features, hidden)
        self.bn1 = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, n_classes)
        self.p_drop = p_drop

    def forward(self, x):
        x = F.relu(self.bn1(self.fc1(x)))
        x = F.dropout(x, self.p_drop, self.training)
        x = F.relu(self.fc2(x))
        return self.out(x)


def load_table(n_rows=256):
    """Stand-in for the CSV loader: 12 numeric columns after one-hot encoding, 3 classes."""
    g = torch.Generator().manual_seed(0)
    features = torch.randn(n_rows, 12, generator=g)
    labels = torch.randint(0, 3, (n_rows,), generator=g)
    return features, labels


def standardize(features):
    return (features - features.mean(0)) / (features.std(0) + 1e-6)


features, labels = load_table()
features = standardize(features)

model = TabularNet(n_features=features.size(1))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
batch_size = 32

for epoch in range(2):
    perm = torch.randperm(features.size(0))
    for start in range(0, features.size(0), batch_size):
        idx = perm[start:start + batch_size]
        xb, yb = features[idx], labels[idx]
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
