class Callback:
    def on_epoch_start(self, trainer, epoch):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class LRSchedulerCallback(Callback):
    def __init__(self, scheduler):
        self.scheduler = scheduler

    def on_epoch_end(self, trainer, epoch):
        self.scheduler.step()
        trainer.log(f"lr {self.scheduler.get_last_lr()[0]:.2e}")


class LossLogger(Callback):
    def on_epoch_end(self, trainer, epoch):
        trainer.log(f"epoch {epoch} mean loss {sum(trainer.losses) / len(trainer.losses):.4f}")
