import torch
import torch.nn as nn
import torch.nn.functional as F

IMAGENET_MEAN = torch.tensor([0.485, 0.456, 0.406])
IMAGENET_STD = torch.tensor([0.229, 0.224, 0.225])


def normalize(images):
    return (images - IMAGENET_MEAN[:, None, None]) / IMAGENET_STD[:, None, None]


def instance_standardize(features, eps=1e-5):
    mean = features.mean(dim=(2, 3), keepdim=True)
    std = features.std(dim=(2, 3), keepdim=True)
    return (features - mean) / (std + eps)


def pairwise_sq_dists(a, b):
    return (a[:, None, :] - b[None, :, :]).pow(2).sum(-1)


class StyleEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(3, dim, 3, stride=2, padding=1)

    def forward(self, images):
        feats = instance_standardize(F.relu(self.conv(normalize(images))))
        return feats.mean(dim=(2, 3))


def main():
    torch.manual_seed(0)
    encoder = StyleEncoder()
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    for step in range(3):
        anchors, positives = torch.rand(6, 3, 24, 24), torch.rand(6, 3, 24, 24)
        za, zp = encoder(anchors), encoder(positives)
        logits = -pairwise_sq_dists(za, zp)
        loss = F.cross_entropy(logits, torch.arange(6))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
