# A training script: a model, its optimizer and scheduler, a helper stepping it, and loops before and after a
# module-level statement the tests type into.
import torch
import torch.nn as nn

model = nn.Linear(8, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)


def train_step(x, y):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()


for epoch in range(3):
    scheduler.step()
    for batch in range(5):
        train_step(torch.randn(4, 8), torch.randn(4, 2))

x = torch.randn(4, 8)
scores = torch.softmax(model(x), dim=-1).log()

for epoch in range(3):
    for batch in range(5):
        loss = nn.functional.mse_loss(model(torch.randn(4, 8)), torch.randn(4, 2))
        loss.backward()
        optimizer.step()
