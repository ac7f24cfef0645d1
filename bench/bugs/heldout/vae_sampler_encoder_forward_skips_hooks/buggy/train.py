import torch
import torch.nn.functional as F

from model import VAE
from monitor import ActivationMonitor


def elbo_loss(logits, x, loc, log_scale):
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / len(x)
    kl = 0.5 * (loc.pow(2) + (2 * log_scale).exp() - 2 * log_scale - 1).sum() / len(x)
    return rec + kl


def main() -> None:
    torch.manual_seed(0)
    data = (torch.rand(64, 64) > 0.7).float()
    model = VAE()
    monitor = ActivationMonitor(model.encoder)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i in range(0, len(data), 16):
            x = data[i : i + 16]
            logits, loc, log_scale = model(x)
            loss = elbo_loss(logits, x, loc, log_scale)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.2f}, monitored {len(monitor.scales)} encoder calls")


if __name__ == "__main__":
    main()
