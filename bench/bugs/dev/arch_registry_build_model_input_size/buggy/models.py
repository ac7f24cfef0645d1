from torch import nn

ARCHS = {
    "small": {"channels": (16, 32, 64), "input_size": 32},
    "wide": {"channels": (32, 64, 128), "input_size": 32},
}


def build_model(arch: str, num_classes: int = 10) -> nn.Sequential:
    spec = ARCHS[arch]
    layers, c_in = [], 3
    for c_out in spec["channels"]:
        layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
        c_in = c_out
    side = spec["input_size"] // 2 ** len(spec["channels"])
    layers += [nn.Flatten(), nn.Linear(c_in * side * side, num_classes)]
    return nn.Sequential(*layers)
