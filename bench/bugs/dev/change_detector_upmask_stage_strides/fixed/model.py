import torch
from torch import nn

from layers import ConvStage, MixingBlock, UpMask


class ChangeClassifier(nn.Module):
    def __init__(self, channels=(8, 16, 16), strides=(2, 2, 4)) -> None:
        super().__init__()
        stages, c_in = [], 3
        for c_out, s in zip(channels, strides):
            stages.append(ConvStage(c_in, c_out, s))
            c_in = c_out
        self._backbone = nn.ModuleList(stages)
        self._mixing = nn.ModuleList([MixingBlock(c, c) for c in channels])
        self._up = nn.ModuleList(
            [UpMask(strides[i], channels[i], channels[i - 1]) for i in range(len(channels) - 1, 0, -1)]
        )
        self._classify = nn.Sequential(nn.Upsample(scale_factor=strides[0]), nn.Conv2d(channels[0], 1, 1))

    def _encode(self, ref: torch.Tensor, test: torch.Tensor) -> list:
        features = []
        for stage, mix in zip(self._backbone, self._mixing):
            ref, test = stage(ref), stage(test)
            features.append(mix(ref, test))
        return features

    def _decode(self, features: list) -> torch.Tensor:
        upping = features[-1]
        for i, j in enumerate(range(len(features) - 2, -1, -1)):
            upping = self._up[i](upping, features[j])
        return upping

    def forward(self, ref: torch.Tensor, test: torch.Tensor) -> torch.Tensor:
        return self._classify(self._decode(self._encode(ref, test)))
