import torch

from engine import Engine
from model import FlowerClassifier


def fake_flowers(n, size=32, n_classes=5):
    return torch.rand(n, 3, size, size), torch.randint(0, n_classes, (n,))


def main():
    torch.manual_seed(0)
    model = FlowerClassifier()
    engine = Engine(model)
    batches = [fake_flowers(8) for _ in range(4)]
    engine.fit(batches, fake_flowers(8), epochs=2)


if __name__ == "__main__":
    main()
