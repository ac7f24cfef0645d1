from torch import nn


class ForwardLayer:
    """A fully connected layer spec; the torch module is built once the input size is known."""

    def __init__(self, output_size, activation="relu"):
        self.output_size = output_size
        self.activation = activation

    def get_internal_layer(self, input_size, is_output=False):
        modules = [nn.Linear(input_size, self.output_size)]
        if not is_output:
            modules.append(nn.ReLU() if self.activation == "relu" else nn.Tanh())
        return modules
