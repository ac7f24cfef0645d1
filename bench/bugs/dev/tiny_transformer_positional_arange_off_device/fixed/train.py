from dataclasses import dataclass

import torch
import torch.nn.functional as F

from model import TinyTransformer


@dataclass
class TrainConfig:
    vocab_size: int = 32
    seq_len: int = 10
    batch_size: int = 4
    steps: int = 5
    lr: float = 3e-4


def get_batch(cfg, device):
    data = torch.randint(0, cfg.vocab_size, (cfg.batch_size, cfg.seq_len + 1), device=device)
    return data[:, :-1], data[:, 1:]


def main(cfg=TrainConfig()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyTransformer(cfg.vocab_size).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        x, y = get_batch(cfg, device)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), y.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
