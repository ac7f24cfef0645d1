import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import ReActLikeNet

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")


def train(epoch, train_loader, model, criterion, optimizer, scheduler):
    model.train()
    for param_group in optimizer.param_groups:
        cur_lr = param_group["lr"]
    logging.info("epoch %d learning_rate %.6f", epoch, cur_lr)
    for i, (images, target) in enumerate(train_loader):
        logits = model(images)
        loss = criterion(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    images, labels = torch.randn(32, 3, 16, 16), torch.randint(0, 10, (32,))
    train_loader = DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)
    model = ReActLikeNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    epochs = 3
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / epochs, last_epoch=-1)
    for epoch in range(epochs):
        train_loss = train(epoch, train_loader, model, criterion, optimizer, scheduler)
        logging.info("epoch %d loss %.4f", epoch, train_loss)


if __name__ == "__main__":
    main()
