import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import ModelConfig
from data import RavdessMFCC
from model import ConvEmotionNet

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("emotion")


def train_model(model, loader, optimizer, epochs=2):
    for epoch in range(epochs):
        model.train()
        for x_train, y_train in loader:
            output = model(x_train)
            loss = F.cross_entropy(output, y_train)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        log.info("epoch %d loss %.4f", epoch, loss.item())


def main():
    torch.manual_seed(0)
    cfg = ModelConfig()
    dataset = RavdessMFCC(n_mfcc=cfg.n_mfcc)
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    net = ConvEmotionNet(cfg)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.8)
    train_model(net, loader, optimizer)


if __name__ == "__main__":
    main()
