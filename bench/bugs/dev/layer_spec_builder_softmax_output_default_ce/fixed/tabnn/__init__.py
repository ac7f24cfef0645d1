from tabnn.layers import ForwardLayer
from tabnn.network import ClassificationNeuralNetwork

__all__ = ["ForwardLayer", "ClassificationNeuralNetwork"]
