import torch
import torch.nn as nn
import torch.nn.functional as F

from models.networks import FramePredictor, SeqDiscriminator


class VidModel(nn.Module):
    def __init__(self, lambda_adv=0.01):
        super().__init__()
        self.netG = FramePredictor()
        self.netD = SeqDiscriminator()
        self.lambda_adv = lambda_adv

    def get_losses(self, observed, future):
        pred = self.netG(observed, future.shape[1])
        loss_recon = F.l1_loss(pred, future)

        logits_fake = self.netD(pred)
        loss_adv = F.binary_cross_entropy_with_logits(logits_fake, torch.ones_like(logits_fake))
        loss_netG = loss_recon + self.lambda_adv * loss_adv

        logits_real = self.netD(future)
        logits_fake_d = self.netD(pred.detach())
        loss_netD = 0.5 * (F.binary_cross_entropy_with_logits(logits_real, torch.ones_like(logits_real))
                           + F.binary_cross_entropy_with_logits(logits_fake_d, torch.zeros_like(logits_fake_d)))
        return {"loss_netG": loss_netG, "loss_netD": loss_netD, "recon": loss_recon.item()}
