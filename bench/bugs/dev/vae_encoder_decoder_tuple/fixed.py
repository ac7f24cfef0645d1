import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, latent_dim, hidden=400):
        super().__init__()
        self.fc = nn.Linear(784, hidden)
        self.mu = nn.Linear(hidden, latent_dim)
        self.logvar = nn.Linear(hidden, latent_dim)

    def forward(self, x):
        h = F.relu(self.fc(x.view(-1, 784)))
        return self.mu(h), self.logvar(h)


class Decoder(nn.Module):
    def __init__(self, latent_dim, hidden=400):
        super().__init__()
        self.fc = nn.Linear(latent_dim, hidden)
        self.out = nn.Linear(hidden, 784)

    def forward(self, z):
        return torch.sigmoid(self.out(F.relu(self.fc(z))))


def reparameterize(mu, logvar):
    std = torch.exp(0.5 * logvar)
    return mu + torch.randn_like(std) * std


def vae_loss(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x.view(-1, 784), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


encoder, decoder = Encoder(latent_dim=20), Decoder(latent_dim=20)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-3)

data = torch.rand(64, 1, 28, 28)
for batch_idx in range(2):
    x = data[batch_idx * 32:(batch_idx + 1) * 32]
    mu, logvar = encoder(x)
    z = reparameterize(mu, logvar)
    recon = decoder(z)
    loss = vae_loss(recon, x, mu, logvar)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"batch {batch_idx}: loss per image {loss.item() / len(x):.2f}")
