import torch
from torch.utils.data import DataLoader, TensorDataset

from metrics import binary_accuracy, running_mean
from model import SpamDetector

features = torch.randn(64, 50)
labels = (features[:, 0] > 0).float()
loader = DataLoader(TensorDataset(features, labels), batch_size=32, shuffle=True)

model = SpamDetector()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = torch.nn.BCEWithLogitsLoss()
history = []
for epoch in range(2):
    for x, y in loader:
        logits = model(x)
        loss = criterion(logits.squeeze(1), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(binary_accuracy(logits, y))
    print(f"epoch {epoch}: accuracy {running_mean(history):.3f}")
