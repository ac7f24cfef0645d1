import torch
import torch.nn as nn


class FrameClassifier(nn.Module):
    """Classifies every frame of a (batch, time, features) sequence."""

    def __init__(self, feat_dim, num_classes):
        super().__init__()
        self.fc = nn.Linear(feat_dim, num_classes)

    def forward(self, frames):
        B, T, D = frames.shape
        logits = self.fc(frames.view(B * T, D))
        return logits.view(B, T, -1)


class SpeechCommandNet(nn.Module):
    def __init__(self, n_mels=40, channels=64, num_classes=12):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, channels, kernel_size=5, padding=2), nn.BatchNorm1d(channels), nn.ReLU(),
            nn.Conv1d(channels, channels, kernel_size=5, padding=2), nn.BatchNorm1d(channels), nn.ReLU(),
        )
        self.classifier = FrameClassifier(channels, num_classes)

    def forward(self, mels):
        feats = self.conv(mels)
        return self.classifier(feats.transpose(1, 2))


if __name__ == "__main__":
    net = SpeechCommandNet()
    mels = torch.randn(3, 40, 50)
    labels = torch.randint(0, 12, (3, 50))
    logits = net(mels)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 12), labels.reshape(-1))
    loss.backward()
    print(loss.item())
