import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

LOGGER = logging.getLogger(__name__)


class PatchCore(nn.Module):
    def __init__(self, backbone: nn.Module, layers=("layer2", "layer3"), patchsize: int = 3,
                 coreset_ratio: float = 0.1):
        super().__init__()
        self.backbone = backbone.eval()
        self.layers = tuple(layers)
        self.patchsize = patchsize
        self.coreset_ratio = coreset_ratio
        self.register_buffer("memory_bank", torch.empty(0))

    def _patchify(self, feature):
        """(B, C, H, W) -> (B*H*W, C): each location averaged over its patchsize x patchsize neighbourhood."""
        pad = self.patchsize // 2
        pooled = F.avg_pool2d(feature, self.patchsize, stride=1, padding=pad, count_include_pad=False)
        return pooled.permute(0, 2, 3, 1).reshape(-1, feature.shape[1])

    @torch.no_grad()
    def _embed(self, images):
        feats = self.backbone(images, return_layers=self.layers)
        ref_size = feats[self.layers[0]].shape[-2:]
        _features = []
        for name in self.layers:
            f = feats[name]
            if f.shape[-2:] != ref_size:
                f = F.interpolate(f, size=ref_size, mode="bilinear", align_corners=False)
            _features.append(self._patchify(f))
        features = torch.cat(_features, dim=1)
        return features.reshape(len(features), -1), ref_size

    @torch.no_grad()
    def fit(self, loader):
        bank = [self._embed(images)[0] for images, _ in loader]
        bank = torch.cat(bank)
        n_keep = max(1, int(len(bank) * self.coreset_ratio))
        idx = torch.randperm(len(bank))[:n_keep]
        self.memory_bank = bank[idx]
        LOGGER.info("memory bank: %d of %d patch features", n_keep, len(bank))

    @torch.no_grad()
    def predict(self, images):
        features, (h, w) = self._embed(images)
        dist = torch.cdist(features, self.memory_bank).min(dim=1).values
        patch_scores = dist.reshape(len(images), h, w)
        return patch_scores.flatten(1).max(dim=1).values, patch_scores
