from collections import defaultdict

import torch.nn.functional as F


class TrainLoop:
    def __init__(self, model, optimizer, loader, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.callbacks = list(callbacks)
        self.log = defaultdict(list)

    def _emit(self, event, *args):
        for cb in self.callbacks:
            getattr(cb, event)(self, *args)

    def fit(self, epochs):
        for epoch in range(epochs):
            self._emit("on_epoch_start")
            self.model.train()
            for images, target in self.loader:
                logits = self.model(images)
                loss = F.cross_entropy(logits, target, label_smoothing=0.1)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self._emit("on_batch_end", loss.item())
            self._emit("on_epoch_end")
            print(f"epoch {epoch}: loss {self.log['loss'][-1]:.4f} lr {self.log['lr'][-1]:.5f}")
