import torch
import torch.nn as nn


class MappingNetwork(nn.Module):
    def __init__(self, z_dim=8, w_dim=8, layers=2):
        super().__init__()
        blocks = []
        for i in range(layers):
            blocks += [nn.Linear(z_dim if i == 0 else w_dim, w_dim), nn.LeakyReLU(0.2)]
        self.net = nn.Sequential(*blocks)

    def forward(self, z):
        return self.net(z / z.norm(dim=1, keepdim=True).clamp_min(1e-8))


class TinyGenerator(nn.Module):
    def __init__(self, z_dim=8, size=8):
        super().__init__()
        self.size = size
        self.mapping = MappingNetwork(z_dim, z_dim)
        self.to_rgb = nn.Linear(z_dim, 3 * size * size)

    def forward(self, z):
        return torch.tanh(self.to_rgb(self.mapping(z))).view(-1, 3, self.size, self.size)


class TinyDiscriminator(nn.Module):
    def __init__(self, size=8):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * size * size, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

    def forward(self, img):
        return self.net(img)
