import itertools
import logging

import torch
import torch.nn.functional as F

log = logging.getLogger("ae")


class AETrainer:
    def __init__(self, encoder, decoder, lr=1e-3, l1_weight=1e-4):
        self.encoder = encoder
        self.decoder = decoder
        self.l1_weight = l1_weight
        self.optimizer = torch.optim.Adam(itertools.chain(encoder.parameters(), decoder.parameters()), lr=lr)

    def train_step(self, batch):
        self.encoder.zero_grad()
        z = self.encoder(batch)
        recon = self.decoder(z)
        loss = F.mse_loss(recon, batch) + self.l1_weight * z.abs().mean()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader, epochs):
        self.encoder.train()
        self.decoder.train()
        for epoch in range(epochs):
            losses = [self.train_step(batch) for (batch,) in loader]
            log.info("epoch %d: recon %.4f", epoch, sum(losses) / len(losses))
