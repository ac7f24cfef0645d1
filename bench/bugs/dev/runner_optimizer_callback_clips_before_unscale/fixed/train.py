from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import AMPEngine, OptimizerCallback


class SupervisedRunner:
    def __init__(self, model, engine, callbacks):
        self.model, self.engine, self.callbacks = model, engine, callbacks
        self.is_train_loader = True
        self.batch_metrics = {}

    def handle_batch(self, batch):
        features, targets = batch
        with self.engine.autocast():
            logits = self.model(features)
            self.batch_metrics = {"loss": F.cross_entropy(logits.float(), targets)}

    def run_loader(self, loader, is_train):
        self.is_train_loader = is_train
        self.model.train(is_train)
        losses = []
        with torch.set_grad_enabled(is_train):
            for batch in loader:
                self.handle_batch(batch)
                for callback in self.callbacks:
                    callback.on_batch_end(self)
                losses.append(self.batch_metrics["loss"].item())
        return sum(losses) / len(losses)

    def train(self, loaders, num_epochs):
        for epoch in range(num_epochs):
            train_loss = self.run_loader(loaders["train"], is_train=True)
            valid_loss = self.run_loader(loaders["valid"], is_train=False)
            print(f"epoch {epoch}: train {train_loss:.4f} valid {valid_loss:.4f}")


def make_loader(n_batches, batch_size=8, features=16, classes=4):
    return [(torch.randn(batch_size, features), torch.randint(0, classes, (batch_size,))) for _ in range(n_batches)]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    callback = OptimizerCallback("loss", model, optimizer, grad_clip_fn=partial(nn.utils.clip_grad_norm_, max_norm=1.0))
    runner = SupervisedRunner(model, AMPEngine(), [callback])
    runner.train({"train": make_loader(4), "valid": make_loader(2)}, num_epochs=2)
