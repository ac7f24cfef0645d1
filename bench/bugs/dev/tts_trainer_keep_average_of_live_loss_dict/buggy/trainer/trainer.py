import logging
import time

import torch

from .generic_utils import KeepAverage, count_parameters

logger = logging.getLogger("trainer")


class Trainer:
    def __init__(self, config, model, criterion, train_loader):
        self.config = config
        self.model = model
        self.criterion = criterion
        self.train_loader = train_loader
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config.lr)
        self.total_steps_done = 0
        self.epochs_done = 0
        self.keep_avg_train = None
        logger.info(" > Model has %d parameters", count_parameters(model))

    def _optimize(self, batch):
        outputs, loss_dict = self.model.train_step(batch, self.criterion)
        self.optimizer.zero_grad(set_to_none=True)
        loss_dict["loss"].backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.grad_clip)
        self.optimizer.step()
        return outputs, loss_dict, grad_norm

    def train_step(self, batch, cur_step):
        step_start_time = time.time()
        outputs, loss_dict, grad_norm = self._optimize(batch)
        self.keep_avg_train.update_values(loss_dict)
        self.keep_avg_train.update_value("avg_step_time", time.time() - step_start_time)
        if self.total_steps_done % self.config.print_step == 0:
            logger.info(
                "   --> STEP: %d  loss: %.5f  grad_norm: %.3f",
                cur_step, float(loss_dict["loss"]), float(grad_norm),
            )
        self.total_steps_done += 1
        return outputs, loss_dict

    def train_epoch(self):
        self.model.train()
        self.keep_avg_train = KeepAverage()
        for cur_step, batch in enumerate(self.train_loader):
            self.train_step(batch, cur_step)
        self.epochs_done += 1
        summary = {k: float(v) for k, v in self.keep_avg_train.items()}
        logger.info(" > EPOCH %d: %s", self.epochs_done, summary)
        return summary

    def fit(self):
        history = []
        for _ in range(self.config.epochs):
            history.append(self.train_epoch())
        return history
