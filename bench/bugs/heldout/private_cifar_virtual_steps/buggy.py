import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def convnet(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, num_classes),
    )


def backward_micro_batch(model, loss, n_accumulation_steps):
    model.zero_grad(set_to_none=True)
    (loss / n_accumulation_steps).backward()


def train(args, model, optimizer, batches):
    model.train()
    losses = []
    for i, (images, target) in enumerate(batches):
        output = model(images)
        loss = F.cross_entropy(output, target)
        backward_micro_batch(model, loss, args.n_accumulation_steps)
        if ((i + 1) % args.n_accumulation_steps == 0) or ((i + 1) == len(batches)):
            optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


def main():
    parser = argparse.ArgumentParser(description="CIFAR10 with large logical batches")
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--n-accumulation-steps", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = convnet()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    batches = [(torch.rand(args.batch_size, 3, 16, 16), torch.randint(0, 10, (args.batch_size,))) for _ in range(8)]
    for epoch in range(2):
        print(epoch, train(args, model, optimizer, batches))


if __name__ == "__main__":
    main()
