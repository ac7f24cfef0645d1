import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

from .utils import detach

logger = logging.getLogger(__name__)


class BaseModel(nn.Module):
    """Shared training and logging logic; subclasses define forward(x) -> {"prediction": ...}."""

    def __init__(self, learning_rate=1e-3, log_interval=-1):
        super().__init__()
        self.learning_rate = learning_rate
        self.log_interval = log_interval
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.global_step = 0

    def loss(self, prediction, target):
        return F.mse_loss(prediction, target)

    def step(self, x, y, batch_idx):
        out = self(x)
        prediction = out["prediction"]
        loss = self.loss(prediction, y)
        log = {"loss": loss, "n_samples": x["encoder_cont"].size(0), "prediction": prediction}
        if self.log_interval > 0 and batch_idx % self.log_interval == 0:
            logger.info("step %d loss %.4f", self.global_step, loss.item())
        return log, out

    def training_step(self, batch, batch_idx):
        x, y = batch
        log, out = self.step(x, y, batch_idx)
        self.training_step_outputs.append(detach(log))
        return log

    def on_train_epoch_end(self):
        outputs = self.training_step_outputs
        total = sum(o["loss"] * o["n_samples"] for o in outputs)
        count = sum(o["n_samples"] for o in outputs)
        epoch_loss = float(total / count)
        self.training_step_outputs.clear()
        return epoch_loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.learning_rate)
