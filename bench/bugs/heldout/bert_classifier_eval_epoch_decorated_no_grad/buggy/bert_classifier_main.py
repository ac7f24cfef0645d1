import logging

import torch
import torch.nn.functional as F

from model import TinyBertClassifier

logging.basicConfig(level=logging.INFO)


def make_batches(n, seed, batch_size=8, seq_len=12):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randint(1, 120, (batch_size, seq_len), generator=g), torch.randint(0, 2, (batch_size,), generator=g))
            for _ in range(n)]


def _train_epoch(model, optim, batches):
    model.train()
    for step, (input_ids, labels) in enumerate(batches):
        optim.zero_grad()
        loss = F.cross_entropy(model(input_ids), labels)
        loss.backward()
        optim.step()
        if step % 2 == 0:
            logging.info("step %d loss %.4f", step, loss.item())


@torch.no_grad()
def _eval_epoch(model, batches):
    model.eval()
    correct = total = 0
    for input_ids, labels in batches:
        preds = model(input_ids).argmax(dim=-1)
        correct += (preds == labels).sum().item()
        total += labels.numel()
    model.train()
    return correct / total


def main():
    torch.manual_seed(0)
    model = TinyBertClassifier()
    optim = torch.optim.AdamW(model.parameters(), lr=5e-4)
    train_batches, eval_batches = make_batches(4, 0), make_batches(2, 1)
    for epoch in range(2):
        _train_epoch(model, optim, train_batches)
        logging.info("epoch %d eval accuracy %.3f", epoch, _eval_epoch(model, eval_batches))


if __name__ == "__main__":
    main()
