from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class BiLSTMTagger(nn.Module):
    """Named-entity tagger: 9 BIO tags over a 1000-word vocabulary."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(1000, 50, padding_idx=PAD)
        self.lstm = nn.LSTM(50, 64, batch_first=True, bidirectional=True)
        self.emit = nn.Linear(128, 9)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return self.emit(out)


def make_batch(batch_size: int = 8, seq_len: int = 20) -> Tuple[torch.Tensor, torch.Tensor]:
    tokens = torch.randint(1, 1000, (batch_size, seq_len))
    tags = torch.randint(0, 9, (batch_size, seq_len))
    tokens[:, 15:] = PAD
    tags[:, 15:] = -100
    return tokens, tags


@torch.no_grad()
def evaluate(tagger: BiLSTMTagger, tokens: torch.Tensor, tags: torch.Tensor) -> Tuple[float, float]:
    tagger.eval()
    logits = tagger(tokens)
    loss = F.cross_entropy(logits, tags, ignore_index=-100)
    mask = tags != -100
    acc = (logits.argmax(-1)[mask] == tags[mask]).float().mean()
    return loss.item(), acc.item()


def train(tagger: BiLSTMTagger, steps: int = 2) -> None:
    opt = torch.optim.Adam(tagger.parameters(), lr=1e-3)
    for _ in range(steps):
        tagger.train()
        tokens, tags = make_batch()
        logits = tagger(tokens)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    model = BiLSTMTagger()
    train(model)
    print("dev loss %.3f acc %.3f" % evaluate(model, *make_batch()))
