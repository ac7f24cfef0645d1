import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, train_batches, valid_batches, epochs=2):
        self.model = model
        self.optimizer = optimizer
        self.train_batches = train_batches
        self.valid_batches = valid_batches
        self.epochs = epochs

    def _train_epoch(self, epoch):
        self.model.train()
        total = 0.0
        for batch in self.train_batches:
            logits = self.model(batch["image"], batch["boxes"], batch["text"], batch["mask"])
            loss = F.cross_entropy(logits.flatten(0, 2), batch["tags"].flatten(), ignore_index=-100)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        val_acc = self._valid_epoch(epoch)
        print(f"epoch {epoch}: train loss {total / len(self.train_batches):.4f} val acc {val_acc:.3f}")

    def _valid_epoch(self, epoch):
        self.model.eval()
        correct = seen = 0
        with torch.no_grad():
            for batch in self.valid_batches:
                logits = self.model(batch["image"], batch["boxes"], batch["text"], batch["mask"])
                keep = batch["tags"] != -100
                correct += (logits.argmax(-1)[keep] == batch["tags"][keep]).sum().item()
                seen += keep.sum().item()
        return correct / max(seen, 1)

    def train(self):
        for epoch in range(1, self.epochs + 1):
            self._train_epoch(epoch)
