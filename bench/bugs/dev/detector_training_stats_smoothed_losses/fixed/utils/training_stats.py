import logging
from collections import defaultdict, deque

import numpy as np

logger = logging.getLogger(__name__)


class SmoothedValue:
    def __init__(self, window_size=20):
        self.deque = deque(maxlen=window_size)
        self.series = []
        self.total = 0.0
        self.count = 0

    def add_value(self, value):
        value = float(value)
        self.deque.append(value)
        self.series.append(value)
        self.count += 1
        self.total += value

    def get_median_value(self):
        return float(np.median([float(v) for v in self.deque]))


class TrainingStats:
    """Tracks the losses of the training loop and logs smoothed values."""

    def __init__(self, log_period=4, window=20):
        self.log_period = log_period
        self.smoothed_losses = defaultdict(lambda: SmoothedValue(window))
        self.smoothed_total_loss = SmoothedValue(window)

    def update_stats(self, losses, total_loss):
        for k, v in losses.items():
            self.smoothed_losses[k].add_value(v)
        self.smoothed_total_loss.add_value(total_loss)

    def log_stats(self, step):
        if step % self.log_period == 0:
            parts = ", ".join(f"{k} {v.get_median_value():.4f}" for k, v in self.smoothed_losses.items())
            logger.info("step %d total %.4f | %s", step, self.smoothed_total_loss.get_median_value(), parts)
