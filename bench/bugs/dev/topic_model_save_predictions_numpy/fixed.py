import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class BagOfWords(Dataset):
    def __init__(self, n_docs=32, vocab=30, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.counts = torch.poisson(torch.rand(n_docs, vocab, generator=g) * 3)

    def __len__(self):
        return self.counts.shape[0]

    def __getitem__(self, i):
        return self.counts[i]


class NeuralTopicModel(nn.Module):
    def __init__(self, vocab=30, topics=5, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(vocab, hidden), nn.Softplus(), nn.Linear(hidden, topics))
        self.topic_word = nn.Linear(topics, vocab, bias=False)

    def forward(self, bow):
        theta = F.softmax(self.encoder(bow), dim=-1)
        return theta, F.log_softmax(self.topic_word(theta), dim=-1)


def train(model, loader, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for _ in range(epochs):
        for bow in loader:
            _, log_word = model(bow)
            loss = -(bow * log_word).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


def save_doc_topics(model, loader, out_dir):
    rows = []
    for bow in loader:
        theta, _ = model(bow)
        rows.append(theta.detach().numpy())
    np.save(os.path.join(out_dir, "doc_topics.npy"), np.concatenate(rows))
    return len(rows)


if __name__ == "__main__":
    loader = DataLoader(BagOfWords(), batch_size=8)
    model = NeuralTopicModel()
    train(model, loader)
    os.makedirs("results", exist_ok=True)
    print("saved", save_doc_topics(model, loader, "results"), "batches")
