import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser(description="PyTorch Unsupervised Segmentation")
parser.add_argument("--nChannel", default=16, type=int, help="number of channels")
parser.add_argument("--maxIter", default=4, type=int, help="number of maximum iterations")
parser.add_argument("--minLabels", default=3, type=int, help="minimum number of labels")
parser.add_argument("--lr", default=0.1, type=float, help="learning rate")
parser.add_argument("--nConv", default=3, type=int, help="number of convolutional layers")
args = parser.parse_args([])


class MyNet(nn.Module):
    def __init__(self, input_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(input_dim, args.nChannel, kernel_size=3, stride=1, padding=1)
        self.bn1 = nn.BatchNorm2d(args.nChannel)
        self.conv2 = nn.ModuleList()
        self.bn2 = nn.ModuleList()
        for i in range(args.nConv - 1):
            self.conv2.append(nn.Conv2d(args.nChannel, args.nChannel, kernel_size=3, stride=1, padding=1))
            self.bn2.append(nn.BatchNorm2d(args.nChannel))
        self.conv3 = nn.Conv2d(args.nChannel, args.nChannel, kernel_size=1, stride=1, padding=0)
        self.bn3 = nn.BatchNorm2d(args.nChannel)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.bn1(x)
        for i in range(args.nConv - 1):
            x = self.conv2[i](x)
            x = F.relu(x)
            x = self.bn2[i](x)
        x = self.conv3(x)
        return self.bn3(x)


def main():
    im = torch.rand(1, 3, 24, 24)
    model = MyNet(im.size(1))
    model.train()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for batch_idx in range(args.maxIter):
        optimizer.zero_grad()
        output = model(im)[0]
        output = output.permute(1, 2, 0).contiguous().view(-1, args.nChannel)
        _, target = torch.max(output, 1)
        n_labels = len(torch.unique(target))
        loss = loss_fn(output, target)
        loss.backward()
        optimizer.step()
        print(batch_idx, "/", args.maxIter, "|", " label num :", n_labels, " | loss :", loss.item())
        if n_labels <= args.minLabels:
            break


if __name__ == "__main__":
    main()
