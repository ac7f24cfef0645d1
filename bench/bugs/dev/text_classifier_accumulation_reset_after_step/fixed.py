import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ReviewDataset(Dataset):
    def __init__(self, n, seq_len=20, vocab=300, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        self.labels = (self.ids[:, :5].float().mean(1) > vocab / 2).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.labels[i]}


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=300, dim=32, num_labels=2):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids):
        return self.classifier(self.dropout(self.embed(input_ids)))


def train_one_epoch(model, loader, optimizer, scheduler, loss_function, accumulation_steps):
    model.train()
    model.zero_grad()
    for i, batch in enumerate(loader):
        predictions = model(batch["input_ids"])
        loss = loss_function(predictions, batch["labels"])
        loss = loss / accumulation_steps
        loss.backward()
        if (i + 1) % accumulation_steps == 0 or (i + 1) == len(loader):
            optimizer.step()
            scheduler.step()
            model.zero_grad()
    return loss.item() * accumulation_steps


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(ReviewDataset(120), batch_size=8, shuffle=True)
    model = BagOfEmbeddings()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1.0, end_factor=0.1, total_iters=20)
    for epoch in range(2):
        print(f"epoch {epoch} loss {train_one_epoch(model, loader, optimizer, scheduler, nn.CrossEntropyLoss(), 4):.3f}")
