import os

import torch
import torch.nn as nn
import torch.optim as optim

from .config import Config
from .loss import AdversarialLoss
from .networks import Discriminator, InpaintGenerator


class BaseModel(nn.Module):
    def __init__(self, name, config: Config):
        super().__init__()
        self.name = name
        self.config = config
        self.iteration = 0
        self.gen_weights_path = os.path.join("checkpoints", name + "_gen.pth")

    def save(self):
        os.makedirs(os.path.dirname(self.gen_weights_path), exist_ok=True)
        torch.save({"iteration": self.iteration, "generator": self.generator.state_dict()}, self.gen_weights_path)


class InpaintingModel(BaseModel):
    def __init__(self, config: Config):
        super().__init__("InpaintingModel", config)
        self.generator = InpaintGenerator()
        self.discriminator = Discriminator(in_channels=3, use_sigmoid=config.GAN_LOSS != "hinge")
        self.l1_loss = nn.L1Loss()
        self.adversarial_loss = AdversarialLoss(type=config.GAN_LOSS)

        self.gen_optimizer = optim.Adam(
            params=self.generator.parameters(), lr=float(config.LR), betas=(config.BETA1, config.BETA2)
        )
        self.dis_optimizer = optim.Adam(
            params=self.discriminator.parameters(),
            lr=float(config.LR) * float(config.D2G_LR),
            betas=(config.BETA1, config.BETA2),
        )

    def process(self, images, masks):
        self.iteration += 1

        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()

        outputs = self(images, masks)
        gen_loss = 0
        dis_loss = 0

        # discriminator loss
        dis_real, _ = self.discriminator(images)
        dis_fake, _ = self.discriminator(outputs.detach())
        dis_real_loss = self.adversarial_loss(dis_real, True, True)
        dis_fake_loss = self.adversarial_loss(dis_fake, False, True)
        dis_loss += (dis_real_loss + dis_fake_loss) / 2

        # generator adversarial loss
        gen_fake, _ = self.discriminator(outputs)
        gen_gan_loss = self.adversarial_loss(gen_fake, True, False) * self.config.INPAINT_ADV_LOSS_WEIGHT
        gen_loss += gen_gan_loss

        # generator l1 loss, normalised by the hole area
        gen_l1_loss = self.l1_loss(outputs, images) * self.config.L1_LOSS_WEIGHT / torch.mean(masks)
        gen_loss += gen_l1_loss

        logs = [
            ("l_d2", dis_loss.item()),
            ("l_g2", gen_gan_loss.item()),
            ("l_l1", gen_l1_loss.item()),
        ]
        return outputs, gen_loss, dis_loss, logs

    def forward(self, images, masks):
        images_masked = (images * (1 - masks).float()) + masks
        inputs = torch.cat((images_masked, masks), dim=1)
        return self.generator(inputs)

    def backward(self, gen_loss=None, dis_loss=None):
        dis_loss.backward()
        self.dis_optimizer.step()

        gen_loss.backward()
        self.gen_optimizer.step()
