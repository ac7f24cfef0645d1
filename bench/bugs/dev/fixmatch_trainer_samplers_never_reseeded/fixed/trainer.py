import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

logger = logging.getLogger(__name__)


class FixMatchTrainer:
    def __init__(self, args, model, labeled_set, unlabeled_set):
        self.args = args
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
        self.labeled_sampler = DistributedSampler(labeled_set, num_replicas=args.world_size, rank=args.rank)
        self.unlabeled_sampler = DistributedSampler(unlabeled_set, num_replicas=args.world_size, rank=args.rank)
        self.labeled_loader = DataLoader(labeled_set, batch_size=args.batch_size,
                                         sampler=self.labeled_sampler, drop_last=True)
        self.unlabeled_loader = DataLoader(unlabeled_set, batch_size=args.batch_size * args.mu,
                                           sampler=self.unlabeled_sampler, drop_last=True)

    def train_epoch(self, epoch):
        self.model.train()
        total = 0.0
        for (x_l, y_l), (u_weak, u_strong) in zip(self.labeled_loader, self.unlabeled_loader):
            logits = self.model(torch.cat([x_l, u_weak, u_strong]))
            logits_x = logits[:len(x_l)]
            logits_u_w, logits_u_s = logits[len(x_l):].chunk(2)
            pseudo = torch.softmax(logits_u_w.detach() / self.args.T, dim=-1)
            max_probs, targets_u = pseudo.max(dim=-1)
            mask = max_probs.ge(self.args.threshold).float()
            lx = F.cross_entropy(logits_x, y_l)
            lu = (F.cross_entropy(logits_u_s, targets_u, reduction="none") * mask).mean()
            loss = lx + self.args.lambda_u * lu
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        logger.info("epoch %d loss %.4f", epoch, total)

    def fit(self):
        for epoch in range(self.args.epochs):
            self.labeled_sampler.set_epoch(epoch)
            self.unlabeled_sampler.set_epoch(epoch)
            self.train_epoch(epoch)
