import logging

import torch

from model import AttributeStructureEncoder
from utils import hard_sample_loss, laplacian_smoothing

log = logging.getLogger(__name__)


class HSANTrainer:
    def __init__(self, x, adj, args):
        self.args = args
        self.x = laplacian_smoothing(x, adj, t=args["t"])
        self.adj = adj + torch.eye(adj.shape[0])
        self.model = AttributeStructureEncoder(x.shape[1], adj.shape[0], dims=args["dims"])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args["lr"])
        self.best_loss = float("inf")

    def train(self):
        for epoch in range(self.args["epochs"]):
            self.model.train()
            z1, z2 = self.model(self.x, self.adj)
            loss = hard_sample_loss(z1, z2, tau=self.args["tau"]) + hard_sample_loss(z2, z1, tau=self.args["tau"])
            loss.backward()
            self.optimizer.step()
            self.best_loss = min(self.best_loss, loss.item())
            if epoch % 10 == 0:
                log.info("epoch %03d loss %.4f", epoch, loss.item())
        return self.best_loss

    @torch.no_grad()
    def embed(self):
        self.model.eval()
        z1, z2 = self.model(self.x, self.adj)
        return (z1 + z2) / 2
