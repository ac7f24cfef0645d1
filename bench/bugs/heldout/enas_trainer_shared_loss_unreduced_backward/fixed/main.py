import argparse

import torch

from trainer import Trainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shared_lr", type=float, default=0.5)
    parser.add_argument("--controller_lr", type=float, default=3.5e-4)
    parser.add_argument("--shared_grad_clip", type=float, default=0.25)
    parser.add_argument("--max_epoch", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    batches = [(torch.randint(0, 60, (4, 10)), torch.randint(0, 60, (4, 10))) for _ in range(3)]
    Trainer(args).train(batches, batches[0])


if __name__ == "__main__":
    main()
