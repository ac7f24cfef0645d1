from typing import List, Sequence, Union

import torch
import torch.nn as nn

ACTIVATIONS = {
    "relu": nn.ReLU,
    "prelu": nn.PReLU,
    "tanh": nn.Tanh,
    "linear": nn.Identity,
}


class FeedForward(nn.Module):
    """A stack of Linear layers, each followed by an activation and dropout, all configurable per layer."""

    def __init__(self, input_dim: int, num_layers: int, hidden_dims: Union[int, Sequence[int]],
                 activations: Union[str, Sequence[str]], dropout: float = 0.0):
        super().__init__()
        if isinstance(hidden_dims, int):
            hidden_dims = [hidden_dims] * num_layers
        if isinstance(activations, str):
            activations = [activations] * num_layers
        input_dims = [input_dim] + list(hidden_dims[:-1])
        self._linear_layers = nn.ModuleList(nn.Linear(i, o) for i, o in zip(input_dims, hidden_dims))
        self._activations: List[nn.Module] = [ACTIVATIONS[name]() for name in activations]
        self._dropout = nn.ModuleList(nn.Dropout(dropout) for _ in hidden_dims)
        self._output_dim = hidden_dims[-1]

    def get_output_dim(self) -> int:
        return self._output_dim

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        output = inputs
        for layer, activation, dropout in zip(self._linear_layers, self._activations, self._dropout):
            output = dropout(activation(layer(output)))
        return output
