import torch
import torch.nn as nn
import torch.nn.functional as F


class ClassificationHead(nn.Module):
    def __init__(self, hidden_size, num_labels, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.out_proj = nn.Linear(hidden_size, num_labels)

    def forward(self, pooled):
        return self.out_proj(self.dropout(pooled))

    def loss(self, logits, labels, class_weights=None):
        return F.cross_entropy(logits, labels, weight=class_weights)


class TextEncoder(nn.Module):
    def __init__(self, vocab_size=3000, hidden_size=64):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)

    def forward(self, ids):
        _, h = self.gru(self.embed(ids))
        return h[-1]


def read_labels(n):
    """Labels as read from the CSV's label column: one column per row."""
    return torch.randint(0, 4, (n, 1))


encoder = TextEncoder()
head = ClassificationHead(hidden_size=64, num_labels=4)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)

ids = torch.randint(0, 3000, (8, 24))
labels = read_labels(8)
logits = head(encoder(ids))
loss = head.loss(logits, labels.squeeze(1))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(f"loss {loss.item():.4f}")
