import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import HARNet


def sliding_windows(signal, labels, size, step):
    """Cut a (time, sensors) recording into (size, sensors) windows, labelled by their last sample."""
    starts = range(0, signal.shape[0] - size + 1, step)
    windows = torch.stack([signal[s:s + size] for s in starts])
    targets = torch.stack([labels[s + size - 1] for s in starts])
    return windows, targets


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=int, default=64)
    parser.add_argument("--step", type=int, default=32)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])

    recording = torch.randn(400, 6)
    activity = torch.randint(0, 6, (400,))
    windows, targets = sliding_windows(recording, activity, args.window, args.step)
    loader = DataLoader(TensorDataset(windows, targets), batch_size=args.batch_size, shuffle=True)

    model = HARNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(2):
        for batch, target in loader:
            logits = model(batch.transpose(1, 2))
            loss = F.cross_entropy(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
