import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import SentimentRNN

batch_size = 10
seq_length = 24
vocab_to_int_size = 500
clip = 5


def loaders():
    features = torch.randint(1, vocab_to_int_size, (40, seq_length))
    labels = torch.randint(0, 3, (40,))
    train = TensorDataset(features[:30], labels[:30])
    valid = TensorDataset(features[30:], labels[30:])
    return (DataLoader(train, shuffle=True, batch_size=batch_size, drop_last=True),
            DataLoader(valid, batch_size=batch_size, drop_last=True))


def main(epochs: int = 1) -> None:
    train_loader, valid_loader = loaders()
    net = SentimentRNN(vocab_to_int_size, output_size=3, embedding_dim=32, hidden_dim=48, n_layers=2)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=0.001)
    for e in range(epochs):
        h = net.init_hidden(batch_size)
        net.train()
        for inputs, labels in train_loader:
            h = tuple(each.data for each in h)
            net.zero_grad()
            output, h = net(inputs, h)
            loss = criterion(output, labels)
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), clip)
            optimizer.step()
        val_h = net.init_hidden(batch_size)
        net.eval()
        with torch.no_grad():
            val_losses = []
            for inputs, labels in valid_loader:
                output, val_h = net(inputs, val_h)
                val_losses.append(criterion(output, labels).item())
        print(f"epoch {e + 1}: loss {loss.item():.4f} val {sum(val_losses) / len(val_losses):.4f}")


if __name__ == "__main__":
    main()
