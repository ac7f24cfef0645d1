import copy

import torch


class EMA(torch.nn.Module):
    """Exponential moving average of a model's weights, kept in a frozen copy."""

    def __init__(self, model, beta=0.995, update_after_step=0, update_every=1):
        super().__init__()
        self.beta = beta
        self.update_after_step = update_after_step
        self.update_every = update_every
        self.online_model = [model]  # kept out of this module's parameters on purpose
        self.ema_model = copy.deepcopy(model)
        self.ema_model.requires_grad_(False)
        self.register_buffer("step", torch.tensor(0))

    @torch.no_grad()
    def update(self):
        step = int(self.step)
        self.step += 1
        if step < self.update_after_step or step % self.update_every:
            return
        online = self.online_model[0]
        for ema_p, p in zip(self.ema_model.parameters(), online.parameters()):
            ema_p.lerp_(p, 1.0 - self.beta)
        for ema_b, b in zip(self.ema_model.buffers(), online.buffers()):
            ema_b.copy_(b)

    @torch.no_grad()
    def forward_eval(self, *args, **kwargs):
        training = self.ema_model.training
        self.ema_model.eval()
        out = self.ema_model(*args, **kwargs)
        self.ema_model.train(training)
        return out

    def __call__(self, *args, **kwargs):
        return self.ema_model(*args, **kwargs)
