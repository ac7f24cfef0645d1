import argparse
from datetime import datetime

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(1, 8, 5, padding=2), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2))
        self.layer2 = nn.Sequential(nn.Conv2d(8, 16, 5, padding=2), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(4 * 4 * 16, num_classes)

    def forward(self, x):
        out = self.layer2(self.layer1(x))
        return self.fc(out.reshape(out.size(0), -1))


def train(gpu, args):
    rank = args.nr * args.gpus + gpu
    torch.manual_seed(0)
    model = ConvNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), 1e-2)
    train_dataset = TensorDataset(torch.rand(32, 1, 16, 16), torch.randint(0, 10, (32,)))
    train_sampler = DistributedSampler(train_dataset, num_replicas=args.world_size, rank=rank)
    train_loader = DataLoader(dataset=train_dataset, batch_size=args.batch_size, shuffle=False, sampler=train_sampler)
    start = datetime.now()
    for epoch in range(args.epochs):
        for i, (images, labels) in enumerate(train_loader):
            outputs = model(images)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if gpu == 0:
            print(f"Epoch [{epoch + 1}/{args.epochs}], Loss: {loss.item():.4f}")
    if gpu == 0:
        print("Training complete in: " + str(datetime.now() - start))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", "--nodes", default=1, type=int)
    parser.add_argument("-g", "--gpus", default=2, type=int)
    parser.add_argument("-nr", "--nr", default=0, type=int)
    parser.add_argument("--epochs", default=3, type=int)
    parser.add_argument("--batch-size", default=4, type=int)
    args = parser.parse_args([])
    args.world_size = args.gpus * args.nodes
    train(0, args)


if __name__ == "__main__":
    main()
