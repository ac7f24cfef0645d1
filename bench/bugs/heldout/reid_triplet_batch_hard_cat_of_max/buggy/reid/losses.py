import torch
import torch.nn as nn


def pairwise_distance(x):
    n = x.size(0)
    sq = x.pow(2).sum(dim=1, keepdim=True).expand(n, n)
    dist = sq + sq.t()
    dist = dist.addmm(x, x.t(), beta=1, alpha=-2)
    return dist.clamp(min=1e-12).sqrt()


class TripletLoss(nn.Module):
    """Batch-hard triplet loss (Hermans et al.): hardest positive and hardest negative per anchor."""

    def __init__(self, margin=0.3):
        super().__init__()
        self.margin = margin
        self.ranking_loss = nn.MarginRankingLoss(margin=margin)

    def forward(self, inputs, targets):
        n = inputs.size(0)
        dist = pairwise_distance(inputs)
        mask = targets.expand(n, n).eq(targets.expand(n, n).t())
        dist_ap, dist_an = [], []
        for i in range(n):
            dist_ap.append(dist[i][mask[i]].max())
            dist_an.append(dist[i][mask[i] == 0].min())
        dist_ap = torch.cat(dist_ap)
        dist_an = torch.cat(dist_an)
        y = torch.ones_like(dist_an)
        loss = self.ranking_loss(dist_an, dist_ap, y)
        prec = (dist_an.data > dist_ap.data).float().mean()
        return loss, prec
