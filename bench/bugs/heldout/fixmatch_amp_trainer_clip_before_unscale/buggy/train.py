import torch

from fixmatch import FixMatch
from model import SmallWideResNet


def weak_aug(x):
    return torch.flip(x, dims=[3]) if torch.rand(1).item() < 0.5 else x


def strong_aug(x):
    return (x + 0.3 * torch.randn_like(x)).clamp(-3, 3)


def main() -> None:
    torch.manual_seed(0)
    algo = FixMatch(SmallWideResNet(), threshold=0.5)
    x_lb, y_lb = torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))
    x_ulb = torch.randn(32, 3, 16, 16)
    for it in range(4):
        i, j = (it % 2) * 8, (it % 2) * 16
        u = x_ulb[j : j + 16]
        logs = algo.train_step(x_lb[i : i + 8], y_lb[i : i + 8], weak_aug(u), strong_aug(u))
        print(f"iter {it}: {logs}")


if __name__ == "__main__":
    main()
