import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tagging import SentenceClassifier, WNUTDataset, collate
from tagging.data import TAGS


class Trainer:
    def __init__(self, model, train_dataset, args):
        self.model = model
        self.args = args
        self.num_labels = len(TAGS)
        self.loader = DataLoader(train_dataset, batch_size=args.batch_size, shuffle=True, collate_fn=collate)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)

    def training_step(self, batch):
        outputs = self.model(batch["input_ids"])
        loss = F.cross_entropy(outputs.view(-1, self.num_labels), batch["labels"].view(-1), ignore_index=-100)
        return loss

    def train(self):
        self.model.train()
        for epoch in range(self.args.epochs):
            running = 0.0
            for batch in self.loader:
                loss = self.training_step(batch)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                running += loss.item()
            print(f"epoch {epoch} loss {running / len(self.loader):.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=5e-4)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = SentenceClassifier(vocab_size=200, num_labels=len(TAGS))
    Trainer(model, WNUTDataset(), args).train()


if __name__ == "__main__":
    main()
