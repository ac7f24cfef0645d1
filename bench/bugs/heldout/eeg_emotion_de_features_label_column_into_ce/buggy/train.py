import torch
import torch.nn as nn
from torch.utils.data import DataLoader, random_split

from dataset import BANDS, SeedDEDataset


class ChannelBandNet(nn.Module):
    def __init__(self, n_channels: int = 62, n_bands: int = len(BANDS), n_classes: int = 3):
        super().__init__()
        self.band_mix = nn.Linear(n_bands, 8)
        self.channel_mix = nn.Sequential(nn.Flatten(), nn.Linear(n_channels * 8, 64), nn.ELU(), nn.Dropout(0.25))
        self.out = nn.Linear(64, n_classes)

    def forward(self, de):
        return self.out(self.channel_mix(torch.relu(self.band_mix(de))))


class EmotionTrainer:
    def __init__(self, model: ChannelBandNet, lr: float = 1e-3):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)

    def step(self, features, labels):
        self.model.train()
        logits = self.model(features)
        loss = self.criterion(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def accuracy(self, loader):
        self.model.eval()
        hits = sum((self.model(x).argmax(1) == y.view(-1)).sum().item() for x, y in loader)
        return hits / len(loader.dataset)


if __name__ == "__main__":
    train_set, test_set = random_split(SeedDEDataset(), [96, 24], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=16, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=24)
    trainer = EmotionTrainer(ChannelBandNet())
    for epoch in range(3):
        losses = [trainer.step(x, y) for x, y in train_loader]
        print(f"epoch {epoch} loss {sum(losses) / len(losses):.3f} test acc {trainer.accuracy(test_loader):.2f}")
