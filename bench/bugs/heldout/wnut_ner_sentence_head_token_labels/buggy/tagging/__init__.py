from .data import WNUTDataset, collate
from .model import SentenceClassifier, TokenTagger

__all__ = ["WNUTDataset", "collate", "SentenceClassifier", "TokenTagger"]
