"""Human-activity recognition: 1-D conv encoder + linear classifier, configured per dataset."""
import torch
from torch import nn


class ConvEncoder(nn.Module):
    def __init__(self, in_channels, mid_channels=32, final_out_channels=128, kernel_size=8, dropout=0.35):
        super().__init__()

        def block(c_in, c_out):
            return [
                nn.Conv1d(c_in, c_out, kernel_size=kernel_size, stride=1, padding=kernel_size // 2, bias=False),
                nn.BatchNorm1d(c_out),
                nn.ReLU(),
                nn.MaxPool1d(kernel_size=2, stride=2, padding=1),
            ]

        self.net = nn.Sequential(
            *block(in_channels, mid_channels),
            nn.Dropout(dropout),
            *block(mid_channels, mid_channels * 2),
            *block(mid_channels * 2, final_out_channels),
        )

    def forward(self, x):
        return self.net(x)


class Classifier(nn.Module):
    def __init__(self, features_len, final_out_channels, num_classes):
        super().__init__()
        self.logits = nn.Linear(features_len * final_out_channels, num_classes)

    def forward(self, feats):
        return self.logits(feats.reshape(feats.shape[0], -1))


def main():
    window, channels, classes = 128, 9, 6
    encoder = ConvEncoder(in_channels=channels, final_out_channels=128)
    classifier = Classifier(features_len=18, final_out_channels=128, num_classes=classes)
    params = list(encoder.parameters()) + list(classifier.parameters())
    optimizer = torch.optim.Adam(params, lr=3e-4, betas=(0.9, 0.99), weight_decay=3e-4)

    signals = torch.randn(64, channels, window)
    labels = torch.randint(0, classes, (64,))
    for start in range(0, 32, 16):
        x, y = signals[start:start + 16], labels[start:start + 16]
        feats = encoder(x)
        logits = classifier(feats)
        loss = nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {start // 16}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
