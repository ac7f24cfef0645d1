import torch
import torch.nn.functional as F

from networks import ContextEncoder, PatchDiscriminator, apply_center_mask


class InpaintingGAN:
    def __init__(self, lambda_adv=0.01, lr=2e-4):
        self.G, self.D = ContextEncoder(), PatchDiscriminator()
        self.optim_g = torch.optim.Adam(self.G.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optim_d = torch.optim.Adam(self.D.parameters(), lr=lr, betas=(0.5, 0.999))
        self.lambda_adv = lambda_adv

    def compute_losses(self, images):
        masked, _ = apply_center_mask(images)
        fake = self.G(masked)
        pred_fake = self.D(fake)
        loss_g = F.mse_loss(fake, images) + self.lambda_adv * F.binary_cross_entropy_with_logits(
            pred_fake, torch.ones_like(pred_fake)
        )
        pred_real = self.D(images)
        loss_d = F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real)) + F.binary_cross_entropy_with_logits(
            self.D(fake), torch.zeros_like(pred_real)
        )
        return loss_g, loss_d

    def train_step(self, images):
        loss_g, loss_d = self.compute_losses(images)
        self.optim_g.zero_grad()
        loss_g.backward(retain_graph=True)
        self.optim_g.step()

        self.optim_d.zero_grad()
        loss_d.backward()
        self.optim_d.step()
        return loss_g.item(), loss_d.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    gan = InpaintingGAN()
    for step in range(2):
        print(step, gan.train_step(torch.rand(2, 3, 16, 16) * 2 - 1))
