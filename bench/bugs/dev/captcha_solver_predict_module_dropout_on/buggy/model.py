import torch.nn as nn

import settings


class CaptchaCNN(nn.Module):
    def __init__(self, num_chars=len(settings.CHARSET), captcha_len=settings.CAPTCHA_LEN):
        super().__init__()
        self.captcha_len = captcha_len
        self.num_chars = num_chars
        self.conv = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.Dropout(0.3), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.Dropout(0.3), nn.ReLU(), nn.MaxPool2d(2),
        )
        feat = 32 * (settings.IMAGE_HEIGHT // 4) * (settings.IMAGE_WIDTH // 4)
        self.fc = nn.Sequential(nn.Linear(feat, 256), nn.Dropout(0.5), nn.ReLU())
        self.rfc = nn.Linear(256, num_chars * captcha_len)

    def forward(self, x):
        out = self.conv(x).flatten(1)
        return self.rfc(self.fc(out))
