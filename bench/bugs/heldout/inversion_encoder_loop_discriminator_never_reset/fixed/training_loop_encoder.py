import torch
import torch.nn.functional as F

from networks import Discriminator, Encoder, Generator


def training_loop(E: Encoder, G: Generator, D: Discriminator, reals: torch.Tensor, iterations: int = 6,
                  batch_size: int = 8, lr: float = 1e-4, adv_weight: float = 0.1) -> None:
    optimizer_E = torch.optim.Adam(E.parameters(), lr=lr, betas=(0.9, 0.99))
    optimizer_D = torch.optim.Adam(D.parameters(), lr=lr, betas=(0.9, 0.99))
    for it in range(iterations):
        idx = torch.randint(0, len(reals), (batch_size,))
        x = reals[idx]

        # discriminator: real images against reconstructions
        with torch.no_grad():
            x_rec = G(E(x))
        d_loss = F.softplus(D(x_rec)).mean() + F.softplus(-D(x)).mean()
        optimizer_D.zero_grad()
        d_loss.backward()
        optimizer_D.step()

        # encoder: reconstruction + adversarial
        x_rec = G(E(x))
        e_loss = F.mse_loss(x_rec, x) + adv_weight * F.softplus(-D(x_rec)).mean()
        optimizer_E.zero_grad()
        e_loss.backward()
        optimizer_E.step()
        if it % 2 == 0:
            print(f"iter {it}: d {d_loss.item():.3f} e {e_loss.item():.3f}")
