import torch
import torch.nn as nn
import torch.nn.functional as F

from evaluator import Evaluator

VOCAB, EMB, HID = 40, 32, 64


class Seq2seq(nn.Module):
    def __init__(self, vocab=VOCAB, emb=EMB, hidden=HID, dropout=0.3):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.encoder = nn.GRU(emb, hidden, batch_first=True)
        self.decoder = nn.GRU(emb, hidden, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, src, tgt_in):
        _, state = self.encoder(self.dropout(self.embed(src)))
        dec, _ = self.decoder(self.dropout(self.embed(tgt_in)), state)
        return self.out(self.dropout(dec))


def copy_task(n, length, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(3, VOCAB, (n, length), generator=g)
    tgt = torch.cat([torch.full((n, 1), 1), src.flip(1)], dim=1)
    return src, tgt


class SupervisedTrainer:
    def __init__(self, model, optimizer, evaluator, checkpoint_every=6, batch_size=16):
        self.model = model
        self.optimizer = optimizer
        self.evaluator = evaluator
        self.checkpoint_every = checkpoint_every
        self.batch_size = batch_size

    def train(self, train_data, dev_data, epochs):
        step = 0
        self.model.train(True)
        for epoch in range(epochs):
            perm = torch.randperm(len(train_data[0]))
            for start in range(0, len(perm), self.batch_size):
                idx = perm[start : start + self.batch_size]
                src, tgt = train_data[0][idx], train_data[1][idx]
                logits = self.model(src, tgt[:, :-1])
                loss = F.cross_entropy(logits.transpose(1, 2), tgt[:, 1:], ignore_index=0)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                step += 1
                if step % self.checkpoint_every == 0:
                    dev_loss, accuracy = self.evaluator.evaluate(self.model, dev_data)
            print(f"epoch {epoch}: train {loss.item():.3f} dev {dev_loss:.3f} acc {accuracy:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Seq2seq()
    trainer = SupervisedTrainer(model, torch.optim.Adam(model.parameters(), lr=2e-3), Evaluator())
    trainer.train(copy_task(96, 6, seed=0), copy_task(32, 6, seed=1), epochs=2)
