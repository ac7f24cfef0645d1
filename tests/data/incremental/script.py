# A notebook exported as a script: models, data and the training loop at module level, helpers in between.
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH, STEPS, FEATURES = 32, 10, 24
HIDDEN = 64
data = torch.randn(BATCH, STEPS, FEATURES)
B, T, C = data.shape
flat = data.view(B * T, C)

encoder = nn.Sequential(nn.Linear(FEATURES, HIDDEN), nn.ReLU())
head = nn.Linear(HIDDEN, 5)
encoder.append(nn.Dropout(0.1))


def summarize(h):
    pooled = h.mean(dim=1)
    return head(pooled)


def scores(q, k):
    return F.softmax(q @ k.transpose(0, 1) / HIDDEN ** 0.5, dim=-1)


hidden = encoder(flat)
per_step = hidden.view(B, T, HIDDEN)
logits = summarize(per_step)
labels = torch.randint(0, 5, (BATCH, 1))
loss = F.cross_entropy(logits, labels)
attention = scores(hidden, hidden)
log_attention = torch.log(attention)
mixed = per_step.transpose(1, 2).view(B, -1)
mask = torch.ones(B, T) @ torch.ones(C, T)
total = hidden.sum().item() + per_step.mean(dim=2).item()
probabilities = torch.sigmoid(logits)
bce = F.binary_cross_entropy(probabilities, torch.rand(BATCH, 5))
