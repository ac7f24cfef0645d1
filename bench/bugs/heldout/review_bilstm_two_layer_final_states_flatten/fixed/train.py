import torch
import torch.nn as nn

from config import Config
from model import ReviewClassifier


def get_batches(cfg: Config, n_batches: int = 4):
    for _ in range(n_batches):
        tokens = torch.randint(0, cfg.vocab_size, (cfg.batch_size, cfg.seq_len))
        labels = torch.randint(0, cfg.num_classes, (cfg.batch_size,))
        yield tokens, labels


def main() -> None:
    torch.manual_seed(0)
    cfg = Config()
    model = ReviewClassifier(cfg)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        epoch_loss, epoch_acc = 0.0, 0.0
        for tokens, labels in get_batches(cfg):
            optimizer.zero_grad()
            predictions = model(tokens)
            loss = criterion(predictions, labels)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            epoch_acc += (predictions.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch}: loss {epoch_loss / 4:.3f} acc {epoch_acc / 4:.3f}")


if __name__ == "__main__":
    main()
