from .model import HousePriceMLP
from .trainer import PyTorchTrainer

__all__ = ["HousePriceMLP", "PyTorchTrainer"]
