import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger("reid_baseline.train")


class Baseline(nn.Module):
    def __init__(self, num_classes=8, feat_dim=32):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, feat_dim, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.bottleneck = nn.BatchNorm1d(feat_dim)
        self.classifier = nn.Linear(feat_dim, num_classes, bias=False)

    def forward(self, x):
        global_feat = self.base(x).flatten(1)
        feat = self.bottleneck(global_feat)
        return self.classifier(feat), global_feat


def triplet_like(feat, target, margin=0.3):
    dist = torch.cdist(feat, feat)
    same = target[:, None] == target[None, :]
    hardest_pos = (dist * same).max(1).values
    hardest_neg = (dist + 1e4 * same).min(1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean()


def do_train(cfg, model, train_loader, optimizer, scheduler):
    log_period = cfg["log_period"]
    for epoch in range(1, cfg["max_epochs"] + 1):
        model.train()
        for n_iter, (img, vid) in enumerate(train_loader):
            optimizer.zero_grad()
            score, feat = model(img)
            loss = F.cross_entropy(score, vid) + triplet_like(feat, vid)
            loss.backward()
            optimizer.step()
            if (n_iter + 1) % log_period == 0:
                logger.warning("Epoch[%d] Iteration[%d] Loss: %.3f, Base Lr: %.2e", epoch, n_iter + 1, loss.item(),
                               scheduler.get_last_lr()[0])
        scheduler.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"max_epochs": 3, "log_period": 2, "base_lr": 3.5e-4, "steps": (2,), "gamma": 0.1}
    model = Baseline()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["base_lr"])
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=list(cfg["steps"]), gamma=cfg["gamma"])
    loader = [(torch.rand(8, 3, 16, 16), torch.randint(0, 8, (8,))) for _ in range(2)]
    do_train(cfg, model, loader, optimizer, scheduler)
