import torch
import torch.nn as nn

from losses import ResampleLoss

NUM_CLASSES = 10


def long_tailed_batch(batch_size, generator):
    rates = torch.linspace(0.6, 0.02, NUM_CLASSES)
    features = torch.randn(batch_size, 32, generator=generator)
    labels = (torch.rand(batch_size, NUM_CLASSES, generator=generator) < rates).float()
    return features, labels


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, NUM_CLASSES))
    class_freq = [int(1000 * r) for r in torch.linspace(0.6, 0.02, NUM_CLASSES)]
    criterion = ResampleLoss(class_freq)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(3):
        features, labels = long_tailed_batch(64, g)
        loss = criterion(model(features), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
