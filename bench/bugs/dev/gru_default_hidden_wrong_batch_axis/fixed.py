import torch
import torch.nn as nn


class SessionRecommender(nn.Module):
    """GRU4Rec-style next-item model over click sessions."""

    def __init__(self, n_items=500, hidden=32, num_layers=1):
        super().__init__()
        self.hidden, self.num_layers = hidden, num_layers
        self.item_emb = nn.Embedding(n_items, hidden)
        self.gru = nn.GRU(hidden, hidden, num_layers, batch_first=True)
        self.out = nn.Linear(hidden, n_items)

    def forward(self, clicks, h=None):
        if h is None:
            h = torch.zeros(self.num_layers, clicks.size(0), self.hidden)
        out, h = self.gru(self.item_emb(clicks), h)
        return self.out(out), h


model = SessionRecommender()
sessions = torch.randint(0, 500, (4, 12))
logits, _ = model(sessions[:, :-1])
loss = nn.functional.cross_entropy(logits.reshape(-1, 500), sessions[:, 1:].reshape(-1))
loss.backward()
print(loss.item())
