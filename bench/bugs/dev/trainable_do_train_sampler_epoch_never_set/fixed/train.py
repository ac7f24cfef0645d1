import torch
import torch.nn as nn
from torch.utils.data import TensorDataset

from trainable import Trainable


class LinearTaglet(Trainable):
    def __init__(self, in_features, num_classes, **kwargs):
        model = nn.Sequential(nn.Linear(in_features, 32), nn.ReLU(), nn.Linear(32, num_classes))
        super().__init__(model, **kwargs)

    def train(self, train_data, rank=0):
        self._do_train(rank, train_data)


if __name__ == "__main__":
    torch.manual_seed(0)
    features, labels = torch.randn(64, 10), torch.randint(0, 4, (64,))
    LinearTaglet(10, 4, num_epochs=3).train(TensorDataset(features, labels))
