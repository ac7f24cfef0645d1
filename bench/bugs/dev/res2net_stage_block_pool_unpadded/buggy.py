import torch
from torch import nn


class Bottle2neck(nn.Module):
    expansion = 2

    def __init__(self, inplanes, planes, stride=1, downsample=None, base_width=26, scale=4, stype="normal"):
        super().__init__()
        width = planes * base_width // 64
        self.conv1 = nn.Conv2d(inplanes, width * scale, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width * scale)
        self.nums = scale - 1
        if stype == "stage":
            self.pool = nn.AvgPool2d(kernel_size=3, stride=stride)
        self.convs = nn.ModuleList(nn.Conv2d(width, width, 3, stride=stride, padding=1, bias=False) for _ in range(self.nums))
        self.bns = nn.ModuleList(nn.BatchNorm2d(width) for _ in range(self.nums))
        self.conv3 = nn.Conv2d(width * scale, planes * self.expansion, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stype = stype
        self.width = width

    def forward(self, x):
        residual = x
        out = self.relu(self.bn1(self.conv1(x)))
        spx = torch.split(out, self.width, 1)
        for i in range(self.nums):
            sp = spx[i] if i == 0 or self.stype == "stage" else sp + spx[i]
            sp = self.relu(self.bns[i](self.convs[i](sp)))
            out = sp if i == 0 else torch.cat((out, sp), 1)
        if self.stype == "stage":
            out = torch.cat((out, self.pool(spx[self.nums])), 1)
        else:
            out = torch.cat((out, spx[self.nums]), 1)
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            residual = self.downsample(x)
        return self.relu(out + residual)


def make_layer(inplanes, planes, blocks, stride):
    downsample = nn.Sequential(
        nn.Conv2d(inplanes, planes * Bottle2neck.expansion, 1, stride=stride, bias=False),
        nn.BatchNorm2d(planes * Bottle2neck.expansion),
    )
    layers = [Bottle2neck(inplanes, planes, stride, downsample, stype="stage")]
    for _ in range(1, blocks):
        layers.append(Bottle2neck(planes * Bottle2neck.expansion, planes))
    return nn.Sequential(*layers)


class Res2NetLite(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
        self.layer1 = make_layer(32, 32, 2, stride=1)
        self.layer2 = make_layer(64, 64, 2, stride=2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(128, num_classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(self.pool(x).flatten(1))


def main():
    torch.manual_seed(0)
    model = Res2NetLite()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for step in range(2):
        images, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
