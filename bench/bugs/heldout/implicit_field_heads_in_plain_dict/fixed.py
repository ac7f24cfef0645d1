import torch
import torch.nn as nn
import torch.nn.functional as F


class ResMLP(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, out_dim)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        return self.out(h + F.relu(self.fc2(h)))


class ScaleAwareImplicitDecoder(nn.Module):
    """Local implicit image function with one decoding head per upscaling factor."""

    def __init__(self, feat_dim=16, out_dim=3, scales=(2, 3, 4)):
        super().__init__()
        self.encoder = nn.Conv2d(3, feat_dim, 3, padding=1)
        self.heads = nn.ModuleDict({str(s): ResMLP(feat_dim + 2, out_dim) for s in scales})
        self.coord_mlp = nn.Linear(2, 2)

    def forward(self, lr_image, coords, scale):
        feat = self.encoder(lr_image)
        sampled = F.grid_sample(feat, coords.unsqueeze(1), align_corners=False).squeeze(2).transpose(1, 2)
        rel = self.coord_mlp(coords)
        return self.heads[str(scale)](torch.cat([sampled, rel], dim=-1))


def main():
    torch.manual_seed(0)
    model = ScaleAwareImplicitDecoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(3):
        scale = (2, 3, 4)[it % 3]
        lr_image = torch.rand(2, 3, 12, 12)
        coords = torch.rand(2, 50, 2) * 2 - 1
        target_rgb = torch.rand(2, 50, 3)
        loss = F.l1_loss(model(lr_image, coords, scale), target_rgb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, scale, round(loss.item(), 4))


if __name__ == "__main__":
    main()
