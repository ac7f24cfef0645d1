import torch


class Trainer:
    def __init__(self, model, optimizer, loss_fn, hooks=()):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.hooks = list(hooks)
        self.iteration = 0
        self.epoch = 0
        self.iterations_per_epoch = 1

    def step(self, noisy, clean):
        mask = self.model(noisy)
        loss = self.loss_fn(mask * noisy, clean)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
        self.optimizer.step()
        return loss.item()

    def train(self, loader, epochs):
        self.iterations_per_epoch = len(loader)
        self.model.train()
        for self.epoch in range(epochs):
            for noisy, clean in loader:
                for hook in self.hooks:
                    hook.pre_step(self)
                loss = self.step(noisy, clean)
                for hook in self.hooks:
                    hook.post_step(self, loss)
                self.iteration += 1
