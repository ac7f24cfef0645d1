import torch
import torch.nn as nn

from prediction import predict


class Tagger(nn.Module):
    def __init__(self, vocab=60, dim=32, n_out=60):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.drop = nn.Dropout(0.3)
        self.out = nn.Linear(dim, n_out)

    def forward(self, src):
        h, _ = self.rnn(self.drop(self.embed(src)))
        return self.out(self.drop(h))


class TrainManager:
    def __init__(self, model, validation_freq=2, lr=1e-3):
        self.model = model
        self.validation_freq = validation_freq
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.stats = {"steps": 0, "best": float("inf")}

    def _train_step(self, src, trg):
        self.model.train()
        logits = self.model(src)
        loss = nn.functional.cross_entropy(logits.transpose(1, 2), trg)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.stats["steps"] += 1
        return loss.item()

    def _validate(self, dev_data):
        valid_loss, _ = predict(self.model, dev_data)
        self.stats["best"] = min(self.stats["best"], valid_loss)

    def train_and_validate(self, train_data, dev_data, epochs=2):
        for epoch in range(epochs):
            for i in range(0, len(train_data[0]), 4):
                self._train_step(train_data[0][i:i + 4], train_data[1][i:i + 4])
                if self.stats["steps"] % self.validation_freq == 0:
                    self._validate(dev_data)
            print(epoch, self.stats)


if __name__ == "__main__":
    torch.manual_seed(0)
    make = lambda n: (torch.randint(0, 60, (n, 9)), torch.randint(0, 60, (n, 9)))
    TrainManager(Tagger()).train_and_validate(make(16), make(8))
