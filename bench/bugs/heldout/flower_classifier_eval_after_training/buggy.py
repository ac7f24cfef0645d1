import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

n_epochs = 3
classes = ["daisy", "dandelion", "roses", "sunflowers", "tulips"]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(16 * 8 * 8, 64)
        self.fc2 = nn.Linear(64, len(classes))
        self.dropout = nn.Dropout(0.25)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 8 * 8)
        x = self.dropout(F.relu(self.fc1(x)))
        return self.fc2(self.dropout(x))


def loader(n, shuffle):
    return DataLoader(TensorDataset(torch.rand(n, 3, 32, 32), torch.randint(0, len(classes), (n,))), batch_size=8, shuffle=shuffle)


model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
train_loader, test_loader = loader(32, True), loader(16, False)

for epoch in range(1, n_epochs + 1):
    train_loss = 0.0
    for data, target in train_loader:
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
        train_loss += loss.item() * data.size(0)
    print(f"Epoch: {epoch} \tTraining Loss: {train_loss / len(train_loader.dataset):.6f}")

# test the trained network once training is over
test_loss, class_correct, class_total = 0.0, [0.0] * len(classes), [0.0] * len(classes)
model.eval()
with torch.no_grad():
    for data, target in test_loader:
        output = model(data)
        test_loss += criterion(output, target).item() * data.size(0)
        pred = output.argmax(1)
        for label, ok in zip(target.tolist(), (pred == target).tolist()):
            class_correct[label] += ok
            class_total[label] += 1
print(f"Test Loss: {test_loss / len(test_loader.dataset):.6f}")
for i, name in enumerate(classes):
    if class_total[i] > 0:
        print(f"Test Accuracy of {name}: {100 * class_correct[i] / class_total[i]:.0f}%")
