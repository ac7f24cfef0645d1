import torch
import torch.nn.functional as F


class GradientDescentTrainer:
    def __init__(self, model, optimizer, loader, callbacks=(), use_amp=False):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.callbacks = list(callbacks)
        self.use_amp = use_amp
        self.scaler = torch.amp.GradScaler("cpu", enabled=use_amp)
        self.batch_num = 0
        self.last_grad_norm = torch.tensor(0.0)

    def _loss(self, tokens, tags):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.use_amp):
            logits = self.model(tokens)
        mask = tokens != 0
        return F.cross_entropy(logits[mask].float(), tags[mask])

    def _train_batch(self, tokens, tags):
        self.optimizer.zero_grad()
        loss = self._loss(tokens, tags)
        self.scaler.scale(loss).backward()
        for callback in self.callbacks:
            callback.on_backward(self)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()

    def train(self, epochs):
        for callback in self.callbacks:
            callback.on_start(self)
        self.model.train()
        for _ in range(epochs):
            for tokens, tags in self.loader:
                self.batch_num += 1
                metrics = {"loss": round(self._train_batch(tokens, tags), 4)}
                for callback in self.callbacks:
                    callback.on_batch_end(self, metrics)
