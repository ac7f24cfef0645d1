from lite.module import LiteModule
from lite.trainer import LiteTrainer

__all__ = ["LiteModule", "LiteTrainer"]
