import torch.nn as nn

cfg = {"A": [16, "M", 32, "M", 64, "M"]}


class VGG(nn.Module):
    def __init__(self, features, num_classes=10):
        super().__init__()
        self.features = features
        self.classifier = nn.Sequential(nn.Linear(64 * 4 * 4, 128), nn.ReLU(True), nn.Dropout(),
                                        nn.Linear(128, 128), nn.ReLU(True), nn.Dropout(),
                                        nn.Linear(128, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def make_layers(config, batch_norm=False):
    layers, in_channels = [], 3
    for v in config:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)] if batch_norm else [conv2d, nn.ReLU(True)]
            in_channels = v
    return nn.Sequential(*layers)


def vgg16_bn(**kwargs):
    return VGG(make_layers(cfg["A"], batch_norm=True), **kwargs)
