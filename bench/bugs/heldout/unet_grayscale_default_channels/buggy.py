import torch
from torch import nn
from torch.nn import functional as F


class DoubleConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.BatchNorm2d(out_ch), nn.ReLU(inplace=True),
            nn.Conv2d(out_ch, out_ch, 3, padding=1), nn.BatchNorm2d(out_ch), nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.net(x)


class SmallUNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=1, width=16):
        super().__init__()
        self.inc = DoubleConv(n_channels, width)
        self.down = DoubleConv(width, width * 2)
        self.up = nn.ConvTranspose2d(width * 2, width, 2, stride=2)
        self.dec = DoubleConv(width * 2, width)
        self.outc = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(F.max_pool2d(x1, 2))
        x = self.dec(torch.cat([x1, self.up(x2)], dim=1))
        return self.outc(x)


def load_scans(n=6, size=64):
    """CT slices: one intensity channel, with binary lesion masks."""
    scans = torch.rand(n, 1, size, size)
    masks = (torch.rand(n, 1, size, size) > 0.9).float()
    return scans, masks


def train_net(net, epochs=1, batch_size=2, lr=1e-3):
    scans, masks = load_scans()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=lr, weight_decay=1e-8, momentum=0.9)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        net.train()
        for i in range(0, len(scans), batch_size):
            imgs, true_masks = scans[i:i + batch_size], masks[i:i + batch_size]
            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}")


if __name__ == "__main__":
    net = SmallUNet()
    train_net(net)
