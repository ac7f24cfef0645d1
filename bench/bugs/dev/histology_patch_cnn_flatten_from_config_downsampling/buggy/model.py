import torch
import torch.nn as nn

from config import Config


def down_block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=4, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.LeakyReLU(0.2, inplace=True),
    )


class PatchClassifier(nn.Module):
    """Strided-conv encoder (each stage halves the patch) and an MLP head on the flattened map."""

    def __init__(self, cfg: Config):
        super().__init__()
        m = cfg.model
        chans = [3] + [m.width * 2 ** i for i in range(m.n_stages)]
        self.encoder = nn.Sequential(*[down_block(a, b) for a, b in zip(chans[:-1], chans[1:])])
        side = cfg.data.patch_size // 2 ** (m.n_stages + 1)
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(chans[-1] * side * side, m.hidden),
            nn.ReLU(inplace=True),
            nn.Dropout(m.dropout),
            nn.Linear(m.hidden, m.n_classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(x))
