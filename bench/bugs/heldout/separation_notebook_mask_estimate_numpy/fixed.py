#!/usr/bin/env python
# coding: utf-8
# Gradient descent for source separation: a mask-inference network on magnitude spectrograms, trained with a
# few learning rates, then one estimate inspected. (Exported from the tutorial notebook.)

# In[1]:


import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
NUM_FREQ, NUM_FRAMES = 33, 20
LEARNING_RATES = [1e-3, 1e-2]


# In[2]:


class MaskInference(nn.Module):
    def __init__(self, num_features, hidden_size=24, num_sources=2, dropout=0.2):
        super().__init__()
        self.amplitude_to_db = lambda x: 20 * torch.log10(x.clamp(min=1e-8))
        self.input_normalization = nn.BatchNorm1d(num_features)
        self.recurrent_stack = nn.LSTM(num_features, hidden_size, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.embedding = nn.Linear(hidden_size * 2, num_features * num_sources)
        self.num_sources = num_sources

    def forward(self, mix_magnitude):
        data = self.amplitude_to_db(mix_magnitude)
        data = self.input_normalization(data.transpose(1, 2)).transpose(1, 2)
        data, _ = self.recurrent_stack(data)
        mask = torch.sigmoid(self.embedding(self.dropout(data)))
        mask = mask.view(mask.size(0), mask.size(1), -1, self.num_sources)
        return mix_magnitude.unsqueeze(-1) * mask


# In[3]:


def synthetic_item(generator):
    sources = torch.rand(2, NUM_FRAMES, NUM_FREQ, generator=generator) ** 2
    return sources.sum(0), sources.permute(1, 2, 0)


g = torch.Generator().manual_seed(0)
batch = [synthetic_item(g) for _ in range(4)]
mix = torch.stack([b[0] for b in batch])
sources = torch.stack([b[1] for b in batch])


# In[4]:


grad_norms, losses, models = [], [], []
for lr in LEARNING_RATES:
    model = MaskInference(NUM_FREQ)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    lr_norms, lr_losses = [], []
    for it in range(4):
        estimates = model(mix)
        loss = (estimates - sources).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        norm = sum(p.grad.norm() ** 2 for p in model.parameters() if p.grad is not None) ** 0.5
        optimizer.step()
        lr_norms.append(norm.item())
        lr_losses.append(loss.item())
    grad_norms.append(lr_norms)
    losses.append(lr_losses)
    models.append(model)
print("final losses:", [round(l[-1], 4) for l in losses])


# In[5]:


best = models[int(np.argmin([l[-1] for l in losses]))]
best.eval()
with torch.no_grad():
    estimate = best(mix[:1])
vocals_db = 20 * np.log10(estimate[0, ..., 0].numpy() + 1e-8)
print("estimate range (dB):", vocals_db.min(), vocals_db.max())
