import torch
import torch.nn.functional as F

from vae import AutoencoderKL


class VAESEVIRModule:
    """Manual-optimization training module for the first-stage autoencoder of the latent diffusion nowcaster."""

    def __init__(self, oc):
        self.oc = oc
        self.torch_nn_module = AutoencoderKL(latent=oc["latent_channels"])
        self.accumulate_grad_batches = oc["accumulate_grad_batches"]
        self.kl_weight = oc["kl_weight"]
        self.optimizer = torch.optim.AdamW(self.torch_nn_module.parameters(), lr=oc["lr"], betas=(0.5, 0.9))

    def vae_loss(self, recon, target, mean, logvar):
        rec = F.l1_loss(recon, target)
        kl = 0.5 * torch.mean(mean.pow(2) + logvar.exp() - 1.0 - logvar)
        return rec + self.kl_weight * kl

    def training_step(self, batch, batch_idx):
        recon, mean, logvar = self.torch_nn_module(batch)
        loss = self.vae_loss(recon, batch, mean, logvar) / self.accumulate_grad_batches
        loss.backward()
        if (batch_idx + 1) % self.accumulate_grad_batches == 0:
            self.optimizer.step()
            self.optimizer.zero_grad()
        return loss.detach()
