import torch.nn as nn
import torch.nn.functional as F


class FamilyCNN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        layers, c_in = [], len(cfg["alphabet"])
        for c in cfg["channels"]:
            layers += [nn.Conv1d(c_in, c, cfg["kernel"], padding=cfg["kernel"] // 2), nn.ReLU(), nn.MaxPool1d(2)]
            c_in = c
        self.conv = nn.Sequential(*layers)
        self.fc = nn.Linear(c_in, cfg["n_families"])

    def forward(self, onehot):
        h = self.conv(onehot).amax(dim=-1)
        logits = self.fc(h)
        output = F.softmax(logits, dim=1)
        return output
