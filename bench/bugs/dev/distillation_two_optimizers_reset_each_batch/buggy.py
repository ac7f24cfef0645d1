import torch
import torch.nn as nn
import torch.nn.functional as F

projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 32))
decoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32))
optimizer_proj = torch.optim.Adam(projector.parameters(), lr=1e-3)
optimizer_distill = torch.optim.Adam(decoder.parameters(), lr=1e-3)
accumulation_steps = 2
teacher_feats = [torch.randn(8, 32) for _ in range(8)]

for i, feats in enumerate(teacher_feats):
    student = decoder(projector(feats))
    loss = (1 - F.cosine_similarity(student, feats, dim=-1)).mean()
    optimizer_proj.zero_grad()
    optimizer_distill.zero_grad()
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer_proj.step()
        optimizer_distill.step()
print("final loss", loss.item())
