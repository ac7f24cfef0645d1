import torch


def build_scheduler(optimizer, cfg):
    if cfg.scheduler == "onecycle":
        return torch.optim.lr_scheduler.OneCycleLR(
            optimizer, max_lr=cfg.lr, total_steps=cfg.max_epoch * cfg.steps_per_epoch, pct_start=0.1
        )
    if cfg.scheduler == "cosine":
        return torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=cfg.max_epoch)
    raise ValueError(f"unknown scheduler {cfg.scheduler}")
