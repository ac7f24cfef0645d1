"""Train a pixel decoder on a frozen representation encoder, with gradient accumulation over micro-batches."""
import logging

import torch
import torch.nn.functional as F

from config import TrainConfig
from model import Decoder, FrozenEncoder

log = logging.getLogger("rae")


class DecoderTrainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.encoder = FrozenEncoder(cfg.image_dim, cfg.latent_dim)
        self.decoder = Decoder(cfg.latent_dim, cfg.image_dim)
        self.opt = torch.optim.AdamW(self.decoder.parameters(), lr=cfg.lr)
        self.accum_steps = cfg.global_batch // cfg.micro_batch

    def train_step(self, batch):
        total = 0.0
        for micro in batch.split(self.cfg.micro_batch):
            self.opt.zero_grad(set_to_none=True)
            with torch.no_grad():
                z = self.encoder(micro)
            recon = self.decoder(z)
            loss = F.mse_loss(recon, micro) / self.accum_steps
            loss.backward()
            total += loss.item()
        torch.nn.utils.clip_grad_norm_(self.decoder.parameters(), self.cfg.grad_clip)
        self.opt.step()
        return total


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = TrainConfig()
    trainer = DecoderTrainer(cfg)
    data = torch.randn(64, cfg.image_dim)
    for step in range(cfg.steps):
        batch = data[torch.randperm(len(data))[:cfg.global_batch]]
        log.info("step %d loss %.4f", step, trainer.train_step(batch))


if __name__ == "__main__":
    main()
