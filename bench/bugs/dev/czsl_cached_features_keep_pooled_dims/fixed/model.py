import torch
import torch.nn as nn
import torch.nn.functional as F


def backbone(width=64):
    """A small ResNet-style trunk; its output is the globally pooled feature map."""
    return nn.Sequential(
        nn.Conv2d(3, width // 2, 3, stride=2, padding=1), nn.BatchNorm2d(width // 2), nn.ReLU(),
        nn.Conv2d(width // 2, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
    )


class MLP(nn.Module):
    def __init__(self, inp_dim, out_dim, hidden=128, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(inp_dim, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.net(x)


class CompositionModel(nn.Module):
    """Scores an image against every (attribute, object) pair through separate attribute and object embedders."""

    def __init__(self, feat_dim, n_attrs, n_objs, emb_dim=32):
        super().__init__()
        self.image_embedder_attr = MLP(feat_dim, emb_dim)
        self.image_embedder_obj = MLP(feat_dim, emb_dim)
        self.attr_emb = nn.Embedding(n_attrs, emb_dim)
        self.obj_emb = nn.Embedding(n_objs, emb_dim)

    def forward(self, img_feats):
        a = F.normalize(self.image_embedder_attr(img_feats), dim=-1)
        o = F.normalize(self.image_embedder_obj(img_feats), dim=-1)
        attr_logits = a @ F.normalize(self.attr_emb.weight, dim=-1).t()
        obj_logits = o @ F.normalize(self.obj_emb.weight, dim=-1).t()
        return attr_logits / 0.05, obj_logits / 0.05
