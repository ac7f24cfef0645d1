import logging
from collections import OrderedDict

from ltr.stats import AverageMeter

log = logging.getLogger(__name__)


class LTRTrainer:
    def __init__(self, actor, loader, optimizer, print_interval=4):
        self.actor = actor
        self.loader = loader
        self.optimizer = optimizer
        self.print_interval = print_interval
        self.stats = OrderedDict()
        self.epoch = 0

    def _update_stats(self, new_stats, batch_size):
        for name, val in new_stats.items():
            if name not in self.stats:
                self.stats[name] = AverageMeter()
            self.stats[name].update(val, batch_size)

    def _print_stats(self, i):
        if i % self.print_interval == 0:
            line = ", ".join(f"{name}: {meter.avg:.4f}" for name, meter in self.stats.items())
            log.info("[train: %d, %d / %d] %s", self.epoch, i, len(self.loader), line)

    def cycle_dataset(self):
        self.actor.train(True)
        for meter in self.stats.values():
            meter.new_epoch()
        for i, data in enumerate(self.loader, 1):
            loss, stats = self.actor(data)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._update_stats(stats, data["search"].shape[0])
            self._print_stats(i)

    def train(self, max_epochs):
        for self.epoch in range(1, max_epochs + 1):
            self.cycle_dataset()
