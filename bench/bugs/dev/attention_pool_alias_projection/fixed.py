import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionPooling(nn.Module):
    """Scores each time step, then averages the sequence with the softmax of the scores."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(40, 128), nn.Tanh())
        self.score = nn.Linear(128, 1)
        self.classifier = nn.Linear(128, 6)

    def forward(self, frames):
        h = self.encoder(frames)
        scorer = self.score
        weights = F.softmax(scorer(h), dim=1)
        pooled = (weights * h).sum(dim=1)
        return self.classifier(pooled)


if __name__ == "__main__":
    model = AttentionPooling()
    mfcc = torch.randn(2, 10, 40)
    labels = torch.tensor([0, 5])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss = F.cross_entropy(model(mfcc), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())
