import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F


@contextlib.contextmanager
def _disable_tracking_bn_stats(model):
    def switch_attr(m):
        if hasattr(m, "track_running_stats"):
            m.track_running_stats ^= True
    model.apply(switch_attr)
    yield
    model.apply(switch_attr)


def _l2_normalize(d):
    d_reshaped = d.view(d.shape[0], -1, *(1 for _ in range(d.dim() - 2)))
    return d / (torch.norm(d_reshaped, dim=1, keepdim=True) + 1e-8)


class VATLoss(nn.Module):
    def __init__(self, xi=10.0, eps=1.0, ip=1):
        super().__init__()
        self.xi, self.eps, self.ip = xi, eps, ip

    def forward(self, model, x):
        with torch.no_grad():
            pred = F.softmax(model(x), dim=1)
        d = _l2_normalize(torch.rand(x.shape).sub(0.5))
        with _disable_tracking_bn_stats(model):
            for _ in range(self.ip):
                d.requires_grad_()
                adv_distance = F.kl_div(F.log_softmax(model(x + self.xi * d), dim=1), pred, reduction="batchmean")
                adv_distance.backward()
                d = _l2_normalize(d.grad)
                model.zero_grad()
            r_adv = d * self.eps
            return F.kl_div(F.log_softmax(model(x + r_adv), dim=1), pred, reduction="batchmean")
