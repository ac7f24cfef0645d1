import torch.nn as nn

ACTIVATIONS = {"relu": nn.ReLU, "silu": nn.SiLU, "gelu": nn.GELU}


def build_model(cfg):
    layers = []
    width = cfg["n_atoms_features"]
    for h in cfg["hidden"]:
        layers += [nn.Linear(width, h), ACTIVATIONS[cfg["activation"]]()]
        if cfg["dropout"]:
            layers.append(nn.Dropout(cfg["dropout"]))
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)
