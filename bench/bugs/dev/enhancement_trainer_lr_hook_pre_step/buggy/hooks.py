import logging

log = logging.getLogger(__name__)


class Hook:
    def pre_step(self, trainer):
        pass

    def post_step(self, trainer, loss):
        pass


class LossLoggerHook(Hook):
    def __init__(self, every=4):
        self.every = every

    def post_step(self, trainer, loss):
        if trainer.iteration % self.every == 0:
            log.info("iteration %d loss %.4f", trainer.iteration, loss)


class LRSchedulerHook(Hook):
    """Applies a learning rate scheduler once per epoch."""

    def __init__(self, lr_scheduler):
        self.lr_scheduler = lr_scheduler

    def pre_step(self, trainer):
        if trainer.iteration % trainer.iterations_per_epoch == 0:
            self.lr_scheduler.step()
            log.info("epoch %d lr %.2e", trainer.epoch, self.lr_scheduler.get_last_lr()[0])
