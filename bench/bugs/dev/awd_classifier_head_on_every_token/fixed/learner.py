import torch
import torch.nn.functional as F

from model import TextClassifier


class Learner:
    def __init__(self, model: TextClassifier, lr=2e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.recorder = []

    def one_batch(self, xb, yb):
        out = self.model(xb)
        loss = F.cross_entropy(out, yb)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        self.recorder.append(loss.item())

    def fit(self, n_epochs, batches):
        for epoch in range(n_epochs):
            self.model.train()
            for xb, yb in batches:
                self.one_batch(xb, yb)
            print(f"epoch {epoch}: {sum(self.recorder) / len(self.recorder):.4f}")


def make_batches(vocab_size=60, bs=4, seq_len=24, n=3):
    return [(torch.randint(2, vocab_size, (bs, seq_len)), torch.randint(0, 2, (bs,))) for _ in range(n)]


if __name__ == "__main__":
    torch.manual_seed(0)
    Learner(TextClassifier(60, 2)).fit(1, make_batches())
