import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

student = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.SGD(student.parameters(), lr=0.05)
momentum = 0.99


@torch.no_grad()
def update_teacher(teacher, student, m):
    for t_param, s_param in zip(teacher.parameters(), student.parameters()):
        t_param.mul_(m).add_(s_param.detach(), alpha=1 - m)


for step in range(5):
    x = torch.randn(16, 16)
    view1, view2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    loss = F.mse_loss(F.normalize(student(view1), dim=-1), F.normalize(teacher(view2), dim=-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    update_teacher(teacher, student, momentum)
print(loss.item())
