import logging

log = logging.getLogger(__name__)


class Callback:
    def on_train_start(self, trainer):
        pass

    def on_train_batch_end(self, trainer):
        pass

    def on_epoch_end(self, trainer):
        pass


class SchedulerCallback(Callback):
    """Steps a per-iteration schedule (OneCycle, warm-up cosine) after every optimizer update."""

    def __init__(self, scheduler):
        self.scheduler = scheduler

    def on_train_batch_end(self, trainer):
        self.scheduler.step()


class LRMonitor(Callback):
    def on_epoch_end(self, trainer):
        lrs = [group["lr"] for group in trainer.optimizer.param_groups]
        log.info("epoch %d lr %s", trainer.epoch, lrs)


CALLBACKS = {"scheduler": SchedulerCallback, "lr_monitor": LRMonitor}
