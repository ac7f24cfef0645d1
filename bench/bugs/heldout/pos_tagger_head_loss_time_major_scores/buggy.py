"""Part-of-speech tagger: BiGRU encoder with a tagging head that owns its loss."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

TAGS = ["PAD", "NOUN", "VERB", "ADJ", "DET", "ADP", "PRON", "PUNCT"]
PAD = 0


class TaggingHead(nn.Module):
    def __init__(self, in_dim: int, n_tags: int, dropout: float = 0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.proj = nn.Linear(in_dim, n_tags)

    def forward(self, states):
        return self.proj(self.drop(states))

    def loss(self, scores, tags):
        return F.cross_entropy(scores, tags, ignore_index=PAD)


class BiGRUTagger(nn.Module):
    def __init__(self, vocab_size: int, n_tags: int, emb_dim: int = 64, hidden: int = 96):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=PAD)
        self.encoder = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.head = TaggingHead(2 * hidden, n_tags)

    def forward(self, tokens):
        states, _ = self.encoder(self.embed(tokens))
        return self.head(states)


def synthetic_corpus(n_sentences: int, vocab_size: int):
    rng = random.Random(0)
    corpus = []
    for _ in range(n_sentences):
        length = rng.randint(10, 16)
        words = [rng.randrange(1, vocab_size) for _ in range(length)]
        tags = [1 + (w % (len(TAGS) - 1)) for w in words]
        corpus.append((torch.tensor(words), torch.tensor(tags)))
    return corpus


def collate(batch):
    words, tags = zip(*batch)
    return pad_sequence(words, batch_first=True, padding_value=PAD), pad_sequence(tags, batch_first=True,
                                                                                 padding_value=PAD)


def train(model: BiGRUTagger, loader: DataLoader, epochs: int = 2):
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        model.train()
        for tokens, tags in loader:
            scores = model(tokens)
            loss = model.head.loss(scores, tags)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    vocab = 500
    loader = DataLoader(synthetic_corpus(64, vocab), batch_size=16, shuffle=True, collate_fn=collate)
    train(BiGRUTagger(vocab, len(TAGS)), loader)
