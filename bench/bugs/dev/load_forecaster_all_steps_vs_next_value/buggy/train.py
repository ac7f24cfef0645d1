import torch
from torch.utils.data import DataLoader, Subset

from data import WindowDataset, synthetic_load
from model import LSTMForecaster
from trainer import Trainer

INPUT_WINDOW = 24
BATCH_SIZE = 32
EPOCHS = 2


def main():
    torch.manual_seed(0)
    ds = WindowDataset(synthetic_load(), INPUT_WINDOW)
    split = int(0.8 * len(ds))
    train_loader = DataLoader(Subset(ds, range(split)), batch_size=BATCH_SIZE, shuffle=True)
    val_loader = DataLoader(Subset(ds, range(split, len(ds))), batch_size=BATCH_SIZE)
    trainer = Trainer(LSTMForecaster())
    for epoch in range(1, EPOCHS + 1):
        trainer.train_epoch(train_loader, epoch)
        print(f"valid mse {trainer.evaluate(val_loader):.5f}")


if __name__ == "__main__":
    main()
