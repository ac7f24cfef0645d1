import torch
import torch.nn as nn

from losses import combined_loss

VOCAB, DIM, SEQ = 50, 16, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.rnn = nn.GRU(DIM, DIM, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        hidden, _ = self.rnn(self.embed(tokens))
        return self.head(hidden)


class UnlearnTrainer:
    def __init__(self, model, lr=1e-3, loss_weights=(1.0, 0.5)):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.loss_weights = loss_weights
        self.history = []

    def compute_loss(self, inputs):
        retain, forget = inputs["retain"], inputs["forget"]
        retain_logits = self.model(retain[:, :-1])
        forget_logits = self.model(forget[:, :-1])
        loss = combined_loss(retain_logits, retain[:, 1:], forget_logits, self.loss_weights)
        self.history.append({"train/loss": loss.item()})
        return loss

    def training_step(self, inputs):
        self.model.train()
        loss = self.compute_loss(inputs)
        self.optimizer.zero_grad()
        loss.sum().backward()
        self.optimizer.step()


def main():
    trainer = UnlearnTrainer(TinyLM())
    for step in range(3):
        batch = {"retain": torch.randint(0, VOCAB, (4, SEQ)), "forget": torch.randint(0, VOCAB, (4, SEQ))}
        trainer.training_step(batch)
    print(trainer.history[-1])


if __name__ == "__main__":
    main()
