import torch
from torch.utils.data import DataLoader

from dataset import decode


def predict(cnn, dataset, batch_size=16):
    loader = DataLoader(dataset, batch_size=batch_size)
    cnn.eval()
    texts = []
    with torch.no_grad():
        for images, _ in loader:
            outputs = cnn(images)
            texts.extend(decode(row) for row in outputs)
    cnn.train()
    return texts


def accuracy(cnn, dataset):
    predicted = predict(cnn, dataset)
    truth = [decode(label) for _, label in dataset]
    return sum(p == t for p, t in zip(predicted, truth)) / len(truth)
