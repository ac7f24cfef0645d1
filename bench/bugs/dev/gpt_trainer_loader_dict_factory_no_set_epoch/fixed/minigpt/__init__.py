from .config import TrainConfig
from .model import GPT
from .trainer import Trainer

__all__ = ["GPT", "TrainConfig", "Trainer"]
