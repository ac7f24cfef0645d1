import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class CaptchaNet(nn.Module):
    def __init__(self, n_chars=36):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(32 * 16, n_chars)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def validate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for images, labels in loader:
            outputs = model(images)
            correct += (outputs.argmax(1) == labels).sum().item()
            total += labels.size(0)
    return correct / total


def train(model, loader, epochs=1):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        model.train()
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    data = TensorDataset(torch.rand(64, 1, 24, 24), torch.randint(0, 36, (64,)))
    train_loader = DataLoader(data, batch_size=16, shuffle=True)
    test_loader = DataLoader(data, batch_size=32)
    net = CaptchaNet()
    train(net.to(device), train_loader)
    print(f"accuracy {validate(net.to(device), test_loader):.3f}")
