import torch
from torch.utils.data import DataLoader, TensorDataset

from vae import SequenceVAE, elbo_loss


def synthetic_msa(n: int, seq_len: int, n_tokens: int = 21):
    g = torch.Generator().manual_seed(0)
    consensus = torch.randint(0, n_tokens, (seq_len,), generator=g)
    seqs = consensus.repeat(n, 1)
    mutate = torch.rand(n, seq_len, generator=g) < 0.15
    seqs[mutate] = torch.randint(0, n_tokens, (int(mutate.sum()),), generator=g)
    return torch.nn.functional.one_hot(seqs, n_tokens).float()


def train(model: SequenceVAE, loader: DataLoader, epochs: int, warmup_epochs: int = 2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        beta = min(1.0, (epoch + 1) / warmup_epochs)
        epoch_loss, epoch_kl = 0.0, 0.0
        for (x,) in loader:
            logits, mu, logvar = model(x)
            loss, recon, kl = elbo_loss(logits, x, mu, logvar, beta)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            epoch_kl += kl.item()
        print(f"epoch {epoch} beta {beta:.2f} loss {epoch_loss / len(loader):.3f} kl {epoch_kl / len(loader):.3f}")


if __name__ == "__main__":
    data = synthetic_msa(256, seq_len=30)
    loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)
    train(SequenceVAE(seq_len=30), loader, epochs=2)
