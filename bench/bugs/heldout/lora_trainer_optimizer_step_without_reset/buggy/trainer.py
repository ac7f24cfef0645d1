from dataclasses import dataclass

import torch
import torch.nn.functional as F

from lora import TinyLM, inject_lora


@dataclass
class TrainConfig:
    lr: float = 1e-3
    steps: int = 4
    batch_size: int = 4
    seq_len: int = 16


class Trainer:
    def __init__(self, model, cfg: TrainConfig):
        self.model = model
        self.cfg = cfg
        trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(trainable, lr=cfg.lr)

    def compute_loss(self, ids):
        logits = self.model(ids[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))

    def optimizer_step(self, loss):
        loss.backward()
        self.optimizer.step()

    def train(self):
        for step in range(self.cfg.steps):
            ids = torch.randint(0, 200, (self.cfg.batch_size, self.cfg.seq_len))
            loss = self.compute_loss(ids)
            self.optimizer_step(loss)
            print(step, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(inject_lora(TinyLM()), TrainConfig()).train()
