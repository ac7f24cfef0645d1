import torch
from torch import nn

latent_dim = 8
G = nn.Sequential(nn.Linear(latent_dim, 32), nn.ReLU(), nn.Linear(32, 16))
D = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for step in range(2):
    real = torch.randn(16, 16)
    fake = G(torch.randn(16, latent_dim))

    d_real = D(real)
    d_loss = bce(d_real, torch.ones_like(d_real)) + bce(D(fake.detach()), torch.zeros_like(d_real))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    fake_out = D(fake)
    g_loss = bce(fake_out, torch.ones_like(fake_out))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(step, d_loss.item(), g_loss.item())
