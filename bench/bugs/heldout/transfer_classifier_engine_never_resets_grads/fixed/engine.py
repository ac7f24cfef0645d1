import torch
import torch.nn as nn


class Engine:
    def __init__(self, model: nn.Module, lr: float = 3e-3, print_every: int = 2):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.opt = torch.optim.Adam(model.classifier.parameters(), lr=lr)
        self.print_every = print_every
        self.steps = 0

    def train_step(self, images, labels):
        self.model.train()
        self.opt.zero_grad()
        logits = self.model(images)
        loss = self.criterion(logits, labels)
        loss.backward()
        self.opt.step()
        self.steps += 1
        return loss.item()

    @torch.no_grad()
    def evaluate(self, images, labels):
        self.model.eval()
        logits = self.model(images)
        accuracy = (logits.argmax(1) == labels).float().mean().item()
        self.model.train()
        return accuracy

    def fit(self, batches, val_batch, epochs=1):
        for epoch in range(epochs):
            running = 0.0
            for images, labels in batches:
                running += self.train_step(images, labels)
                if self.steps % self.print_every == 0:
                    acc = self.evaluate(*val_batch)
                    print(f"epoch {epoch} step {self.steps} train loss {running / self.print_every:.3f} val acc {acc:.3f}")
                    running = 0.0
