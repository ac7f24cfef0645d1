from .losses import TripletLoss
from .model import EmbeddingNet

__all__ = ["TripletLoss", "EmbeddingNet"]
