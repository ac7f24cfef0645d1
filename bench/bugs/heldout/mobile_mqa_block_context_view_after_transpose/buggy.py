"""A mobile multi-query attention block on a feature map, trained on a toy classification task."""
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger("mqa")


class MultiQueryAttention2d(nn.Module):
    def __init__(self, channels, num_heads=4, key_dim=8):
        super().__init__()
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.scale = key_dim ** -0.5
        self.query_proj = nn.Conv2d(channels, num_heads * key_dim, 1, bias=False)
        self.key_proj = nn.Conv2d(channels, key_dim, 1, bias=False)
        self.value_proj = nn.Conv2d(channels, key_dim, 1, bias=False)
        self.output_proj = nn.Linear(num_heads * key_dim, channels, bias=False)

    def forward(self, x):
        batch_size, _, qx, qy = x.shape
        q = self.query_proj(x).view(batch_size, self.num_heads, self.key_dim, qx * qy).transpose(2, 3)
        k = self.key_proj(x).flatten(2).unsqueeze(1)
        v = self.value_proj(x).flatten(2).transpose(1, 2).unsqueeze(1)
        attn_score = (q @ k) * self.scale
        attn_score = attn_score.softmax(dim=-1)
        context = (attn_score @ v).transpose(1, 2)
        context = context.view(batch_size, qx, qy, self.num_heads * self.key_dim)
        output = self.output_proj(context)
        return x + output.permute(0, 3, 1, 2)


class TinyNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.mqa = MultiQueryAttention2d(16)
        self.head = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.mqa(self.stem(x))
        return self.head(x.mean(dim=(2, 3)))


def main(steps=2):
    torch.manual_seed(0)
    model = TinyNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        images = torch.randn(2, 3, 16, 16)
        labels = torch.randint(0, 4, (2,))
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
        logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
