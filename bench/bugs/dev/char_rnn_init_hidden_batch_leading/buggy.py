import torch
from torch import nn

idx2char = ["h", "i", "e", "l", "o"]
x_data = [[0, 1, 0, 2, 3, 3], [3, 4, 2, 0, 1, 3], [1, 2, 3, 4, 0, 0]]
y_data = [[1, 0, 2, 3, 3, 4], [4, 2, 0, 1, 3, 3], [2, 3, 4, 0, 0, 1]]


class CharRNN(nn.Module):
    def __init__(self, num_classes=5, hidden_size=8, num_layers=1):
        super().__init__()
        self.num_layers = num_layers
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(num_classes, hidden_size)
        self.rnn = nn.RNN(hidden_size, hidden_size, num_layers=num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def init_hidden(self, batch_size):
        return torch.zeros(batch_size, self.num_layers, self.hidden_size)

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.embedding(x), hidden)
        return self.fc(out), hidden


class Trainer:
    def __init__(self, model: CharRNN, lr=0.1):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def epoch(self, inputs, labels):
        hidden = self.model.init_hidden(inputs.size(0))
        outputs, _ = self.model(inputs, hidden)
        loss = self.criterion(outputs.reshape(-1, outputs.size(-1)), labels.reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), outputs.argmax(-1)


def main():
    torch.manual_seed(0)
    inputs, labels = torch.tensor(x_data), torch.tensor(y_data)
    trainer = Trainer(CharRNN())
    for epoch in range(5):
        loss, predicted = trainer.epoch(inputs, labels)
        print(epoch, round(loss, 3), "".join(idx2char[i] for i in predicted[0].tolist()))


if __name__ == "__main__":
    main()
