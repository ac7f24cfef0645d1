import logging

import torch

from polyp.losses import dice_score, masked_bce
from polyp.net import TinyUNet

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model: TinyUNet, optimizer, border: int = 2):
        self.model = model
        self.optimizer = optimizer
        self.border = border
        self.skipped = 0

    def valid_region(self, mask):
        valid = torch.zeros_like(mask)
        b = self.border
        valid[..., b:-b, b:-b] = 1.0
        return valid

    def run_epoch(self, loader, epoch):
        self.model.train()
        for step, (images, masks) in enumerate(loader):
            logits = self.model(images)
            loss = masked_bce(logits, masks, self.valid_region(masks))
            if not torch.isfinite(loss):
                self.skipped += 1
                logger.warning("non-finite loss at step %d, skipping", step)
                continue
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if step % 4 == 0:
                logger.info("epoch %d step %d dice %.3f", epoch, step, dice_score(logits.detach(), masks).item())
