import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
            nn.Conv2d(c_out, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        )


class UNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=2, base=8):
        super().__init__()
        self.inc = DoubleConv(n_channels, base)
        self.down = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base, base * 2))
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.conv = DoubleConv(base * 2, base)
        self.outc = nn.Conv2d(base, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        return self.outc(self.conv(torch.cat([x1, self.up(x2)], dim=1)))


def train_model(model, device, epochs, batch_size, learning_rate, amp, gradient_clipping=1.0):
    optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate, weight_decay=1e-8, momentum=0.999)
    grad_scaler = torch.amp.GradScaler(device.type, enabled=amp)
    criterion = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(0)
    for epoch in range(1, epochs + 1):
        model.train()
        for _ in range(2):
            images = torch.rand(batch_size, 3, 32, 32, generator=g).to(device)
            true_masks = torch.randint(0, 2, (batch_size, 32, 32), generator=g).to(device)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                masks_pred = model(images)
                loss = criterion(masks_pred.float(), true_masks)
                loss += 1 - F.softmax(masks_pred.float(), dim=1)[:, 1].mean()
            optimizer.zero_grad(set_to_none=True)
            grad_scaler.scale(loss).backward()
            grad_scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping)
            grad_scaler.step(optimizer)
            grad_scaler.update()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--amp", action="store_true", default=True)
    args = parser.parse_args([])
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = UNet().to(device)
    train_model(model, device, args.epochs, args.batch_size, args.lr, args.amp)
