class Callback:
    def on_epoch_start(self, trainer):
        pass

    def on_epoch_end(self, trainer):
        pass


class LRSchedulerCallback(Callback):
    def __init__(self, scheduler):
        self.scheduler = scheduler

    def on_epoch_end(self, trainer):
        self.scheduler.step()
        trainer.log(f"lr {self.scheduler.get_last_lr()[0]:.2e}")


class LossLogger(Callback):
    def on_epoch_end(self, trainer):
        trainer.log(f"epoch {trainer.epoch} loss {trainer.last_loss:.4f}")
