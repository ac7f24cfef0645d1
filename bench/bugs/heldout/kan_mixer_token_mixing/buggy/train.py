import torch
from torch import nn

from kan import KANLinear


class MixerBlock(nn.Module):
    """MLP-Mixer block with KAN layers: mix across tokens, then across channels."""

    def __init__(self, num_tokens, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mix = KANLinear(num_tokens, num_tokens)
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mix = KANLinear(dim, dim)

    def forward(self, x):
        y = self.norm1(x).transpose(1, 2)
        x = x + self.token_mix(y).transpose(1, 2)
        return x + self.channel_mix(self.norm2(x))


class KANMixer(nn.Module):
    def __init__(self, image_size=16, patch=4, dim=16, depth=2, num_classes=10):
        super().__init__()
        num_tokens = (image_size // patch) ** 2
        self.patchify = nn.Conv2d(1, dim, patch, stride=patch)
        self.blocks = nn.Sequential(*[MixerBlock(num_tokens, dim) for _ in range(depth)])
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images):
        x = self.patchify(images).flatten(2).transpose(1, 2)
        x = self.blocks(x)
        return self.head(x.mean(dim=1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = KANMixer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(3):
        images, labels = torch.rand(8, 1, 16, 16) * 2 - 1, torch.randint(0, 10, (8,))
        loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
