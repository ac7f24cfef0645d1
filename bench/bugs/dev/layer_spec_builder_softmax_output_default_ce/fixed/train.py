import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from tabnn import ClassificationNeuralNetwork, ForwardLayer


def load_table(n=96, n_features=5, n_classes=3):
    x = torch.randn(n, n_features)
    y = torch.bucketize(x[:, 0] + 0.5 * x[:, 1], torch.tensor([-0.5, 0.5]))
    return TensorDataset(x, y.clamp(max=n_classes - 1))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    loader = DataLoader(load_table(), batch_size=16, shuffle=True)
    net = ClassificationNeuralNetwork([ForwardLayer(16), ForwardLayer(3)], input_size=5).fit(loader, epochs=3)
    probs = net.predict_proba(torch.randn(4, 5))
    print(probs.argmax(1).tolist())
