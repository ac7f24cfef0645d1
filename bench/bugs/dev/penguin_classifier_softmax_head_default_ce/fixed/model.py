import torch.nn as nn

FEATURES = ["culmen_length", "culmen_depth", "flipper_length", "body_mass"]
SPECIES = ["Adelie", "Gentoo", "Chinstrap"]


class PenguinNet(nn.Module):
    def __init__(self, hl=10):
        super().__init__()
        self.fc = nn.Sequential(
            nn.Linear(len(FEATURES), hl),
            nn.ReLU(),
            nn.Linear(hl, hl),
            nn.ReLU(),
            nn.Linear(hl, len(SPECIES)),
        )

    def forward(self, x):
        return self.fc(x)
