import torch
import torch.nn as nn


def accuracy(output, target, topk=(1,)):
    """Computes the precision@k for the specified values of k."""
    maxk = max(topk)
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    res = []
    for k in topk:
        correct_k = correct[:k].reshape(-1).float().sum(0)
        res.append(correct_k.mul_(100.0 / batch_size))
    return res


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10))
images, labels = torch.randn(16, 3, 8, 8), torch.randint(0, 10, (16,))
with torch.no_grad():
    prec1, prec5 = accuracy(model(images), labels, topk=(1, 5))
print(prec1.item(), prec5.item())
