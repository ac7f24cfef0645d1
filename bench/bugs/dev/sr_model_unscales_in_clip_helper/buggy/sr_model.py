import logging

import torch
import torch.nn.functional as F

from archs import CompactSR

logger = logging.getLogger(__name__)


class SRModel:
    def __init__(self, opt):
        self.opt = opt
        self.net_g = CompactSR(scale=opt["scale"])
        self.optimizer_g = torch.optim.AdamW(self.net_g.parameters(), lr=opt["lr"], betas=(0.9, 0.99))
        self.amp = opt.get("use_amp", True)
        self.scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 11, enabled=self.amp)
        self.grad_clip = opt.get("grad_clip", True)

    def _unscale_and_clip(self, max_norm):
        self.scaler.unscale_(self.optimizer_g)
        return torch.nn.utils.clip_grad_norm_(self.net_g.parameters(), max_norm)

    def optimize_parameters(self, lq, gt, current_iter):
        self.optimizer_g.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.amp):
            output = self.net_g(lq)
        l_g_pix = F.l1_loss(output.float(), gt)
        self.scaler.scale(l_g_pix).backward()
        if self.grad_clip:
            norm = self._unscale_and_clip(max_norm=0.5)
            if current_iter % 4 == 0:
                logger.info("iter %d grad norm %.4f", current_iter, float(norm))
        self.scaler.step(self.optimizer_g)
        self.scaler.update()
        return l_g_pix.item()
