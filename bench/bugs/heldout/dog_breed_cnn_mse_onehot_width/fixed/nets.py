import torch.nn as nn

CONV_PLAN = [(3, 16), (16, 32), (32, 64), (64, 128), (128, 128)]


def make_cnn(n_classes=133, image_size=64):
    layers = []
    for c_in, c_out in CONV_PLAN:
        layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
    side = image_size // 2 ** len(CONV_PLAN)
    layers += [nn.Flatten(), nn.Dropout(0.25), nn.Linear(128 * side * side, n_classes)]
    return nn.Sequential(*layers)
