import torch
import torch.nn as nn


class EdgeGenerator(nn.Module):
    def __init__(self, ch: int = 16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(2, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU(True),
            nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU(True),
            nn.Conv2d(ch, 1, 3, padding=1),
        )

    def forward(self, x):
        return torch.sigmoid(self.net(x))


class Discriminator(nn.Module):
    def __init__(self, in_channels: int, ch: int = 16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(in_channels, ch, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(ch, 1, 4, stride=1, padding=1),
        )

    def forward(self, x):
        return self.net(x)


class EdgeModel(nn.Module):
    def __init__(self, lr: float = 1e-4, d2g_lr: float = 0.1, fm_weight: float = 10.0):
        super().__init__()
        self.generator = EdgeGenerator()
        self.discriminator = Discriminator(in_channels=2)
        self.adversarial_loss = nn.BCEWithLogitsLoss()
        self.l1_loss = nn.L1Loss()
        self.fm_weight = fm_weight
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.0, 0.9))
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=lr * d2g_lr, betas=(0.0, 0.9))

    def process(self, images, edges, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self(images, edges, masks)

        dis_input_real = torch.cat((images, edges), dim=1)
        dis_input_fake = torch.cat((images, outputs.detach()), dim=1)
        dis_real = self.discriminator(dis_input_real)
        dis_fake = self.discriminator(dis_input_fake)
        dis_loss = (self.adversarial_loss(dis_real, torch.ones_like(dis_real))
                    + self.adversarial_loss(dis_fake, torch.zeros_like(dis_fake))) / 2

        gen_input_fake = torch.cat((images, outputs), dim=1)
        gen_fake = self.discriminator(gen_input_fake)
        gen_loss = self.adversarial_loss(gen_fake, torch.ones_like(gen_fake))
        gen_loss = gen_loss + self.fm_weight * self.l1_loss(outputs, edges)
        return outputs, gen_loss, dis_loss

    def forward(self, images, edges, masks):
        edges_masked = edges * (1 - masks)
        inputs = torch.cat((images, edges_masked), dim=1)
        return self.generator(inputs)

    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            dis_loss.backward()
        self.dis_optimizer.step()

        if gen_loss is not None:
            gen_loss.backward()
        self.gen_optimizer.step()


def main():
    torch.manual_seed(0)
    model = EdgeModel()
    images = torch.rand(8, 1, 32, 32)
    edges = (torch.rand(8, 1, 32, 32) > 0.8).float()
    masks = (torch.rand(8, 1, 32, 32) > 0.5).float()
    for iteration in range(4):
        i = (iteration % 2) * 4
        outputs, gen_loss, dis_loss = model.process(images[i : i + 4], edges[i : i + 4], masks[i : i + 4])
        model.backward(gen_loss, dis_loss)
        print(f"iter {iteration}: gen {gen_loss.item():.3f} dis {dis_loss.item():.3f}")


if __name__ == "__main__":
    main()
