import logging

import torch
import torch.nn as nn

from env import scramble_batch

log = logging.getLogger(__name__)


class ADITrainer:
    """Autodidactic iteration: samples far from the solved state get smaller weights."""

    def __init__(self, net, cfg):
        self.net = net
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
        self.value_loss_fn = nn.MSELoss(reduction="none")
        self.policy_loss_fn = nn.CrossEntropyLoss(reduction="none")
        self.gen = torch.Generator().manual_seed(cfg["seed"])

    def train_step(self):
        states, depth, target_policy, target_value = scramble_batch(
            self.cfg["batch_size"], self.cfg["max_depth"], generator=self.gen)
        weight_t = 1.0 / depth.float()
        policy_out, value_out = self.net(states)
        value_loss_t = self.value_loss_fn(value_out, target_value) * weight_t
        policy_loss_t = self.policy_loss_fn(policy_out, target_policy) * weight_t
        loss = value_loss_t.mean() + policy_loss_t.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), value_loss_t.mean().item()

    def run(self):
        for step in range(self.cfg["steps"]):
            loss, value_loss = self.train_step()
            if step % self.cfg["report_every"] == 0:
                log.info("step %d loss %.4f value %.4f", step, loss, value_loss)
