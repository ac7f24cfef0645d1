import random

import torch
from torch.utils.data import DataLoader

from textreg.model import AdaptiveModel, BagOfWordsEncoder, RegressionHead
from textreg.processor import dataset_from_records

WORDS = "good bad plot acting music boring great awful long short fun dull".split()


def fake_reviews(n, seed):
    rnd = random.Random(seed)
    return [(" ".join(rnd.choices(WORDS, k=8)), rnd.randint(0, 16)) for _ in range(n)]


def main():
    torch.manual_seed(0)
    vocab = {}
    train_ds = dataset_from_records(fake_reviews(96, 1), vocab)
    dev_ds = dataset_from_records(fake_reviews(32, 2), vocab)
    model = AdaptiveModel(BagOfWordsEncoder(200), RegressionHead([32, 1]))
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    train_loader = DataLoader(train_ds, batch_size=16, shuffle=True)

    for epoch in range(3):
        model.train()
        for ids, labels in train_loader:
            logits = model(ids)
            loss = model.logits_to_loss(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            ids, labels = dev_ds.tensors
            dev_loss = model.logits_to_loss(model(ids), labels)
        print(f"epoch {epoch}: train {loss.item():.4f} dev {dev_loss.item():.4f}")


if __name__ == "__main__":
    main()
