import logging

import torch
import torch.nn as nn


class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optimizer, data_loader, device, args):
        model.train()
        clip = args.get("grad_clip", 50.0)
        log_interval = args.get("log_interval", 10)
        criterion = nn.CrossEntropyLoss()
        for batch_idx, (feats, target, lengths) in enumerate(data_loader):
            feats, target = feats.to(device), target.to(device)
            logits = model(feats, lengths)
            loss = criterion(logits, target)
            loss.backward()
            grad_norm = nn.utils.clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optimizer.step()
            if batch_idx % log_interval == 0:
                logging.info("step %d loss %.4f", self.step, loss.item())
            self.step += 1

    @torch.no_grad()
    def cv(self, model, data_loader, device):
        model.eval()
        total, count = 0.0, 0
        for feats, target, lengths in data_loader:
            logits = model(feats.to(device), lengths)
            total += nn.functional.cross_entropy(logits, target.to(device), reduction="sum").item()
            count += target.numel()
        return total / count
