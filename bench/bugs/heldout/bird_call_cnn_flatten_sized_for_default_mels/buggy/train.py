import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from config import AUDIO, MODEL, TRAIN, n_frames
from model import BirdCallCNN


class MelClips(Dataset):
    """Log-mel spectrograms of fixed-length clips, (1, n_mels, frames)."""

    def __init__(self, n: int, audio: dict, n_classes: int):
        g = torch.Generator().manual_seed(0)
        self.specs = torch.randn(n, 1, audio["n_mels"], n_frames(audio), generator=g)
        self.labels = torch.randint(0, n_classes, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.specs[i], self.labels[i]


def main():
    loader = DataLoader(MelClips(32, AUDIO, MODEL["n_classes"]), batch_size=TRAIN["batch_size"], shuffle=True)
    model = BirdCallCNN(MODEL["n_classes"], MODEL["channels"], n_frames=n_frames(AUDIO), dropout=MODEL["dropout"])
    optimizer = torch.optim.Adam(model.parameters(), lr=TRAIN["lr"])
    criterion = nn.CrossEntropyLoss()
    for epoch in range(TRAIN["epochs"]):
        model.train()
        for spec, label in loader:
            logits = model(spec)
            loss = criterion(logits, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
