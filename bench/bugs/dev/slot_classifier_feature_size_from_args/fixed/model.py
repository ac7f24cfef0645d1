import torch
import torch.nn.functional as F
from torch import nn


def backbone(channel: int) -> nn.Sequential:
    layers, c_in = [], 3
    for c_out in (8, 16, channel):
        layers += [nn.Conv2d(c_in, c_out, 3, stride=2, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()]
        c_in = c_out
    return nn.Sequential(*layers)


class SlotAttention(nn.Module):
    def __init__(self, num_slots: int, dim: int) -> None:
        super().__init__()
        self.slots = nn.Parameter(torch.randn(1, num_slots, dim) * 0.1)
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        q = self.to_q(self.slots).expand(inputs.size(0), -1, -1)
        k = self.to_k(inputs)
        attn = torch.softmax(q @ k.transpose(1, 2) / k.size(-1) ** 0.5, dim=-1)
        return attn.sum(dim=-1)


class SlotModel(nn.Module):
    def __init__(self, args) -> None:
        super().__init__()
        self.channel = args.channel
        self.feature_size = args.img_size // 8
        self.backbone = backbone(args.channel)
        self.conv1x1 = nn.Conv2d(args.channel, args.hidden_dim, 1)
        self.slot = SlotAttention(args.num_classes, args.hidden_dim)

    def forward(self, x: torch.Tensor, target=None):
        x = self.backbone(x)
        x = self.conv1x1(x.view(x.size(0), self.channel, self.feature_size, self.feature_size))
        x = F.relu(x).flatten(2).transpose(1, 2)
        logits = self.slot(x)
        if target is None:
            return logits
        return logits, [F.cross_entropy(logits, target)]
