import torch
from torch.utils.data import Dataset

import settings


class SyntheticCaptchas(Dataset):
    """Random glyph images with multi-hot labels, one block of len(CHARSET) per position."""

    def __init__(self, n, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 1, settings.IMAGE_HEIGHT, settings.IMAGE_WIDTH, generator=g)
        self.codes = torch.randint(0, len(settings.CHARSET), (n, settings.CAPTCHA_LEN), generator=g)

    def __len__(self):
        return len(self.codes)

    def __getitem__(self, i):
        label = torch.zeros(settings.CAPTCHA_LEN * len(settings.CHARSET))
        for pos, c in enumerate(self.codes[i].tolist()):
            label[pos * len(settings.CHARSET) + c] = 1.0
        return self.images[i], label


def decode(vector):
    chars = vector.view(settings.CAPTCHA_LEN, len(settings.CHARSET)).argmax(dim=1)
    return "".join(settings.CHARSET[c] for c in chars.tolist())
