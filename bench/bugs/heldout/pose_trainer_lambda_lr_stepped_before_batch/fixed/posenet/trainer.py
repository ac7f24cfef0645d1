import logging
import time

import torch
import torch.nn.functional as F

LOG = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model, optimizer, lr_scheduler, *, log_interval=1, fix_batch_norm=False):
        self.model = model
        self.optimizer = optimizer
        self.lr_scheduler = lr_scheduler
        self.log_interval = log_interval
        self.fix_batch_norm = fix_batch_norm

    def loop(self, train_scenes, epochs, start_epoch=0):
        for epoch in range(start_epoch, epochs):
            self.train(train_scenes, epoch)

    def loss(self, outputs, targets):
        conf, reg = outputs
        conf_t, reg_t = targets
        return F.binary_cross_entropy_with_logits(conf, conf_t) + F.smooth_l1_loss(reg, reg_t)

    def train_batch(self, data, targets):
        outputs = self.model(data)
        loss = self.loss(outputs, targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def train(self, scenes, epoch):
        start_time = time.time()
        self.model.train()
        if self.fix_batch_norm:
            for m in self.model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        epoch_loss = 0.0
        for batch_idx, (data, targets) in enumerate(scenes):
            loss = self.train_batch(data, targets)
            self.lr_scheduler.step()
            epoch_loss += loss
            if batch_idx % self.log_interval == 0:
                LOG.info("epoch %d batch %d loss %.4f lr %.2e", epoch, batch_idx, loss,
                         self.optimizer.param_groups[0]["lr"])
        LOG.info("epoch %d done in %.1fs, loss %.4f", epoch, time.time() - start_time, epoch_loss / len(scenes))
