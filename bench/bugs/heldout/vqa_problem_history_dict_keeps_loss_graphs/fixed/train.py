import logging

import torch

from models import QuestionImageNet
from workers.trainer import OnlineTrainer


def sample_batches(n, batch_size=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [
        (
            torch.randn(batch_size, 20, generator=g),
            torch.randint(0, 50, (batch_size, 5), generator=g),
            torch.randint(0, 6, (batch_size,), generator=g),
        )
        for _ in range(n)
    ]


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = QuestionImageNet()
    trainer = OnlineTrainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    trainer.run(sample_batches(8), episodes=2)
    logging.info("final loss %.4f", trainer.history["loss"][-1])
