import logging
import time

log = logging.getLogger(__name__)


class HookBase:
    trainer = None

    def before_train(self):
        pass

    def before_step(self):
        pass

    def after_step(self):
        pass

    def after_train(self):
        pass


class LRScheduler(HookBase):
    """Advances the learning-rate schedule once per iteration and records the rate used."""

    def __init__(self, optimizer, scheduler):
        self._optimizer = optimizer
        self._scheduler = scheduler

    def before_step(self):
        self._scheduler.step()

    def after_step(self):
        self.trainer.storage["lr"] = self._optimizer.param_groups[0]["lr"]


class IterationTimer(HookBase):
    def before_step(self):
        self._start = time.perf_counter()

    def after_step(self):
        self.trainer.storage["time"] = time.perf_counter() - self._start


class PeriodicWriter(HookBase):
    def __init__(self, period=5):
        self.period = period

    def after_step(self):
        if (self.trainer.iter + 1) % self.period == 0:
            log.info("iter %d %s", self.trainer.iter, {k: round(v, 5) for k, v in self.trainer.storage.items()})
