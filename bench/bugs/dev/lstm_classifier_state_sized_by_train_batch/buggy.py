import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

VOCAB, EMBED, HIDDEN, CLASSES = 500, 32, 48, 3
BATCH_SIZE = 16


class LSTMClassifier(nn.Module):
    def __init__(self, batch_size, output_size, hidden_size, vocab_size, embedding_dim):
        super().__init__()
        self.batch_size = batch_size
        self.hidden_size = hidden_size
        self.embed = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_size)
        self.label = nn.Linear(hidden_size, output_size)

    def forward(self, input_sentence):
        embedded = self.embed(input_sentence)
        inputs = embedded.permute(1, 0, 2)
        h_0 = torch.zeros(1, self.batch_size, self.hidden_size)
        c_0 = torch.zeros(1, self.batch_size, self.hidden_size)
        output, (final_hidden, final_cell) = self.lstm(inputs, (h_0, c_0))
        return self.label(final_hidden[-1])


def make_split(n, seq_len, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, VOCAB, (n, seq_len), generator=g)
    labels = tokens[:, 0] % CLASSES
    return tokens, labels


def train(model, loader, epochs=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for tokens, labels in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(tokens), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


def evaluate(model, tokens, labels):
    model.eval()
    with torch.no_grad():
        preds = model(tokens).argmax(dim=1)
    return (preds == labels).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    train_x, train_y = make_split(64, 12, seed=0)
    test_x, test_y = make_split(20, 12, seed=1)
    model = LSTMClassifier(BATCH_SIZE, CLASSES, HIDDEN, VOCAB, EMBED)
    train(model, DataLoader(TensorDataset(train_x, train_y), batch_size=BATCH_SIZE, shuffle=True, drop_last=True))
    print(f"test accuracy {evaluate(model, test_x, test_y):.3f}")
