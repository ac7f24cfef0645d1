import torch
import torch.nn as nn
import torch.optim as optim

from .networks import Discriminator, InpaintGenerator


class AdversarialLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.criterion = nn.BCELoss()

    def forward(self, outputs, is_real):
        labels = torch.ones_like(outputs) if is_real else torch.zeros_like(outputs)
        return self.criterion(outputs, labels)


class InpaintingModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.generator = InpaintGenerator()
        self.discriminator = Discriminator()
        self.l1_loss = nn.L1Loss()
        self.adversarial_loss = AdversarialLoss()
        self.gen_optimizer = optim.Adam(self.generator.parameters(), lr=config["LR"], betas=(0.0, 0.9))
        self.dis_optimizer = optim.Adam(self.discriminator.parameters(), lr=config["LR"] * config["D2G_LR"],
                                        betas=(0.0, 0.9))

    def forward(self, images, masks):
        images_masked = images * (1 - masks) + masks
        return self.generator(torch.cat((images_masked, masks), dim=1))

    def process(self, images, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self(images, masks)

        dis_real, _ = self.discriminator(images)
        dis_fake, _ = self.discriminator(outputs.detach())
        dis_loss = (self.adversarial_loss(dis_real, True) + self.adversarial_loss(dis_fake, False)) / 2

        gen_fake, _ = self.discriminator(outputs)
        gen_gan_loss = self.adversarial_loss(gen_fake, True) * self.config["INPAINT_ADV_LOSS_WEIGHT"]
        gen_l1_loss = self.l1_loss(outputs, images) * self.config["L1_LOSS_WEIGHT"] / torch.mean(masks)
        gen_loss = gen_gan_loss + gen_l1_loss
        logs = [("l_d2", dis_loss.item()), ("l_g2", gen_gan_loss.item()), ("l_l1", gen_l1_loss.item())]
        return outputs, gen_loss, dis_loss, logs

    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            dis_loss.backward()
            self.dis_optimizer.step()

        if gen_loss is not None:
            gen_loss.backward()
            self.gen_optimizer.step()
