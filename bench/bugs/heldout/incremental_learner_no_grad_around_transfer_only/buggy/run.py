import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from learner import NormalNN


def task_loader(n, classes):
    x = torch.randn(n, 3, 16, 16)
    y = torch.tensor([classes[i % len(classes)] for i in range(n)])
    return DataLoader(TensorDataset(x, y, torch.zeros(n, dtype=torch.long)), batch_size=4)


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)
    )
    learner = NormalNN(backbone)
    for classes in ([0, 1], [2, 3]):
        learner.learn_batch(task_loader(8, classes))
        print(classes, learner.validation(task_loader(8, classes)))
