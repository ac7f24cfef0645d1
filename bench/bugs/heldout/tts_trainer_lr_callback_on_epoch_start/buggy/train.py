import torch
import torch.nn.functional as F

from callbacks import LossLogger, LRSchedulerCallback
from model import DurationPredictor


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model, self.optimizer, self.callbacks = model, optimizer, list(callbacks)
        self.epoch, self.last_loss = 0, float("nan")

    def log(self, msg):
        print(msg)

    def _call(self, hook):
        for cb in self.callbacks:
            getattr(cb, hook)(self)

    def fit(self, batches, epochs):
        for self.epoch in range(epochs):
            self._call("on_epoch_start")
            self.model.train()
            for phonemes, log_dur in batches:
                loss = F.mse_loss(self.model(phonemes), log_dur)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.last_loss = loss.item()
            self._call("on_epoch_end")


def main():
    torch.manual_seed(0)
    batches = []
    for _ in range(4):
        ph = torch.randint(0, 40, (8, 20))
        batches.append((ph, torch.log1p((ph % 5).float())))
    model = DurationPredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    Trainer(model, optimizer, [LRSchedulerCallback(scheduler), LossLogger()]).fit(batches, epochs=4)


if __name__ == "__main__":
    main()
