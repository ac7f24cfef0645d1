import logging

import torch

logger = logging.getLogger(__name__)


class FinetuneOptimizer:
    """Owns the optimizer, the AMP scaler and the gradient clipping of a fine-tuning run."""

    def __init__(self, model, cfg):
        self.cfg = cfg
        self.params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(self.params, lr=cfg.lr, weight_decay=1e-2)
        self.scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 16, enabled=cfg.amp)
        logger.info("optimizer over %d tensors, clip %.2f", len(self.params), cfg.clip_grad_norm)

    def step(self, loss, step, global_step):
        self.scaler.scale(loss).backward()

        if self.cfg.clip_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(parameters=self.params, max_norm=self.cfg.clip_grad_norm)

        if ((global_step + 1) % self.cfg.grad_accum == 0) or (step == self.cfg.max_epochs - 1):
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad(set_to_none=True)
