import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

SEQ_LEN = 20
VOCAB = 300


class WordLSTM(nn.Module):
    def __init__(self, vocab: int = VOCAB, embed: int = 64, hidden: int = 96, layers: int = 2) -> None:
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.embedding = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, layers, batch_first=True, dropout=0.2)
        self.fc = nn.Linear(hidden, vocab)

    def forward(self, x: torch.Tensor, hc):
        out, hc = self.lstm(self.embedding(x), hc)
        return self.fc(out), hc

    def init_hidden(self, batch_size: int):
        return (torch.zeros(self.layers, batch_size, self.hidden), torch.zeros(self.layers, batch_size, self.hidden))


def make_loader(batch_size: int) -> DataLoader:
    text = torch.randint(0, VOCAB, (64 * SEQ_LEN + 1,))
    xs = text[:-1].view(-1, SEQ_LEN)
    ys = text[1:].view(-1, SEQ_LEN)
    return DataLoader(TensorDataset(xs, ys), batch_size=batch_size, shuffle=True, drop_last=True)


def train(epochs: int = 1, batch_size: int = 16) -> None:
    model = WordLSTM()
    loss_func = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        sh, sc = model.init_hidden(batch_size)
        for inputs, targets in make_loader(batch_size):
            output, (sh, sc) = model(inputs, (sh, sc))
            loss = loss_func(output.permute(0, 2, 1), targets)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5)
            optimizer.step()
            sh, sc = sh.detach(), sc.detach()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    train()
