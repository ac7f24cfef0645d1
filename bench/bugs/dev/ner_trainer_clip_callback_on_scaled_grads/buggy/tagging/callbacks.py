import logging

import torch

log = logging.getLogger(__name__)


class TrainerCallback:
    def on_start(self, trainer):
        pass

    def on_backward(self, trainer):
        pass

    def on_batch_end(self, trainer, metrics):
        pass


class GradientNormClipping(TrainerCallback):
    def __init__(self, max_norm):
        self.max_norm = max_norm

    def on_backward(self, trainer):
        trainer.last_grad_norm = torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)


class ConsoleLogger(TrainerCallback):
    def __init__(self, every=2):
        self.every = every

    def on_batch_end(self, trainer, metrics):
        if trainer.batch_num % self.every == 0:
            log.info("batch %d %s grad_norm %.3f", trainer.batch_num, metrics, float(trainer.last_grad_norm))
