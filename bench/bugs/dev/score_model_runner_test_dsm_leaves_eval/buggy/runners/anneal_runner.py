import logging

import numpy as np
import torch

from losses import anneal_dsm_score_estimation
from models import ScoreNet

log = logging.getLogger(__name__)


class AnnealRunner:
    def __init__(self, config):
        self.config = config
        self.sigmas = torch.tensor(np.exp(np.linspace(np.log(config["sigma_begin"]), np.log(config["sigma_end"]),
                                                      config["num_classes"])), dtype=torch.float32)

    def get_data(self, n, generator):
        return torch.rand(n, 1, self.config["image_size"], self.config["image_size"], generator=generator)

    def test_loss(self, score, test_x):
        score.eval()
        labels = torch.randint(0, len(self.sigmas), (test_x.shape[0],))
        with torch.no_grad():
            return anneal_dsm_score_estimation(score, test_x, labels, self.sigmas).item()

    def train(self):
        cfg = self.config
        gen = torch.Generator().manual_seed(cfg["seed"])
        score = ScoreNet(num_classes=cfg["num_classes"])
        optimizer = torch.optim.Adam(score.parameters(), lr=cfg["lr"])
        test_x = self.get_data(cfg["batch_size"], gen)

        score.train()
        step = 0
        for epoch in range(cfg["n_epochs"]):
            for _ in range(cfg["iters_per_epoch"]):
                step += 1
                x = self.get_data(cfg["batch_size"], gen)
                labels = torch.randint(0, len(self.sigmas), (x.shape[0],), generator=gen)
                loss = anneal_dsm_score_estimation(score, x, labels, self.sigmas)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                log.info("step %d loss %.3f", step, loss.item())

                if step % cfg["snapshot_freq"] == 0:
                    log.info("step %d test dsm loss %.3f", step, self.test_loss(score, test_x))
