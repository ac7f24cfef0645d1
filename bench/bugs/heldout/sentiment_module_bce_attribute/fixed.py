import torch
import torch.nn as nn


class BagOfWordsClassifier(nn.Module):
    def __init__(self, vocab_size=2000, embed_dim=32):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean")
        self.fc = nn.Linear(embed_dim, 1)

    def forward(self, tokens):
        return self.fc(self.embedding(tokens))


class SentimentModule:
    """Holds the model, its loss and its optimizer, as a Lightning module would."""

    def __init__(self, lr=5e-3):
        self.model = BagOfWordsClassifier()
        self.loss_fn = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def step(self, batch):
        tokens, labels = batch
        logits = self.model(tokens)
        return self.loss_fn(logits.squeeze(1), labels)

    def train_epoch(self, batches):
        for batch in batches:
            loss = self.step(batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    batches = [(torch.randint(0, 2000, (16, 40)), torch.randint(0, 2, (16,)).float()) for _ in range(3)]
    module = SentimentModule()
    print("last loss", module.train_epoch(batches))
