import torch
import torch.nn as nn


def conv_bn(inp, oup, stride):
    return nn.Sequential(
        nn.Conv2d(inp, oup, 3, stride, 1, bias=False),
        nn.BatchNorm2d(oup),
        nn.ReLU(inplace=True),
    )


def conv_dw(inp, oup, stride):
    return nn.Sequential(
        nn.Conv2d(inp, inp, 3, stride, 1, groups=inp, bias=False),
        nn.BatchNorm2d(inp),
        nn.ReLU(inplace=True),
        nn.Conv2d(inp, oup, 1, 1, 0, bias=False),
        nn.BatchNorm2d(oup),
        nn.ReLU(inplace=True),
    )


class MobileNetTiny(nn.Module):
    def __init__(self, num_classes=10):
        super(MobileNetTiny, self).__init__()
        self.features = nn.Sequential(
            conv_bn(3, 32, 2),
            conv_dw(32, 64, 1),
            conv_dw(128, 128, 2),
            conv_dw(128, 256, 2),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(256, num_classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(x.flatten(1))


if __name__ == "__main__":
    net = MobileNetTiny()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    images, labels = torch.randn(2, 3, 32, 32), torch.tensor([3, 7])
    for it in range(2):
        loss = nn.functional.cross_entropy(net(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(it, loss.item())
