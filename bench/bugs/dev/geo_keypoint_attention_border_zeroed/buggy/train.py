import argparse

import torch
import torch.nn as nn

from model import ViewEncoder


def get_args():
    parser = argparse.ArgumentParser("two-view geo-localisation")
    parser.add_argument("--n-classes", type=int, default=6)
    parser.add_argument("--polish", action="store_true", default=True)
    parser.add_argument("--epochs", type=int, default=2)
    return parser.parse_args([])


def main():
    args = get_args()
    torch.manual_seed(0)
    drone, satellite = ViewEncoder(args.n_classes, polish=args.polish), ViewEncoder(args.n_classes, polish=args.polish)
    params = list(drone.parameters()) + list(satellite.parameters())
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        img_d, img_s = torch.randn(4, 3, 16, 16), torch.randn(4, 3, 16, 16)
        labels = torch.randint(0, args.n_classes, (4,))
        loss = criterion(drone(img_d), labels) + criterion(satellite(img_s), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
