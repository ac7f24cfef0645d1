import logging

import torch

from config import get_parser
from data import build_loader
from trainer import VAETrainer
from vae import FrameVAE


def main():
    args = get_parser().parse_args([])
    torch.manual_seed(args.seed)
    loader = build_loader(args, torch.Generator().manual_seed(args.seed))
    model = FrameVAE(args.latent_channels)
    trainer = VAETrainer(model, args.lr, args.kl_weight, args.accumulate_grad_batches)
    trainer.fit(loader, args.epochs)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
