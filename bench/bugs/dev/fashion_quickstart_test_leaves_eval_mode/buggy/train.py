import argparse

import torch
from torch import nn

from data import get_dataloaders
from engine import test, train
from model import NeuralNetwork


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args([])

    torch.manual_seed(0)
    device = "cpu"
    print(f"Using {device} device")

    train_dataloader, test_dataloader = get_dataloaders(args.batch_size)
    model = NeuralNetwork().to(device)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

    model.train()
    for t in range(args.epochs):
        print(f"Epoch {t+1}\n-------------------------------")
        train(train_dataloader, model, loss_fn, optimizer, device)
        test(test_dataloader, model, loss_fn, device)
    print("Done!")

    torch.save(model.state_dict(), "model.pth")


if __name__ == "__main__":
    main()
