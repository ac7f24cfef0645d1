import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from engine import Engine

EPOCHS = 2

if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(16, 20), torch.randint(0, 3, (16,))), batch_size=4)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, epochs=EPOCHS, steps_per_epoch=len(loader))
    engine = Engine(model, nn.CrossEntropyLoss(), optimizer, scheduler)
    for epoch in range(EPOCHS):
        print(epoch, engine.train_one_epoch(loader))
