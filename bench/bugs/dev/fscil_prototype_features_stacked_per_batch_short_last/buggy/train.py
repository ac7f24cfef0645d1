import argparse
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from helper import base_train, replace_base_fc
from model import IncrementalNet


def get_session_data(n_per_class, classes, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    xs, ys = [], []
    for c in classes:
        centre = torch.randn(3, 1, 1, generator=g)
        xs.append(centre + 0.5 * torch.randn(n_per_class, 3, size, size, generator=g))
        ys.append(torch.full((n_per_class,), c))
    return TensorDataset(torch.cat(xs), torch.cat(ys))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-class", type=int, default=6)
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--shots-base", type=int, default=15)
    parser.add_argument("--batch-size-base", type=int, default=32)
    parser.add_argument("--epochs-base", type=int, default=1)
    parser.add_argument("--lr-base", type=float, default=0.05)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)

    model = IncrementalNet(num_classes=args.num_classes)
    base_classes = list(range(args.base_class))
    trainset = get_session_data(args.shots_base, base_classes)
    trainloader = DataLoader(trainset, batch_size=args.batch_size_base, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr_base, momentum=0.9)
    for epoch in range(args.epochs_base):
        base_train(model, trainloader, optimizer, epoch)

    # prototypes of the base classes, from the un-augmented training data
    protoloader = DataLoader(trainset, batch_size=args.batch_size_base, shuffle=False)
    replace_base_fc(model, protoloader, base_classes)
    logging.info("base session done: %d prototypes written", len(base_classes))


if __name__ == "__main__":
    main()
