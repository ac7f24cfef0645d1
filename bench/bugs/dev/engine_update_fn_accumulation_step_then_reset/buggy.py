import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class State:
    def __init__(self):
        self.iteration = 0
        self.epoch = 0
        self.output = None


class Engine:
    """A minimal event loop in the style of ignite: the update function runs once per batch."""

    def __init__(self, process_function):
        self.process_function = process_function
        self.state = State()

    def run(self, data, max_epochs=1):
        for epoch in range(max_epochs):
            self.state.epoch = epoch + 1
            for batch in data:
                self.state.iteration += 1
                self.state.output = self.process_function(self, batch)
        return self.state


def prepare_batch(batch, device):
    x, y = batch
    return x.to(device), y.to(device)


device = "cpu"
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
accumulation_steps = 4


def update_fn(engine, batch):
    model.train()
    x, y = prepare_batch(batch, device=device)
    y_pred = model(x)
    loss = criterion(y_pred, y) / accumulation_steps
    loss.backward()
    if engine.state.iteration % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
    return loss.item()


data = DataLoader(TensorDataset(torch.randn(64, 8), torch.randint(0, 3, (64,))), batch_size=4, shuffle=True)
state = Engine(update_fn).run(data, max_epochs=2)
print("iterations", state.iteration, "last loss", state.output)
