import torch
import torch.nn as nn

from model import CharRNN

text = "the quick brown fox jumps over the lazy dog " * 20
chars = sorted(set(text))
char2idx = {c: i for i, c in enumerate(chars)}
encoded = torch.tensor([char2idx[c] for c in text])


def get_batch(seq_length=20, batch_size=8):
    starts = torch.randint(0, len(encoded) - seq_length - 1, (batch_size,))
    x = torch.stack([encoded[s:s + seq_length] for s in starts])
    y = torch.stack([encoded[s + 1:s + seq_length + 1] for s in starts])
    return x, y


model = CharRNN(len(chars))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
loss_fn = nn.CrossEntropyLoss()

for step in range(2):
    x, y = get_batch()
    state = model.init_hidden(x.size(1))
    y_hat, state = model(x, state)
    loss = loss_fn(y_hat.view(-1, len(chars)), y.view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
