import torch
import torch.nn as nn
import torch.nn.functional as F


class EmissionHead(nn.Module):
    def __init__(self, hidden, num_tags):
        super().__init__()
        self.proj = nn.Linear(hidden, num_tags)

    def forward(self, states):
        return self.proj(states)

    def loss(self, emissions, tags, mask):
        nll = F.cross_entropy(emissions, tags, reduction="none")
        return (nll * mask).sum() / mask.sum()


class Tagger(nn.Module):
    def __init__(self, vocab=800, hidden=32, num_tags=11):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = EmissionHead(hidden, num_tags)

    def forward(self, tokens):
        states, _ = self.rnn(self.embed(tokens))
        return self.head(states)


tagger = Tagger()
tokens = torch.randint(0, 800, (4, 15))
tags = torch.randint(0, 11, (4, 15))
mask = (tokens != 0).float()
emissions = tagger(tokens)
loss = tagger.head.loss(emissions, tags, mask)
loss.backward()
print(loss.item())
