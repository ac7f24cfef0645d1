import torch
from torch import nn


class TextEncoder(nn.Module):
    def __init__(self, vocab: int = 400, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.drop = nn.Dropout(0.5)
        self.out = nn.Linear(dim, 2)

    def forward(self, ids):
        return self.out(self.drop(self.embed(ids)))


class LitClassifier:
    """Hooks called by the loop below, as a LightningModule's are."""

    def __init__(self) -> None:
        self.net = TextEncoder()
        self.loss_fn = nn.CrossEntropyLoss()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.net.parameters(), lr=1e-3)

    def training_step(self, batch):
        ids, labels = batch
        return self.loss_fn(self.net(ids), labels)

    def on_validation_epoch_start(self):
        self.net.eval()

    def validation_step(self, batch):
        ids, labels = batch
        with torch.no_grad():
            return (self.net(ids).argmax(-1) == labels).float().mean().item()


def fit(module: LitClassifier, train_batches, val_batches, max_epochs: int = 3) -> None:
    optimizer = module.configure_optimizers()
    for epoch in range(max_epochs):
        for batch in train_batches:
            loss = module.training_step(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        module.on_validation_epoch_start()
        accs = [module.validation_step(b) for b in val_batches]
        print(epoch, sum(accs) / len(accs))


if __name__ == "__main__":
    make = lambda: (torch.randint(0, 400, (8, 12)), torch.randint(0, 2, (8,)))
    fit(LitClassifier(), [make() for _ in range(3)], [make() for _ in range(2)])
