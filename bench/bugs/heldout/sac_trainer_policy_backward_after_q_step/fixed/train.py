import torch

from networks import QFunction, TanhGaussianPolicy
from trainer import SACTrainer

OBS_DIM, ACT_DIM, BATCH = 6, 2, 32


def sample_batch():
    return (torch.randn(BATCH, OBS_DIM), torch.rand(BATCH, ACT_DIM) * 2 - 1, torch.randn(BATCH, 1),
            torch.randn(BATCH, OBS_DIM), torch.zeros(BATCH, 1))


def main():
    torch.manual_seed(0)
    trainer = SACTrainer(TanhGaussianPolicy(OBS_DIM, ACT_DIM), QFunction(OBS_DIM, ACT_DIM), QFunction(OBS_DIM, ACT_DIM))
    for epoch in range(3):
        trainer.train_from_torch(sample_batch())
        print(epoch, trainer.eval_statistics)


if __name__ == "__main__":
    main()
