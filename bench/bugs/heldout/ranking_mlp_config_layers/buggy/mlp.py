from dataclasses import dataclass, field
from typing import List, Optional

import torch


@dataclass
class MlpConfig:
    in_features: int = 16
    layer_sizes: List[int] = field(default_factory=lambda: [32, 16, 1])
    batch_norm: bool = True
    dropout: Optional[float] = 0.1
    final_layer_activation: bool = False


def _init_weights(module):
    if isinstance(module, torch.nn.Linear):
        torch.nn.init.xavier_uniform_(module.weight)
        torch.nn.init.constant_(module.bias, 0)


class Mlp(torch.nn.Module):
    def __init__(self, in_features: int, mlp_config: MlpConfig):
        super().__init__()
        self._mlp_config = mlp_config
        input_size = in_features
        layer_sizes = mlp_config.layer_sizes
        modules = []
        for layer_size in layer_sizes[:-1]:
            modules.append(torch.nn.Linear(input_size, layer_size, bias=True))
            if mlp_config.batch_norm:
                modules.append(torch.nn.BatchNorm1d(layer_size))
            modules.append(torch.nn.ReLU())
            if mlp_config.dropout:
                modules.append(torch.nn.Dropout(mlp_config.dropout))
            input_size = layer_size
        modules.append(torch.nn.Linear(input_size, layer_sizes[-1], bias=True))
        if mlp_config.final_layer_activation:
            modules.append(torch.nn.ReLU())
        self.layers = modules
        for layer in self.layers:
            _init_weights(layer)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)
        return x
