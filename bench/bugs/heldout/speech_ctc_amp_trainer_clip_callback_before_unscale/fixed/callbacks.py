import logging

import torch

log = logging.getLogger("callbacks")


class Callback:
    def on_before_step(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class GradClip(Callback):
    def __init__(self, max_norm=1.0):
        self.max_norm = max_norm

    def on_before_step(self, trainer):
        norm = torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), self.max_norm)
        trainer.last_grad_norm = float(norm)


class EpochLogger(Callback):
    def on_epoch_end(self, trainer, epoch):
        log.info("epoch %d loss %.4f grad-norm %.2f", epoch, trainer.last_loss, trainer.last_grad_norm)
