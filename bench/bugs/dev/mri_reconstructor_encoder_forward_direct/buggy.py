import torch
import torch.nn as nn


class ResidualEncoder(nn.Module):
    def __init__(self, channels, latent):
        super().__init__()
        self.conv = nn.Conv2d(channels, 8, 3, padding=1)
        self.act = nn.SiLU()
        self.pool = nn.AdaptiveAvgPool2d(4)
        self.proj = nn.Linear(8 * 16, latent)

    def forward(self, image):
        h = self.act(self.conv(image))
        return self.proj(self.pool(h).flatten(1))


class Decoder(nn.Module):
    def __init__(self, latent, channels, size):
        super().__init__()
        self.channels, self.size = channels, size
        self.fc = nn.Linear(latent, channels * size * size)

    def forward(self, z):
        return self.fc(z).view(-1, self.channels, self.size, self.size)


class Reconstructor(nn.Module):
    """Maps an undersampled image to a reconstruction through a learned latent code."""

    def __init__(self, channels=2, size=12, latent=24):
        super().__init__()
        self.encoder = ResidualEncoder(channels, latent)
        self.decoder = Decoder(latent, channels, size)

    def forward(self, undersampled):
        z = self.encoder.forward(undersampled)
        return undersampled + self.decoder(z)


def undersample(image, keep=0.5):
    mask = (torch.rand(image.shape[-1]) < keep).float()
    return image * mask


def main():
    torch.manual_seed(0)
    model = Reconstructor()
    activations = {}
    model.encoder.register_forward_hook(lambda m, i, o: activations.__setitem__("latent", o.detach()))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for it in range(5):
        target = torch.randn(4, 2, 12, 12)
        recon = model(undersample(target))
        loss = (recon - target).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("latent logged:", "latent" in activations, "loss", loss.item())


if __name__ == "__main__":
    main()
