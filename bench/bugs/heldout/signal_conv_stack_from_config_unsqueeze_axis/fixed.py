import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

config = [10, 64, 64, 64, 64]
batch_size = 4
epochs = 2
learning_rate = 0.001
kernel_size = 1


class NeuralNet(nn.Module):
    def __init__(self, config, n_out=3, kernel_size=1):
        super().__init__()
        self.layers = nn.ModuleList(
            nn.Sequential(nn.Conv1d(config[i], config[i + 1], kernel_size=kernel_size), nn.ReLU())
            for i in range(len(config) - 1)
        )
        self.layers.append(nn.Flatten())
        self.layers.append(nn.Linear(config[-1], n_out))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def loader(train_data, batch_size):
    inps = torch.as_tensor(train_data[0], dtype=torch.float32)
    tgts = torch.as_tensor(train_data[1])
    inps = torch.unsqueeze(inps, -1)
    return DataLoader(TensorDataset(inps, tgts), batch_size=batch_size, shuffle=True)


def train(model, train_dataloader):
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for signals, labels in train_dataloader:
            pred = model(signals)
            loss = loss_fn(pred, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    data = (torch.randn(20, 10).numpy(), torch.randint(0, 3, (20,)).numpy())
    train(NeuralNet(config, kernel_size=kernel_size), loader(data, batch_size))
