import torch
import torch.nn as nn
import torch.nn.functional as F


class State:
    def __init__(self):
        self.iteration = 0
        self.epoch = 0


class Engine:
    """A minimal stand-in for ignite's Engine: calls the process function once per batch."""

    def __init__(self, process_function):
        self.process_function = process_function
        self.state = State()

    def run(self, data, max_epochs=1):
        for _ in range(max_epochs):
            self.state.epoch += 1
            for batch in data:
                self.state.iteration += 1
                output = self.process_function(self, batch)
            print(f"epoch {self.state.epoch}: loss {output:.4f}")


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
criterion = nn.CrossEntropyLoss()
accumulation_steps = 4


def prepare_batch(batch):
    x, y = batch
    return x.float(), y.long()


def update_fn(engine, batch):
    model.train()
    x, y = prepare_batch(batch)
    y_pred = model(x)
    loss = criterion(y_pred, y) / accumulation_steps
    loss.backward()
    if engine.state.iteration % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [(torch.randn(8, 10), torch.randint(0, 3, (8,))) for _ in range(8)]
    trainer = Engine(update_fn)
    trainer.run(data, max_epochs=2)
