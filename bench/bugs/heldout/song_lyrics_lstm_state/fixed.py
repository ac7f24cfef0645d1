import torch
import torch.nn as nn

VOCAB = list("abcdefghijklmnopqrstuvwxyz ,.\n")
char2idx = {c: i for i, c in enumerate(VOCAB)}


def vectorize(text):
    return torch.tensor([char2idx[c] for c in text if c in char2idx], dtype=torch.long)


def get_batch(vectorized, seq_length, batch_size, generator):
    starts = torch.randint(0, len(vectorized) - seq_length - 1, (batch_size,), generator=generator)
    x = torch.stack([vectorized[s:s + seq_length] for s in starts])
    y = torch.stack([vectorized[s + 1:s + seq_length + 1] for s in starts])
    return x, y


class LSTMModel(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, vocab_size)

    def init_hidden(self, batch_size, device):
        return (torch.zeros(1, batch_size, self.hidden_size, device=device),
                torch.zeros(1, batch_size, self.hidden_size, device=device))

    def forward(self, x, state=None, return_state=False):
        x = self.embedding(x)
        if state is None:
            state = self.init_hidden(x.size(0), x.device)
        out, state = self.lstm(x, state)
        out = self.fc(out)
        return (out, state) if return_state else out


def compute_loss(labels, logits):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))


params = dict(num_training_iterations=3, batch_size=8, seq_length=20, learning_rate=5e-3,
              embedding_dim=32, hidden_size=64)

if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    songs = vectorize("x:1\nt:the kesh jig\nm:6/8\nl:1/8\nk:g major\ngab d2e dbg, abc dba\n" * 30)
    model = LSTMModel(len(VOCAB), params["embedding_dim"], params["hidden_size"])
    optimizer = torch.optim.Adam(model.parameters(), lr=params["learning_rate"])
    for it in range(params["num_training_iterations"]):
        x_batch, y_batch = get_batch(songs, params["seq_length"], params["batch_size"], g)
        model.train()
        y_hat = model(x_batch)
        loss = compute_loss(y_batch, y_hat)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())
