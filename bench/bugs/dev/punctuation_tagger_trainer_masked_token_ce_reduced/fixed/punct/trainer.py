import logging

import torch
import torch.nn as nn

from punct.model import PunctuationTagger

logger = logging.getLogger(__name__)


class TaggerTrainer:
    def __init__(self, model: PunctuationTagger, lr: float = 1e-3, mark_weights=None):
        self.model = model
        self.crit = nn.CrossEntropyLoss(weight=mark_weights, reduction="none")
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.step = 0

    def token_loss(self, logits, marks, mask):
        per_token = self.crit(logits.reshape(-1, logits.size(-1)), marks.reshape(-1))
        per_token = per_token.view_as(marks) * mask
        return per_token.sum() / mask.sum().clamp(min=1.0)

    def train_batch(self, tokens, marks):
        self.model.train()
        mask = (tokens != 0).float()
        logits = self.model(tokens)
        loss = self.token_loss(logits, marks, mask)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.step += 1
        if self.step % 5 == 0:
            logger.info("step %d loss %.4f", self.step, loss.item())
        return loss.item()
