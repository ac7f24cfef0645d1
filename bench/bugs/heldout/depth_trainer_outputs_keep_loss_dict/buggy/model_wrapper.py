import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.Upsample(scale_factor=4, mode="bilinear", align_corners=False),
            nn.Conv2d(width * 2, 1, 3, padding=1), nn.Sigmoid(),
        )

    def forward(self, rgb):
        return self.decoder(self.encoder(rgb))


class SelfSupModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.depth_net = DepthNet()

    def forward(self, batch):
        inv_depth = self.depth_net(batch["rgb"])
        photometric = F.l1_loss(inv_depth * batch["rgb"].mean(1, keepdim=True), batch["rgb_context"].mean(1, keepdim=True))
        smoothness = (inv_depth[..., 1:] - inv_depth[..., :-1]).abs().mean()
        loss = photometric + 1e-3 * smoothness
        return {"loss": loss, "metrics": {"photometric": photometric.detach(), "smoothness": smoothness.detach()}}

    def training_epoch_end(self, outputs):
        avg_loss = torch.stack([o["loss"] for o in outputs]).mean()
        return {"avg_train-loss": avg_loss.item()}
