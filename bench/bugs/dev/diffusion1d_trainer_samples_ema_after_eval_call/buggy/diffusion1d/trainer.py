import copy
import logging

import torch

from diffusion1d.gaussian import sample

log = logging.getLogger(__name__)


class EMA:
    def __init__(self, model, beta=0.995):
        self.beta = beta
        self.ema_model = copy.deepcopy(model).requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.ema_model.parameters(), model.parameters()):
            ema_p.mul_(self.beta).add_(p, alpha=1 - self.beta)


class Trainer1D:
    def __init__(self, model, diffusion, dataset, train_batch_size=8, train_lr=8e-5, train_num_steps=6,
                 save_and_sample_every=3, num_samples=4):
        self.model = model
        self.diffusion = diffusion
        self.dataset = dataset
        self.batch_size = train_batch_size
        self.train_num_steps = train_num_steps
        self.save_and_sample_every = save_and_sample_every
        self.num_samples = num_samples
        self.opt = torch.optim.Adam(model.parameters(), lr=train_lr, betas=(0.9, 0.99))
        self.ema = EMA(model)
        self.step = 0

    def next_batch(self):
        idx = torch.randint(0, len(self.dataset), (self.batch_size,))
        return self.dataset[idx]

    def train(self):
        self.model.train()
        while self.step < self.train_num_steps:
            loss = self.diffusion.p_losses(self.model, self.next_batch())
            self.opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            self.step += 1
            self.ema.update(self.model)

            if self.step % self.save_and_sample_every == 0:
                self.ema.ema_model.eval()
                samples = sample(self.ema.ema_model, self.diffusion, self.num_samples, self.dataset.shape[-1])
                log.info("step %d loss %.4f sample std %.3f", self.step, loss.item(), samples.std().item())
