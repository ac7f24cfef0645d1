import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import Network

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def loaders(seed=0):
    g = torch.Generator().manual_seed(seed)
    train = TensorDataset(torch.randn(32, 3, 16, 16, generator=g), torch.randint(0, 10, (32,), generator=g))
    test = TensorDataset(torch.randn(16, 3, 16, 16, generator=g), torch.randint(0, 10, (16,), generator=g))
    return DataLoader(train, batch_size=8, shuffle=True), DataLoader(test, batch_size=8)


def testAccuracy(model, test_loader):
    model.eval()
    accuracy, total = 0.0, 0
    with torch.no_grad():
        for images, labels in test_loader:
            images, labels = images.to(device), labels.to(device)
            outputs = model(images)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            accuracy += (predicted == labels).sum().item()
    return 100 * accuracy / total


def train(model, train_loader, test_loader, num_epochs):
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001, weight_decay=0.0001)
    for epoch in range(num_epochs):
        model.train()
        running_loss = 0.0
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(images), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        accuracy = testAccuracy(model, test_loader)
        print(f"For epoch {epoch + 1} the test accuracy over the whole test set is {accuracy:.1f} %")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Network()
    print("The model will be running on", device, "device")
    model.to(device)
    train_loader, test_loader = loaders()
    train(model, train_loader, test_loader, num_epochs=2)
