import torch
import torch.nn as nn

from trans import Transformer


class PoseLifter(nn.Module):
    """Flattened 2D keypoint sequences (B, F, J*2) to the centre frame's 3D pose (B, J*3)."""

    def __init__(self, frames=9, joints=17, channel=32):
        super().__init__()
        self.embedding = nn.Linear(2 * joints, channel)
        self.pos_embed = nn.Parameter(torch.zeros(1, frames, channel))
        self.temporal = Transformer(depth=2, embed_dim=channel)
        self.regress = nn.Linear(channel, 3 * joints)

    def forward(self, x):
        x = self.embedding(x) + self.pos_embed
        x = self.temporal(x)
        return self.regress(x[..., x.shape[-2] // 2, :])
