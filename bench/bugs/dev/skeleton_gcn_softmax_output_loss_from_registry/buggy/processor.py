import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from net.losses import build_loss
from net.sa_gcn import SAGCN

log = logging.getLogger(__name__)


class RecognitionProcessor:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = SAGCN(cfg.num_class, cfg.num_joints)
        self.loss = build_loss(cfg.loss)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.base_lr, momentum=0.9, nesterov=True,
                                         weight_decay=1e-4)
        self.data_loader = self.load_data()

    def load_data(self):
        g = torch.Generator().manual_seed(self.cfg.seed)
        labels = torch.randint(0, self.cfg.num_class, (self.cfg.num_samples,), generator=g)
        t = torch.linspace(0, 1, self.cfg.frames)
        motion = torch.sin(2 * torch.pi * (labels[:, None] + 1) * t)
        data = 0.2 * torch.randn(self.cfg.num_samples, 3, self.cfg.frames, self.cfg.num_joints, generator=g)
        data[:, 0] += motion[:, :, None]
        return DataLoader(TensorDataset(data, labels), batch_size=self.cfg.batch_size, shuffle=True, generator=g)

    def train(self, epoch):
        self.model.train()
        loss_value = []
        for data, label in self.data_loader:
            output = self.model(data)
            loss = self.loss(output, label)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            loss_value.append(loss.item())
        log.info("epoch %d mean training loss %.4f", epoch, sum(loss_value) / len(loss_value))

    def start(self):
        for epoch in range(self.cfg.num_epoch):
            self.train(epoch)
