import string

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

ALPHABET = string.digits + string.ascii_lowercase
CAPTCHA_LEN = 5


class CaptchaDataset(Dataset):
    def __init__(self, n=20, height=32, width=96):
        self.images = torch.rand(n, 1, height, width)
        self.labels = torch.randint(0, len(ALPHABET), (n, CAPTCHA_LEN))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class CaptchaNet(nn.Module):
    def __init__(self, num_chars=len(ALPHABET), length=CAPTCHA_LEN):
        super().__init__()
        self.length, self.num_chars = length, num_chars
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, length)),
        )
        self.classifier = nn.Linear(16, num_chars)

    def forward(self, x):
        f = self.features(x).squeeze(2).transpose(1, 2)
        return self.classifier(f)


def decode(indices):
    return "".join(ALPHABET[i] for i in indices.tolist())


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            output = model(images)
            pred_label = output[0].argmax(dim=-1)
            correct += 1 if pred_label == labels[0] else 0
    return correct / len(loader)


def main():
    model = CaptchaNet()
    train_loader = DataLoader(CaptchaDataset(), batch_size=4, shuffle=True)
    test_loader = DataLoader(CaptchaDataset(n=6), batch_size=1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        model.train()
        for images, labels in train_loader:
            logits = model(images)
            loss = criterion(logits.reshape(-1, model.num_chars), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: accuracy {evaluate(model, test_loader):.2f}")


if __name__ == "__main__":
    main()
