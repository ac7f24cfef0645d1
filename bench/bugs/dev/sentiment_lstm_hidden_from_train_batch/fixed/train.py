import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import SentimentLSTM

CONFIG = {
    "vocab_size": 200,
    "embed_dim": 16,
    "hidden_dim": 32,
    "train_batch_size": 16,
    "test_batch_size": 8,
    "max_len": 20,
    "epochs": 1,
}


def make_loader(n: int, batch_size: int, shuffle: bool) -> DataLoader:
    text = torch.randint(1, CONFIG["vocab_size"], (n, CONFIG["max_len"]))
    labels = torch.randint(0, 2, (n,))
    return DataLoader(TensorDataset(text, labels), batch_size=batch_size, shuffle=shuffle)


def evaluate(net: nn.Module, loader: DataLoader) -> float:
    net.eval()
    correct = 0
    with torch.no_grad():
        for text, labels in loader:
            outputs = net(text)
            correct += (outputs.argmax(1) == labels).sum().item()
    return correct / len(loader.dataset)


def main() -> None:
    train_loader = make_loader(32, CONFIG["train_batch_size"], shuffle=True)
    test_loader = make_loader(16, CONFIG["test_batch_size"], shuffle=False)
    net = SentimentLSTM(CONFIG["vocab_size"], CONFIG["embed_dim"], CONFIG["hidden_dim"], CONFIG["train_batch_size"])
    criterion = nn.CrossEntropyLoss()
    optim = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(CONFIG["epochs"]):
        net.train()
        for text, labels in train_loader:
            optim.zero_grad()
            loss = criterion(net(text), labels)
            loss.backward()
            optim.step()
        print(f"epoch {epoch}: loss {loss.item():.3f} acc {evaluate(net, test_loader):.3f}")


if __name__ == "__main__":
    main()
