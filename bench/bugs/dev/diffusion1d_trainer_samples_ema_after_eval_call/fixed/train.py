import argparse
import logging

import torch

from diffusion1d.gaussian import GaussianDiffusion1D
from diffusion1d.trainer import Trainer1D
from diffusion1d.unet import Unet1D


def sine_dataset(n, seq_len, generator):
    t = torch.linspace(0, 1, seq_len)
    freq = 1 + 4 * torch.rand(n, 1, generator=generator)
    phase = 6.28 * torch.rand(n, 1, generator=generator)
    return torch.sin(6.28 * freq * t + phase).unsqueeze(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seq-len", type=int, default=32)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args([])
    torch.manual_seed(0)
    dataset = sine_dataset(64, args.seq_len, torch.Generator().manual_seed(0))
    trainer = Trainer1D(Unet1D(), GaussianDiffusion1D(), dataset, train_num_steps=args.steps)
    trainer.train()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
