import logging

import torch
import torch.nn.functional as F

from vae import FrameVAE

log = logging.getLogger(__name__)


class VAETrainer:
    def __init__(self, model: FrameVAE, lr, kl_weight, accumulate_grad_batches):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.5, 0.9))
        self.kl_weight = kl_weight
        self.accumulate_grad_batches = accumulate_grad_batches
        self.global_step = 0

    def on_train_batch_start(self, batch_idx):
        self.optimizer.zero_grad(set_to_none=True)

    def training_step(self, frames, batch_idx):
        recon, posterior = self.model(frames)
        rec_loss = F.l1_loss(recon, frames, reduction="none").sum(dim=(1, 2, 3)).mean()
        kl_loss = posterior.kl().mean()
        loss = rec_loss + self.kl_weight * kl_loss
        (loss / self.accumulate_grad_batches).backward()
        if (batch_idx + 1) % self.accumulate_grad_batches == 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            self.global_step += 1
        return {"rec": rec_loss.item(), "kl": kl_loss.item()}

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for batch_idx, (frames,) in enumerate(loader):
                self.on_train_batch_start(batch_idx)
                logs = self.training_step(frames, batch_idx)
            log.info("epoch %d step %d rec %.3f kl %.3f", epoch, self.global_step, logs["rec"], logs["kl"])
