import torch
import torch.nn as nn


class ChurnMLP(nn.Module):
    def __init__(self, cfg: dict) -> None:
        super().__init__()
        self.blocks = nn.ModuleList()
        width = cfg["in_features"]
        for spec in cfg["layers"]:
            self.blocks.append(nn.Sequential(
                nn.Linear(width, spec["units"]),
                nn.BatchNorm1d(spec["units"]),
                nn.ReLU(),
                nn.Dropout(spec["dropout"]),
            ))
            width = spec["units"]
        self.out = nn.Linear(width, cfg["out_features"])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return self.out(x)
