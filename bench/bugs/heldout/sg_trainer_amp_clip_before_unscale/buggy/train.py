import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import TinyUNet
from trainer import Trainer, TrainingParams


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    images = torch.randn(16, 3, 32, 32)
    masks = (images.mean(1) > 0).long() + (images.mean(1) > 0.5).long()
    loader = DataLoader(TensorDataset(images, masks), batch_size=4, shuffle=True)
    trainer = Trainer(TinyUNet(), nn.CrossEntropyLoss(), TrainingParams())
    trainer.train(loader)


if __name__ == "__main__":
    main()
