import torch.nn as nn

from layers import MixerLayer


class PatchMixer(nn.Module):
    def __init__(self, image_size=16, patch=4, dim=32, depth=2, num_classes=5):
        super().__init__()
        self.num_tokens = (image_size // patch) ** 2
        self.embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.layers = nn.ModuleList([MixerLayer(self.num_tokens, dim) for _ in range(depth)])
        self.head = nn.Linear(dim, num_classes)

    def forward(self, images):
        x = self.embed(images).flatten(2).transpose(1, 2)
        for layer in self.layers:
            x = layer(x)
        return self.head(x.mean(dim=1))
