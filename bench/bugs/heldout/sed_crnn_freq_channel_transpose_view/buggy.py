"""Sound event detection: a CRNN over log-mel patches, frame-level multi-label targets."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

N_MELS, N_FRAMES, N_CLASSES = 64, 100, 10


class ConvBlock(nn.Module):
    def __init__(self, cin, cout, pool):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)
        self.pool = nn.MaxPool2d((pool, 1))

    def forward(self, x):
        return self.pool(torch.relu(self.bn(self.conv(x))))


class CRNN(nn.Module):
    def __init__(self, n_mels=N_MELS, n_classes=N_CLASSES, channels=(16, 32, 32), pools=(4, 2, 2), rnn_hidden=64):
        super().__init__()
        blocks, cin, freq = [], 1, n_mels
        for cout, pool in zip(channels, pools):
            blocks.append(ConvBlock(cin, cout, pool))
            cin, freq = cout, freq // pool
        self.cnn = nn.Sequential(*blocks)
        self.rnn = nn.GRU(cin * freq, rnn_hidden, batch_first=True, bidirectional=True)
        self.frame_head = nn.Linear(2 * rnn_hidden, n_classes)

    def forward(self, mel):
        x = self.cnn(mel.unsqueeze(1))
        batch, _, _, frames = x.shape
        x = x.transpose(1, 3).view(batch, frames, -1)
        x, _ = self.rnn(x)
        return self.frame_head(x)


class SyntheticSED(Dataset):
    def __init__(self, n=40):
        g = torch.Generator().manual_seed(0)
        self.mels = torch.randn(n, N_MELS, N_FRAMES, generator=g)
        self.labels = (torch.rand(n, N_FRAMES, N_CLASSES, generator=g) > 0.9).float()

    def __len__(self):
        return len(self.mels)

    def __getitem__(self, i):
        return self.mels[i], self.labels[i]


def main():
    model = CRNN()
    loader = DataLoader(SyntheticSED(), batch_size=8, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(2):
        for mel, target in loader:
            logits = model(mel)
            loss = criterion(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} bce {loss.item():.4f}")


if __name__ == "__main__":
    main()
