import numpy as np
import torch

DEVICE = "mps"


def to_device(batch: np.ndarray) -> torch.Tensor:
    return torch.as_tensor(batch, dtype=torch.float32).to(DEVICE)


def discounted_returns(rewards: np.ndarray, gamma: float = 0.99) -> np.ndarray:
    out, running = np.zeros_like(rewards), 0.0
    for i in reversed(range(len(rewards))):
        running = rewards[i] + gamma * running
        out[i] = running
    return out


def main() -> None:
    rewards = np.random.default_rng(1).random(16)
    if not torch.backends.mps.is_available():
        print("MPS backend not available; this script targets Apple silicon")
        return
    returns = to_device(discounted_returns(rewards))
    print(returns.mean().item())


if __name__ == "__main__":
    main()
