import logging

import torch
import torch.nn.functional as F

from config import EncoderConfig, TrainConfig
from data import lengths_to_padding_mask, make_loader
from model import SensorEncoder

log = logging.getLogger("har")


def run_epoch(model: SensorEncoder, loader, opt, enc_cfg: EncoderConfig):
    model.train()
    total, seen = 0.0, 0
    for signals, lengths, labels in loader:
        mask = lengths_to_padding_mask(lengths, signals.shape[1])
        logits = model(signals, mask)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * labels.shape[0]
        seen += labels.shape[0]
    return total / max(seen, 1)


def main():
    enc_cfg, train_cfg = EncoderConfig(), TrainConfig()
    torch.manual_seed(train_cfg.seed)
    model = SensorEncoder(enc_cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=train_cfg.lr)
    loader = make_loader(train_cfg.batch_size, seed=train_cfg.seed)
    for epoch in range(train_cfg.epochs):
        loss = run_epoch(model, loader, opt, enc_cfg)
        log.info("epoch %d loss %.4f", epoch, loss)


if __name__ == "__main__":
    main()
