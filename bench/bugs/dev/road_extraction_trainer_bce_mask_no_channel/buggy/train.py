import torch
from torch.utils.data import DataLoader

from data import RoadTiles
from model import TinyLinkNet
from trainer import SegTrainer

if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(RoadTiles(), batch_size=4, shuffle=True)
    trainer = SegTrainer(TinyLinkNet(), loader)
    for epoch in range(2):
        trainer.train_one_epoch(epoch)
