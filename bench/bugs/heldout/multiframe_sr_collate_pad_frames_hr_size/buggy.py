import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

MAX_FRAMES = 6
SCALE = 3


class SceneDataset(Dataset):
    """Satellite scenes: a varying number of low-res revisits and one high-res target."""

    def __init__(self, n_scenes=8, lr_size=16):
        g = torch.Generator().manual_seed(0)
        self.scenes = []
        for i in range(n_scenes):
            n_frames = 3 + i % 4
            lrs = torch.rand(n_frames, lr_size, lr_size, generator=g)
            hr = torch.rand(1, lr_size * SCALE, lr_size * SCALE, generator=g)
            self.scenes.append((lrs, hr))

    def __len__(self):
        return len(self.scenes)

    def __getitem__(self, i):
        return self.scenes[i]


def collate_scenes(batch):
    lr_batch, mask_batch, hr_batch = [], [], []
    for lrs, hr in batch:
        n = lrs.shape[0]
        mask = torch.zeros(MAX_FRAMES)
        mask[:n] = 1.0
        if n < MAX_FRAMES:
            lrs = torch.cat([lrs, torch.zeros(MAX_FRAMES - n, *hr.shape[-2:])], dim=0)
        lr_batch.append(lrs[:MAX_FRAMES])
        mask_batch.append(mask)
        hr_batch.append(hr)
    return torch.stack(lr_batch), torch.stack(mask_batch), torch.stack(hr_batch)


class FusionSR(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.encode = nn.Conv2d(1, hidden, 3, padding=1)
        self.decode = nn.Sequential(nn.Conv2d(hidden, SCALE * SCALE, 3, padding=1), nn.PixelShuffle(SCALE))

    def forward(self, lrs, mask):
        b, k, h, w = lrs.shape
        feats = self.encode(lrs.reshape(b * k, 1, h, w)).reshape(b, k, -1, h, w)
        weights = mask[:, :, None, None, None]
        fused = (feats * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        return self.decode(fused)


def main():
    loader = DataLoader(SceneDataset(), batch_size=4, shuffle=True, collate_fn=collate_scenes)
    model = FusionSR()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for lrs, mask, hr in loader:
            sr = model(lrs, mask)
            loss = F.l1_loss(sr, hr)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
