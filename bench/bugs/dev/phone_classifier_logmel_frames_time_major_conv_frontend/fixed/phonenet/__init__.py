from .features import LogMel
from .dataset import UtteranceDataset
from .model import ConvFrontendClassifier

__all__ = ["LogMel", "UtteranceDataset", "ConvFrontendClassifier"]
