import time

import torch
import torch.nn.functional as F

from config import MODEL, TRAIN
from model import SessionRecommender


def fake_sessions(batch_size: int, length: int, num_items: int) -> torch.Tensor:
    return torch.randint(1, num_items + 1, (batch_size, length + 1))


class Trainer:
    def __init__(self, model: SessionRecommender, lr: float) -> None:
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
        self.history: list[float] = []

    def train_step(self, sessions: torch.Tensor) -> float:
        inputs, targets = sessions[:, :-1], sessions[:, 1:]
        logits = self.model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=0)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, epochs: int, batches: int) -> None:
        self.model.train()
        for epoch in range(epochs):
            start, total = time.time(), 0.0
            for _ in range(batches):
                sessions = fake_sessions(TRAIN["batch_size"], TRAIN["session_len"], MODEL["num_items"])
                total += self.train_step(sessions)
            self.history.append(total / batches)
            print(f"epoch {epoch} loss {self.history[-1]:.3f} ({time.time() - start:.1f}s)")


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(SessionRecommender(**MODEL), lr=TRAIN["lr"])
    trainer.fit(TRAIN["epochs"], TRAIN["batches_per_epoch"])
