import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, inp_dim, out_dim, num_layers=2, relu=True):
        super().__init__()
        layers = []
        for _ in range(num_layers - 1):
            layers += [nn.Linear(inp_dim, inp_dim), nn.ReLU(inplace=True)]
        layers.append(nn.Linear(inp_dim, out_dim))
        if relu:
            layers.append(nn.ReLU(inplace=True))
        self.mod = nn.Sequential(*layers)

    def forward(self, x):
        return self.mod(x)


class CompositionNet(nn.Module):
    def __init__(self, num_attrs, num_objs, feat_dim=512, emb_dim=300):
        super().__init__()
        self.image_embedder_attr = MLP(feat_dim, emb_dim)
        self.image_embedder_obj = MLP(feat_dim, emb_dim)
        self.attr_emb = nn.Embedding(num_attrs, emb_dim)
        self.obj_emb = nn.Embedding(num_objs, emb_dim)

    def forward(self, x):
        img_attr = F.normalize(self.image_embedder_attr(x), dim=-1)
        img_obj = F.normalize(self.image_embedder_obj(x), dim=-1)
        attr_scores = img_attr @ F.normalize(self.attr_emb.weight, dim=-1).t()
        obj_scores = img_obj @ F.normalize(self.obj_emb.weight, dim=-1).t()
        return attr_scores, obj_scores
