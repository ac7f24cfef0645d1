import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SentencePairClassifier(nn.Module):
    def __init__(self, vocab_size=100, dim=24, num_labels=2):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.classifier = nn.Sequential(nn.Linear(2 * dim, dim), nn.Tanh(), nn.Linear(dim, num_labels))

    def forward(self, sentence1, sentence2, labels=None):
        logits = self.classifier(torch.cat([self.embed(sentence1), self.embed(sentence2)], dim=-1))
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return loss, logits


def training_function(args):
    n = 48
    data = TensorDataset(torch.randint(0, 100, (n, 10)), torch.randint(0, 100, (n, 10)), torch.randint(0, 2, (n,)))
    train_dataloader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = SentencePairClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    num_training_steps = len(train_dataloader) * args.num_epochs // args.gradient_accumulation_steps
    lr_scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, 1.0, 0.1, total_iters=num_training_steps)
    for epoch in range(args.num_epochs):
        model.train()
        for step, (s1, s2, labels) in enumerate(train_dataloader):
            loss, _ = model(s1, s2, labels)
            loss = loss / args.gradient_accumulation_steps
            loss.backward()
            if (step + 1) % args.gradient_accumulation_steps == 0:
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
        print(f"epoch {epoch}: last loss {loss.item() * args.gradient_accumulation_steps:.4f}")


def main():
    parser = argparse.ArgumentParser(description="accumulate gradients over several batches")
    parser.add_argument("--gradient_accumulation_steps", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--num_epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-5)
    training_function(parser.parse_args([]))


if __name__ == "__main__":
    main()
