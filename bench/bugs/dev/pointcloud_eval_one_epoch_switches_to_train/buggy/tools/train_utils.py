import logging

import numpy as np
import torch
import torch.nn.functional as F

logger = logging.getLogger(__name__)


def train_one_epoch(model, train_loader, optimizer, epoch, log_interval=4):
    model.train()
    total_loss, count = 0.0, 0
    for it, (pts, labels) in enumerate(train_loader):
        optimizer.zero_grad()
        pred_cls = model(pts)
        loss = F.cross_entropy(pred_cls.view(-1, pred_cls.size(-1)), labels.view(-1))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        count += 1
        if it % log_interval == 0:
            logger.info("epoch %d it %d loss %.4f", epoch, it, loss.item())
    return total_loss / max(count, 1)


def eval_one_epoch(model, eval_loader, epoch):
    model.train()
    log_str = "EVALUATION EPOCH %d" % epoch
    iou_list = []
    with torch.no_grad():
        for pts, labels in eval_loader:
            pred_cls = model(pts)
            pred = pred_cls.argmax(dim=-1)
            inter = ((pred == 1) & (labels == 1)).sum().item()
            union = ((pred == 1) | (labels == 1)).sum().item()
            iou_list.append(inter / max(union, 1))
    mean_iou = float(np.mean(iou_list))
    logger.info("%s: mIoU %.4f", log_str, mean_iou)
    return mean_iou
