import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from nets import Decoder, Encoder
from trainer import AETrainer


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(5)
    signals = torch.randn(96, 64)
    loader = DataLoader(TensorDataset(signals), batch_size=16, shuffle=True)
    trainer = AETrainer(Encoder(), Decoder())
    trainer.fit(loader, epochs=2)


if __name__ == "__main__":
    main()
