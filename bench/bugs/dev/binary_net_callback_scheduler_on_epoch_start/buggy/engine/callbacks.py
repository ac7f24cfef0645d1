class Callback:
    def on_epoch_start(self, loop):
        pass

    def on_batch_end(self, loop, loss):
        pass

    def on_epoch_end(self, loop):
        pass


class LRSchedulerCallback(Callback):
    """Steps an epoch-wise scheduler and logs the learning rate it sets."""

    def __init__(self, scheduler):
        self.scheduler = scheduler

    def on_epoch_start(self, loop):
        self.scheduler.step()
        loop.log["lr"].append(self.scheduler.get_last_lr()[0])


class LossMeter(Callback):
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def on_epoch_start(self, loop):
        self.total, self.count = 0.0, 0

    def on_batch_end(self, loop, loss):
        self.total += loss
        self.count += 1

    def on_epoch_end(self, loop):
        loop.log["loss"].append(self.total / max(self.count, 1))
