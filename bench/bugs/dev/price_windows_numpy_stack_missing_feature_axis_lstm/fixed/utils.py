import logging
import random

import numpy as np
import torch


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def get_logger(name: str) -> logging.Logger:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(name)s | %(message)s")
    return logging.getLogger(name)


class MinMaxScaler:
    def fit(self, x: np.ndarray) -> "MinMaxScaler":
        self.lo, self.hi = float(x.min()), float(x.max())
        return self

    def transform(self, x: np.ndarray) -> np.ndarray:
        return (x - self.lo) / (self.hi - self.lo + 1e-8)

    def inverse(self, x: np.ndarray) -> np.ndarray:
        return x * (self.hi - self.lo + 1e-8) + self.lo
