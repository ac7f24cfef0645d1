import torch.nn as nn
import torch.nn.functional as F

from config import PostnetConfig


class Postnet(nn.Module):
    """Residual conv stack that refines a coarse mel spectrogram, as in Tacotron 2."""

    def __init__(self, config: PostnetConfig):
        super().__init__()
        self.config = config
        layers = []
        in_ch = config.n_mels
        for i in range(config.n_layers):
            out_ch = config.n_mels if i == config.n_layers - 1 else config.channels
            layers.append(nn.Conv1d(in_ch, out_ch, config.kernel_size, padding=config.kernel_size // 2))
            if i < config.n_layers - 1:
                layers += [nn.BatchNorm1d(out_ch), nn.Tanh(), nn.Dropout(config.dropout)]
            in_ch = out_ch
        self.convs = nn.Sequential(*layers)

    def forward(self, mel):
        return mel + self.convs(mel)

    def train_step(self, batch, criterion):
        coarse, target = batch
        refined = self(coarse)
        return {"model_outputs": refined}, criterion(refined, target)


class PostnetLoss(nn.Module):
    def __init__(self, weights):
        super().__init__()
        self.weights = weights

    def forward(self, pred, target):
        l1 = F.l1_loss(pred, target)
        mse = F.mse_loss(pred, target)
        return {"l1_loss": l1, "mse_loss": mse, "loss": self.weights["l1"] * l1 + self.weights["mse"] * mse}
