import logging

import torch

from config import ReIDConfig
from reid import EmbeddingNet, TripletLoss

logging.basicConfig(level=logging.INFO, format="%(message)s")
log = logging.getLogger("reid")


def sample_batch(cfg, generator):
    """P identities x K images each, the PK sampler of the triplet paper."""
    ids = torch.arange(cfg.num_ids).repeat_interleave(cfg.imgs_per_id)
    imgs = torch.randn(len(ids), 3, 32, 16, generator=generator) + ids.view(-1, 1, 1, 1) * 0.1
    return imgs, ids


class Trainer:
    def __init__(self, model, criterion, optimizer):
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer

    def train(self, epoch, cfg, generator):
        self.model.train()
        for it in range(cfg.iters_per_epoch):
            imgs, pids = sample_batch(cfg, generator)
            feats = self.model(imgs)
            loss, prec = self.criterion(feats, pids)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            log.info("epoch %d iter %d loss %.3f prec %.2f", epoch, it, loss.item(), prec.item())


def main():
    torch.manual_seed(0)
    cfg = ReIDConfig()
    model = EmbeddingNet(cfg.feat_dim)
    criterion = TripletLoss(margin=cfg.margin)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    trainer = Trainer(model, criterion, optimizer)
    generator = torch.Generator().manual_seed(0)
    for epoch in range(cfg.epochs):
        trainer.train(epoch, cfg, generator)


if __name__ == "__main__":
    main()
