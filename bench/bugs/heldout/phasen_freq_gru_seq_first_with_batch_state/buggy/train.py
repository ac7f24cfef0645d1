import logging

import torch
import torch.nn.functional as F

from phasen import PHASEN

log = logging.getLogger("phasen")


def noisy_pairs(n_batches=2, batch=3, frames=20, n_freqs=33, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        clean = torch.randn(batch, 2, frames, n_freqs, generator=g)
        yield clean + 0.3 * torch.randn(batch, 2, frames, n_freqs, generator=g), clean


def main():
    torch.manual_seed(0)
    model = PHASEN()
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)
    for step, (noisy, clean) in enumerate(noisy_pairs()):
        opt.zero_grad()
        enhanced = model(noisy)
        loss = F.mse_loss(enhanced, clean)
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
