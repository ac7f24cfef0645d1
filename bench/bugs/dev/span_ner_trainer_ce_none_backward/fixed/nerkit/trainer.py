import logging
import time

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
        # per-token losses so padding can be masked out
        self.ce = nn.CrossEntropyLoss(reduction="none")
        self.global_step = 0

    def compute_loss(self, logits, tags, mask):
        num_tags = logits.size(-1)
        token_loss = self.ce(logits.view(-1, num_tags), tags.view(-1))
        mask = mask.view(-1).float()
        return (token_loss * mask).sum() / mask.sum()

    def train_epoch(self, loader):
        self.model.train()
        start = time.time()
        running = 0.0
        for token_ids, tags in loader:
            mask = token_ids.ne(0)
            logits = self.model(token_ids)
            loss = self.compute_loss(logits, tags, mask)
            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg["max_grad_norm"])
            self.optimizer.step()
            self.global_step += 1
            running += loss.item()
        logger.info("epoch done in %.1fs, loss %.4f", time.time() - start, running / len(loader))
        return running / len(loader)
