import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from engine import test, train
from model import NeuralNetwork

torch.manual_seed(0)
training_data = TensorDataset(torch.rand(64, 1, 28, 28), torch.randint(0, 10, (64,)))
test_data = TensorDataset(torch.rand(32, 1, 28, 28), torch.randint(0, 10, (32,)))
train_dataloader = DataLoader(training_data, batch_size=16)
test_dataloader = DataLoader(test_data, batch_size=16)

model = NeuralNetwork()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

epochs = 3
for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")
