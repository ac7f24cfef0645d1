import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        out = self.relu(out)
        return out


def make_res_layer(block, inplanes, planes, blocks, stride=1):
    downsample = None
    if stride != 1 or inplanes != planes * block.expansion:
        downsample = nn.Sequential(
            nn.Conv2d(inplanes, planes * block.expansion, 1, stride=stride, bias=False),
            nn.BatchNorm2d(planes * block.expansion),
        )
    layers = [block(inplanes, planes, stride, downsample)]
    inplanes = planes * block.expansion
    for _ in range(1, blocks):
        layers.append(block(inplanes, planes))
    return nn.Sequential(*layers)


class ResNet(nn.Module):
    arch_settings = {10: (BasicBlock, (1, 1, 1, 1)), 18: (BasicBlock, (2, 2, 2, 2))}

    def __init__(self, depth=10, num_classes=10, base=8):
        super().__init__()
        block, stage_blocks = self.arch_settings[depth]
        self.stem = nn.Sequential(nn.Conv2d(3, base, 3, padding=1, bias=False), nn.BatchNorm2d(base), nn.ReLU(inplace=True))
        self.res_layers = []
        inplanes = base
        for i, num_blocks in enumerate(stage_blocks):
            planes = base * 2 ** i
            res_layer = make_res_layer(block, inplanes, planes, num_blocks, stride=1 if i == 0 else 2)
            inplanes = planes * block.expansion
            layer_name = f"layer{i + 1}"
            self.add_module(layer_name, res_layer)
            self.res_layers.append(layer_name)
        self.fc = nn.Linear(inplanes, num_classes)

    def forward(self, x):
        x = self.stem(x)
        for layer_name in self.res_layers:
            x = getattr(self, layer_name)(x)
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ResNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(2):
        loss = F.cross_entropy(model(torch.rand(4, 3, 16, 16)), torch.randint(0, 10, (4,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
