import torch
import torch.nn as nn


class SpectralNet(nn.Module):
    def __init__(self, bands=30, classes=9):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(bands, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5))
        self.classifier = nn.Linear(64, classes)

    def forward(self, x):
        return self.classifier(self.features(x))


@torch.no_grad()
def predict(model, pixels, batch_size=32):
    out = []
    for chunk in pixels.split(batch_size):
        out.append(model(chunk).argmax(dim=1))
    return torch.cat(out)


model = SpectralNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
train_x, train_y = torch.randn(96, 30), torch.randint(0, 9, (96,))
for epoch in range(2):
    model.train()
    loss = nn.functional.cross_entropy(model(train_x), train_y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

test_pixels = torch.randn(70, 30)
print(predict(model, test_pixels).bincount(minlength=9))
