import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

from ptutils import BaseComponent, ModelTrainer


class CodeTokenClassifier(BaseComponent):
    def __init__(self, vocab=80, dim=16, n_labels=3):
        super().__init__("token-classifier")
        self.embedding = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, n_labels)

    def compute_loss(self, tokens, labels):
        h, _ = self.encoder(self.embedding(tokens))
        return F.cross_entropy(self.out(h).flatten(0, 1), labels.flatten())


def minibatches(n, seed):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randint(0, 80, (4, 9), generator=g), torch.randint(0, 3, (4, 9), generator=g)) for _ in range(n)]


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    trainer = ModelTrainer(CodeTokenClassifier())
    trainer.train(minibatches(3, 0), minibatches(2, 1))
