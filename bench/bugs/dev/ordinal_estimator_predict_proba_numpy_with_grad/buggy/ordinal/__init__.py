from .estimator import PytorchEstimator
from .models import OrdinalMLP

__all__ = ["PytorchEstimator", "OrdinalMLP"]
