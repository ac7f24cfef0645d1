import argparse
import time

import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def profile(model: nn.Module, input_shape: tuple, batch: int, repeats: int = 3) -> dict:
    dummy_input = torch.randn(batch, *input_shape)
    model.eval()
    timings = []
    with torch.no_grad():
        for _ in range(repeats):
            start = time.perf_counter()
            out = model(dummy_input)
            timings.append(time.perf_counter() - start)
    params = sum(p.numel() for p in model.parameters())
    return {"output": tuple(out.shape), "params": params, "ms": 1000 * min(timings)}


def main() -> None:
    parser = argparse.ArgumentParser(description="report the shapes and cost of a model")
    parser.add_argument("--size", type=int, default=21)
    parser.add_argument("--batch", type=int, default=6)
    args = parser.parse_args([])
    input_shape = (3, args.size, args.size)
    print(profile(Net(), input_shape, args.batch))


if __name__ == "__main__":
    main()
