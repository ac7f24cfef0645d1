import torch
import torch.nn as nn
import torch.nn.functional as F

from model.attention import CrossViewAttention


def conv_bn_relu(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class MultiViewNet(nn.Module):
    """Encodes a downsampled global view and four local crops, fuses them with cross-view attention."""

    def __init__(self, dim=16):
        super().__init__()
        self.encoder = nn.Sequential(conv_bn_relu(3, dim, 2), conv_bn_relu(dim, dim, 2))
        self.fusion = CrossViewAttention(dim)
        self.head = nn.Conv2d(dim, 1, 1)
        for m in self.modules():
            if isinstance(m, nn.ReLU) or isinstance(m, nn.Dropout):
                m.inplace = True

    @staticmethod
    def split_patches(x):
        h, w = x.shape[-2:]
        return torch.cat([x[..., :h // 2, :w // 2], x[..., :h // 2, w // 2:],
                          x[..., h // 2:, :w // 2], x[..., h // 2:, w // 2:]], dim=0)

    def forward(self, img):
        b = img.shape[0]
        glb = self.encoder(F.interpolate(img, scale_factor=0.5, mode="bilinear", align_corners=False))
        loc = self.encoder(self.split_patches(img))
        c, gh, gw = glb.shape[1:]
        glb_tokens = glb.flatten(2).transpose(1, 2)
        loc_tokens = loc.flatten(2).transpose(1, 2).reshape(4, b, -1, c).transpose(0, 1).reshape(b, -1, c)
        fused = self.fusion(glb_tokens, loc_tokens).transpose(1, 2).reshape(b, c, gh, gw)
        return F.interpolate(self.head(fused), size=img.shape[-2:], mode="bilinear", align_corners=False)
