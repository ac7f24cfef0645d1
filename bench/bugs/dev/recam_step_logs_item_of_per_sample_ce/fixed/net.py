import torch
import torch.nn as nn


class CAMNet(nn.Module):
    def __init__(self, n_classes=4, feat=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, feat, 3, padding=1), nn.ReLU(), nn.Conv2d(feat, feat, 3, padding=1))
        self.classifier = nn.Conv2d(feat, n_classes, 1, bias=False)
        self.recam_fc = nn.Linear(feat, n_classes)

    def forward(self, x, label_vec):
        feats = self.backbone(x)
        logits = self.classifier(feats).mean(dim=(2, 3))
        cams = torch.relu(self.classifier(feats))
        # one class-specific pooled feature per positive label
        b, c = label_vec.nonzero(as_tuple=True)
        weights = cams[b, c].flatten(1).softmax(-1)
        class_feats = torch.einsum("nk,nck->nc", weights, feats[b].flatten(2))
        return logits, self.recam_fc(class_feats), c
