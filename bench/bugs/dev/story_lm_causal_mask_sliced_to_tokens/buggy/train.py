import torch
import torch.nn.functional as F

from config import GPT_CONFIG
from model import GPTModel


class Trainer:
    def __init__(self, model: GPTModel, lr=4e-4, weight_decay=0.1):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
        self.tokens_seen = 0

    def calc_loss_batch(self, input_batch, target_batch):
        logits = self.model(input_batch)
        return F.cross_entropy(logits.flatten(0, 1), target_batch.flatten())

    def train_step(self, input_batch, target_batch):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.calc_loss_batch(input_batch, target_batch)
        loss.backward()
        self.optimizer.step()
        self.tokens_seen += input_batch.numel()
        return loss.item()


def make_batches(n_batches, batch_size, max_length, vocab_size, g):
    for _ in range(n_batches):
        ids = torch.randint(0, vocab_size, (batch_size, max_length + 1), generator=g)
        yield ids[:, :-1], ids[:, 1:]


def main():
    torch.manual_seed(123)
    model = GPTModel(GPT_CONFIG)
    trainer = Trainer(model)
    g = torch.Generator().manual_seed(123)
    for step, (x, y) in enumerate(make_batches(3, 2, 16, GPT_CONFIG["vocab_size"], g)):
        loss = trainer.train_step(x, y)
        print(f"step {step}: loss {loss:.3f}, tokens seen {trainer.tokens_seen}")


if __name__ == "__main__":
    main()
