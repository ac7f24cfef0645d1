import argparse

import torch

from trainer import TrainLoop
from unet import SegDiffUNet


def load_brats_like(n_batches=2, batch_size=2, size=16, modalities=4):
    """BraTS-style volumes: four MRI modalities per slice and one tumour mask."""
    g = torch.Generator().manual_seed(0)
    return [(torch.rand(batch_size, modalities, size, size, generator=g),
             (torch.rand(batch_size, 1, size, size, generator=g) > 0.5).float() * 2 - 1) for _ in range(n_batches)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_name", default="BRATS")
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = SegDiffUNet()
    TrainLoop(model, load_brats_like(), lr=args.lr).run_loop()


if __name__ == "__main__":
    main()
