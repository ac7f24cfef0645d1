import torch.nn as nn

from models.backbones import BACKBONES
from models.heads import UpsampleDecoder


class Segmenter(nn.Module):
    def __init__(self, encoder: nn.Module, decoder: UpsampleDecoder) -> None:
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, images):
        feats = self.encoder(images)
        return self.decoder(feats, images.shape[-2:])


def build_segmenter(backbone: str = "wide", num_classes: int = 6, in_channels: int = 4) -> Segmenter:
    if backbone not in BACKBONES:
        raise ValueError(f"unknown backbone {backbone!r}, choose from {sorted(BACKBONES)}")
    encoder = BACKBONES[backbone](in_channels=in_channels)
    decoder = UpsampleDecoder(num_classes)
    return Segmenter(encoder, decoder)
