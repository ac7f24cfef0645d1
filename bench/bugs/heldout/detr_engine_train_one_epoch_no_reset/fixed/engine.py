import math

import torch


def train_one_epoch(model, criterion, data_loader, optimizer, epoch, max_norm=0.0):
    model.train()
    criterion.train()
    total = 0.0
    for samples, targets in data_loader:
        outputs = model(samples)
        loss_dict = criterion(outputs, targets)
        weight_dict = criterion.weight_dict
        losses = sum(loss_dict[k] * weight_dict[k] for k in loss_dict.keys() if k in weight_dict)
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            raise RuntimeError(f"Loss is {loss_value}, stopping training")
        optimizer.zero_grad()
        losses.backward()
        if max_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        total += loss_value
    print(f"Epoch: [{epoch}] loss {total / len(data_loader):.4f}")
