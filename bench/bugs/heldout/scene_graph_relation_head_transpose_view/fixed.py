"""Relation classifier of a two-stage scene-graph detector: pooled object features are paired and scored."""
import logging
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


@dataclass
class RelConfig:
    num_objects: int = 6
    obj_dim: int = 32
    num_predicates: int = 11
    context_layers: int = 1


class ObjectContext(nn.Module):
    """Runs a small transformer over the objects of each image; batch first in, sequence first inside."""

    def __init__(self, cfg: RelConfig):
        super().__init__()
        layer = nn.TransformerEncoderLayer(cfg.obj_dim, nhead=4, dim_feedforward=64, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, cfg.context_layers, enable_nested_tensor=False)

    def forward(self, feats):
        ctx = self.encoder(feats.transpose(0, 1))
        return ctx.transpose(0, 1)


class RelationHead(nn.Module):
    def __init__(self, cfg: RelConfig):
        super().__init__()
        self.cfg = cfg
        self.context = ObjectContext(cfg)
        self.subj_proj = nn.Linear(cfg.obj_dim, cfg.obj_dim)
        self.obj_proj = nn.Linear(cfg.obj_dim, cfg.obj_dim)
        self.classifier = nn.Linear(cfg.obj_dim * cfg.num_objects, cfg.num_predicates * cfg.num_objects)

    def forward(self, obj_feats):
        b, n, _ = obj_feats.shape
        ctx = self.context(obj_feats)
        subj = self.subj_proj(ctx)
        obj = self.obj_proj(ctx)
        pair = subj.unsqueeze(2) * obj.unsqueeze(1)
        pooled = pair.mean(dim=2).transpose(1, 2)
        flat = pooled.reshape(b, -1)
        return self.classifier(flat).view(b, n, self.cfg.num_predicates)


def train(steps: int = 5) -> float:
    torch.manual_seed(0)
    cfg = RelConfig()
    head = RelationHead(cfg)
    opt = torch.optim.SGD(head.parameters(), lr=0.05)
    for step in range(steps):
        feats = torch.randn(4, cfg.num_objects, cfg.obj_dim)
        labels = torch.randint(0, cfg.num_predicates, (4, cfg.num_objects))
        logits = head(feats)
        loss = F.cross_entropy(logits.reshape(-1, cfg.num_predicates), labels.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        logger.info("step %d loss %.3f", step, loss.item())
    return loss.item()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    train()
