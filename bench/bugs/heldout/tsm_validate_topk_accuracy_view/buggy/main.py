import time

import torch
import torch.nn as nn

from ops.models import TSN
from ops.utils import AverageMeter, accuracy

NUM_CLASS, NUM_SEGMENTS = 10, 4


def validate(val_loader, model, criterion, log_interval=1):
    batch_time, losses, top1, top5 = AverageMeter(), AverageMeter(), AverageMeter(), AverageMeter()
    model.eval()
    end = time.time()
    with torch.no_grad():
        for i, (inputs, target) in enumerate(val_loader):
            output = model(inputs)
            loss = criterion(output, target)
            prec1, prec5 = accuracy(output, target, topk=(1, 5))
            losses.update(loss.item(), inputs.size(0))
            top1.update(prec1.item(), inputs.size(0))
            top5.update(prec5.item(), inputs.size(0))
            batch_time.update(time.time() - end)
            end = time.time()
            if i % log_interval == 0:
                print(f"Test: [{i}/{len(val_loader)}] Loss {losses.avg:.4f} Prec@1 {top1.avg:.3f} Prec@5 {top5.avg:.3f}")
    return top1.avg


def main():
    torch.manual_seed(0)
    model = TSN(NUM_CLASS, NUM_SEGMENTS)
    val_loader = [(torch.randn(6, NUM_SEGMENTS, 3, 16, 16), torch.randint(0, NUM_CLASS, (6,))) for _ in range(2)]
    best_prec1 = validate(val_loader, model, nn.CrossEntropyLoss())
    print("best prec@1", best_prec1)


if __name__ == "__main__":
    main()
