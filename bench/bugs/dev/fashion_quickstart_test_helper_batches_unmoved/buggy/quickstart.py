import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from loops import test, train
from model import NeuralNetwork

BATCH_SIZE = 16
EPOCHS = 2


def fake_fashion_mnist(n, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 1, 28, 28, generator=g)
    labels = torch.randint(0, 10, (n,), generator=g)
    return TensorDataset(images, labels)


torch.manual_seed(0)
train_dataloader = DataLoader(fake_fashion_mnist(96, 0), batch_size=BATCH_SIZE, shuffle=True)
test_dataloader = DataLoader(fake_fashion_mnist(32, 1), batch_size=BATCH_SIZE)

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")

model = NeuralNetwork().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

for t in range(EPOCHS):
    print(f"Epoch {t + 1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer, device)
    test(test_dataloader, model, loss_fn)
print("Done!")
