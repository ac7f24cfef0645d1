import torch
from torch import nn

from lstm import LayerNormLSTM


class SequenceRegressor(nn.Module):
    def __init__(self, n_features=5, hidden=16):
        super().__init__()
        self.rnn = LayerNormLSTM(n_features, hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        hidden = self.rnn.init_hidden(x.size(0))
        out, _ = self.rnn(x, hidden)
        return self.head(out[:, -1])


def batches(n_batches=4, batch_size=4, seq_len=12, n_features=5):
    for _ in range(n_batches):
        x = torch.randn(batch_size, seq_len, n_features)
        yield x, x.sum(dim=(1, 2)).unsqueeze(1)


def main():
    torch.manual_seed(0)
    model = SequenceRegressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    for step, (x, y) in enumerate(batches()):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        print(f"step {step}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
