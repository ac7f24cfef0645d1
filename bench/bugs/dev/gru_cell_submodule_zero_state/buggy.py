import torch
import torch.nn as nn


class RecurrentEncoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.GRUCell(in_dim, hidden)

    def forward(self, seq):
        h = torch.zeros(seq.size(0), self.hidden)
        for t in range(seq.size(1)):
            h = self.cell(seq[:, t], h)
        return h


class TrajectoryClassifier(nn.Module):
    def __init__(self, in_dim=4, hidden=32, classes=5):
        super().__init__()
        self.encoder = RecurrentEncoder(in_dim, hidden)
        self.head = nn.Linear(hidden, classes)

    def forward(self, seq):
        return self.head(self.encoder(seq))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = TrajectoryClassifier().to(device)
tracks = torch.randn(6, 15, 4, device=device)
print(model(tracks).argmax(-1))
