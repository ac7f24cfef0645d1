import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from prediction_head import TextClassificationHead

LABEL_LIST = ["business", "sports", "science", "world"]


class NewsDataset(Dataset):
    """Token ids and a label per example, as the processor writes them."""

    def __init__(self, n=32, seq_len=12, vocab=500):
        g = torch.Generator().manual_seed(1)
        self.input_ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = [LABEL_LIST[i] for i in torch.randint(0, len(LABEL_LIST), (n,), generator=g)]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        label_id = torch.tensor(LABEL_LIST.index(self.labels[idx]))
        return {
            "input_ids": self.input_ids[idx],
            "label_ids": label_id,
        }


class BagOfWordsEncoder(nn.Module):
    def __init__(self, vocab=500, dim=64):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")

    def forward(self, input_ids):
        return self.embed(input_ids)


class AdaptiveModel(nn.Module):
    def __init__(self, encoder, head):
        super().__init__()
        self.encoder = encoder
        self.head = head

    def forward(self, input_ids):
        return self.head(self.encoder(input_ids))


def train(model, loader, optimizer, epochs=2):
    for epoch in range(epochs):
        for batch in loader:
            logits = model(batch["input_ids"])
            per_sample = model.head.logits_to_loss(logits, batch["label_ids"])
            loss = per_sample.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AdaptiveModel(BagOfWordsEncoder(), TextClassificationHead(layer_dims=(64, len(LABEL_LIST))))
    loader = DataLoader(NewsDataset(), batch_size=8, shuffle=True)
    train(model, loader, torch.optim.AdamW(model.parameters(), lr=1e-3))
