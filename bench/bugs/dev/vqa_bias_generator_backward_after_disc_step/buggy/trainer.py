import logging

import torch
import torch.nn.functional as F

log = logging.getLogger(__name__)


class GenBTrainer:
    def __init__(self, model, genb, discriminator, lr=1e-3, distill_weight=1.0):
        self.model, self.genb, self.discriminator = model, genb, discriminator
        self.optim = torch.optim.Adamax(model.parameters(), lr=lr)
        self.optim_g = torch.optim.Adam(genb.parameters(), lr=lr)
        self.optim_d = torch.optim.Adam(discriminator.parameters(), lr=lr)
        self.distill_weight = distill_weight

    def backward(self, gen_loss, dis_loss):
        self.optim_d.zero_grad()
        dis_loss.backward()
        self.optim_d.step()

        self.optim_g.zero_grad()
        gen_loss.backward()
        self.optim_g.step()

    def train_step(self, v, q, a):
        pred = self.model(v, q)
        pred_g = self.genb(q)

        real = self.discriminator(pred.detach())
        fake = self.discriminator(pred_g)
        ones, zeros = torch.ones_like(real), torch.zeros_like(real)
        dis_loss = F.binary_cross_entropy_with_logits(real, ones) + \
            F.binary_cross_entropy_with_logits(self.discriminator(pred_g.detach()), zeros)
        gen_loss = F.binary_cross_entropy_with_logits(fake, ones) + \
            self.distill_weight * F.binary_cross_entropy_with_logits(pred_g, a)
        self.backward(gen_loss, dis_loss)

        # debias the base model against the generator's (now fixed) biased answers
        self.optim.zero_grad()
        with torch.no_grad():
            bias = torch.sigmoid(self.genb(q))
        loss = F.binary_cross_entropy_with_logits(pred, a * (1 - bias).clamp(min=0.1))
        loss.backward()
        self.optim.step()
        return loss.item(), gen_loss.item(), dis_loss.item()
