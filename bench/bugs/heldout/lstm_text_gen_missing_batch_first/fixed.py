import torch
from torch import nn


class WordModel(nn.Module):
    def __init__(self, n_vocab):
        super().__init__()
        self.lstm_size = 64
        self.num_layers = 3
        self.embedding = nn.Embedding(num_embeddings=n_vocab, embedding_dim=self.lstm_size)
        self.lstm = nn.LSTM(
            input_size=self.lstm_size,
            hidden_size=self.lstm_size,
            num_layers=self.num_layers,
            dropout=0.2,
            batch_first=True,
        )
        self.fc = nn.Linear(self.lstm_size, n_vocab)

    def forward(self, x, prev_state):
        embed = self.embedding(x)
        output, state = self.lstm(embed, prev_state)
        return self.fc(output), state

    def init_state(self, batch_size):
        return (torch.zeros(self.num_layers, batch_size, self.lstm_size),
                torch.zeros(self.num_layers, batch_size, self.lstm_size))


def train(words, n_vocab, batch_size=5, sequence_length=12, max_epochs=1):
    model = WordModel(n_vocab)
    model.train()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    for epoch in range(max_epochs):
        state_h, state_c = model.init_state(batch_size)
        for start in range(0, 2 * batch_size * sequence_length, batch_size * sequence_length):
            chunk = words[start:start + batch_size * (sequence_length + 1)].view(batch_size, sequence_length + 1)
            x, y = chunk[:, :-1], chunk[:, 1:]
            y_pred, (state_h, state_c) = model(x, (state_h, state_c))
            loss = criterion(y_pred.transpose(1, 2), y)
            state_h, state_c = state_h.detach(), state_c.detach()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print({"epoch": epoch, "loss": loss.item()})


if __name__ == "__main__":
    train(torch.randint(0, 300, (1000,)), n_vocab=300)
