import torch
import torch.nn as nn

LATENT_SHAPE = (16, 4, 4)


class LatentDecoder(nn.Module):
    def __init__(self, latent_channels=16, out_channels=3):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(latent_channels, 32, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(32, out_channels, 4, stride=2, padding=1), nn.Sigmoid(),
        )

    def forward(self, z):
        return self.net(z)


@torch.no_grad()
def sample(decoder, n_samples=6):
    z = torch.randn(n_samples, *LATENT_SHAPE)
    return decoder(z)


decoder = LatentDecoder().eval()
images = sample(decoder)
print(images.shape)
