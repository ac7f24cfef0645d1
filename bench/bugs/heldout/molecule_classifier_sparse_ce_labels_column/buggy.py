"""BACE-style single-task molecule classification from fingerprints, with a loss wrapper in the style of a
chemistry toolkit: datasets store labels as (n_samples, n_tasks)."""
import numpy as np
import torch
import torch.nn as nn


class SparseSoftmaxCrossEntropy:
    """Cross entropy between (batch, n_classes) logits and integer class labels."""

    def _create_pytorch_loss(self):
        ce_loss = nn.CrossEntropyLoss(reduction="none")

        def loss(output, labels):
            return ce_loss(output, labels.long())

        return loss


class NumpyDataset:
    def __init__(self, X, y, w=None):
        self.X = X
        self.y = y.reshape(len(y), -1)
        self.w = np.ones_like(self.y, dtype=np.float32) if w is None else w

    def iterbatches(self, batch_size, seed):
        order = np.random.default_rng(seed).permutation(len(self.X))
        for i in range(0, len(order), batch_size):
            idx = order[i:i + batch_size]
            yield self.X[idx], self.y[idx], self.w[idx]


class FingerprintClassifier(nn.Module):
    def __init__(self, n_features=64, n_classes=2, layer_sizes=(32,), dropout=0.1):
        super().__init__()
        layers, d = [], n_features
        for size in layer_sizes:
            layers += [nn.Linear(d, size), nn.ReLU(), nn.Dropout(dropout)]
            d = size
        self.body = nn.Sequential(*layers)
        self.out = nn.Linear(d, n_classes)

    def forward(self, x):
        return self.out(self.body(x))


def fit(model, dataset, loss_fn, epochs=2, batch_size=16):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for X_b, y_b, w_b in dataset.iterbatches(batch_size, seed=epoch):
            inputs = torch.from_numpy(X_b)
            labels = torch.from_numpy(y_b)
            weights = torch.from_numpy(w_b)
            outputs = model(inputs)
            batch_loss = (loss_fn(outputs, labels) * weights.squeeze(-1)).mean()
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {batch_loss.item():.4f}")


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    X = (rng.random((64, 64)) < 0.1).astype(np.float32)
    y = (X[:, :8].sum(1) > 0.8).astype(np.int64)
    dataset = NumpyDataset(X, y)
    fit(FingerprintClassifier(), dataset, SparseSoftmaxCrossEntropy()._create_pytorch_loss())


if __name__ == "__main__":
    main()
