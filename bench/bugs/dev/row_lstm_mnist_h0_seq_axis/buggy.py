import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# hyper-parameters
input_size = 28
sequence_length = 28
hidden_size = 128
num_layers = 2
num_classes = 10
batch_size = 4
learning_rate = 0.001


class RNN(nn.Module):
    """Reads an image row by row: 28 time steps of 28 pixels."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int, num_classes: int) -> None:
        super().__init__()
        self.num_layers = num_layers
        self.hidden_size = hidden_size
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h0 = torch.zeros(self.num_layers, x.size(1), self.hidden_size)
        c0 = torch.zeros(self.num_layers, x.size(1), self.hidden_size)
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1, :])


images = torch.rand(16, 1, 28, 28)
labels = torch.randint(0, num_classes, (16,))
train_loader = DataLoader(TensorDataset(images, labels), batch_size=batch_size, shuffle=True)

model = RNN(input_size, hidden_size, num_layers, num_classes)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

for epoch in range(2):
    for i, (imgs, targets) in enumerate(train_loader):
        imgs = imgs.reshape(-1, sequence_length, input_size)
        outputs = model(imgs)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}, loss {loss.item():.4f}")
