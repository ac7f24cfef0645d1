import torch
import torch.nn as nn


class LabelModelTrainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.running_loss = 0.0

    def train_epoch(self, batches):
        self.running_loss = 0.0
        for votes, target in batches:
            loss = nn.functional.binary_cross_entropy_with_logits(self.model(votes).squeeze(1), target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.running_loss += loss.item()
        return self.running_loss / len(batches)


batches = [(torch.randint(-1, 2, (32, 10)).float(), torch.randint(0, 2, (32,)).float()) for _ in range(8)]
trainer = LabelModelTrainer(nn.Linear(10, 1))
print(float(trainer.train_epoch(batches)))
