import torch
import torch.nn as nn
import torch.nn.functional as F


class SequenceVAE(nn.Module):
    """VAE over one-hot protein sequences (positions x amino acids), in the style of DeepSequence."""

    def __init__(self, seq_len: int, n_tokens: int = 21, latent: int = 8, hidden: int = 128):
        super().__init__()
        self.seq_len, self.n_tokens = seq_len, n_tokens
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(seq_len * n_tokens, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.decoder = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, seq_len * n_tokens))

    def forward(self, x):
        h = self.encoder(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        logits = self.decoder(z).view(-1, self.seq_len, self.n_tokens)
        return logits, mu, logvar


def elbo_loss(logits, x, mu, logvar, beta: float = 1.0):
    recon = F.cross_entropy(logits.transpose(1, 2), x.argmax(-1), reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return recon + beta * kl, recon, kl
