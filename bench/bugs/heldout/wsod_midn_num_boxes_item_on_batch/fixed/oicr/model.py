import torch
import torch.nn as nn
import torch.nn.functional as F


class ProposalHead(nn.Module):
    """Pools a feature per proposal box from the backbone map (mean over the box, on a coarse grid)."""

    def __init__(self, channels, hidden):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(channels + 4, hidden), nn.ReLU(), nn.Dropout(0.2))

    def forward(self, feat, rois):
        pooled = feat.mean(dim=(2, 3)).unsqueeze(1).expand(-1, rois.size(1), -1)
        return self.fc(torch.cat([pooled, rois], dim=-1))


class OICR(nn.Module):
    """Multiple-instance detection network with online instance classifier refinement (one refinement stage)."""

    def __init__(self, num_classes, channels=16, hidden=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, channels, 3, stride=2, padding=1), nn.ReLU())
        self.head = ProposalHead(channels, hidden)
        self.midn_cls = nn.Linear(hidden, num_classes)
        self.midn_det = nn.Linear(hidden, num_classes)
        self.refine = nn.Linear(hidden, num_classes + 1)

    def forward(self, im_data, rois, labels, num_boxes):
        nb = int(num_boxes[:, 0].max().item())
        rois = rois[:, :nb]
        feats = self.head(self.backbone(im_data), rois)
        cls_prob = F.softmax(self.midn_cls(feats), dim=2) * F.softmax(self.midn_det(feats), dim=1)
        image_prob = cls_prob.sum(dim=1).clamp(1e-6, 1 - 1e-6)
        midn_loss = F.binary_cross_entropy(image_prob, labels)
        refine_logits = self.refine(feats)
        with torch.no_grad():
            pseudo = cls_prob.argmax(dim=2) + 1
        refine_loss = F.cross_entropy(refine_logits.flatten(0, 1), pseudo.flatten())
        return midn_loss, refine_loss, cls_prob
