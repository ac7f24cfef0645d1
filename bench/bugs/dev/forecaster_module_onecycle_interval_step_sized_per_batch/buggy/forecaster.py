import torch
import torch.nn as nn
import torch.nn.functional as F

from lite import LiteModule


class WindowForecaster(LiteModule):
    """Predicts the next `horizon` values of a load curve from the last `window` values."""

    def __init__(self, window, horizon, hidden, max_lr, epochs, steps_per_epoch):
        super().__init__()
        self.hparams = {"max_lr": max_lr, "epochs": epochs, "steps_per_epoch": steps_per_epoch}
        self.net = nn.Sequential(nn.Linear(window, hidden), nn.GELU(), nn.Dropout(0.1), nn.Linear(hidden, horizon))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.l1_loss(self(x), y)

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(self.parameters(), lr=self.hparams["max_lr"] / 25)
        scheduler = torch.optim.lr_scheduler.OneCycleLR(
            optimizer,
            max_lr=self.hparams["max_lr"],
            epochs=self.hparams["epochs"],
            steps_per_epoch=self.hparams["steps_per_epoch"],
        )
        return optimizer, {"scheduler": scheduler, "interval": "step"}
