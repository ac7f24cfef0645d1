import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

input_channels = 3
num_classes = 10


class CifarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential()
        self.layer1.add_module("Conv1", nn.Conv2d(in_channels=input_channels, out_channels=16, kernel_size=3, padding=1))
        self.layer1.add_module("Relu1", nn.ReLU(inplace=False))
        self.layer1.add_module("Pool1", nn.MaxPool2d(kernel_size=2, stride=2))
        self.layer2 = nn.Sequential()
        self.layer2.add_module("Conv2", nn.Conv2d(in_channels=16, out_channels=32, kernel_size=3, padding=1))
        self.layer2.add_module("Relu2", nn.ReLU(inplace=False))
        self.layer2.add_module("Pool2", nn.MaxPool2d(kernel_size=2, stride=2))
        self.fully_connected = nn.Linear(32 * 16 * 16, num_classes)

    def forward(self, x):
        x = self.layer1(x)
        x = self.layer2(x)
        x = x.view(-1, 32 * 16 * 16)
        return self.fully_connected(x)


def main():
    torch.manual_seed(0)
    images = torch.randn(64, input_channels, 32, 32)
    labels = torch.randint(0, num_classes, (64,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
    net = CifarNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(2):
        running_loss = 0.0
        for i, (inputs, targets) in enumerate(loader):
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, targets)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print("[%d] loss: %.3f" % (epoch + 1, running_loss / len(loader)))


if __name__ == "__main__":
    main()
