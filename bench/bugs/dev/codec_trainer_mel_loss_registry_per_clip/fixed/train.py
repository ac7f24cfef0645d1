import argparse
import logging

import torch

from config import CodecConfig
from data import batches, synthetic_clips
from losses import build_losses
from model import TinyCodec
from trainer import CodecTrainer

log = logging.getLogger("codec")


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    return parser.parse_args([])


def main():
    args = parse_args()
    cfg = CodecConfig()
    if args.steps is not None:
        cfg.steps = args.steps
    if args.lr is not None:
        cfg.lr = args.lr
    torch.manual_seed(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)

    model = TinyCodec(cfg.channels, cfg.latent, cfg.stride)
    trainer = CodecTrainer(model, build_losses(cfg.loss_weights), cfg.loss_weights, cfg.lr)
    clips = synthetic_clips(cfg.batch_size * cfg.steps, cfg.clip_len, cfg.sample_rate, gen)

    for audio in batches(clips, cfg.batch_size):
        out = trainer.train_step(audio)
        log.info("step %d loss %.4f grad %.2f", trainer.global_step, out["loss"].mean().item(),
                 out["grad_norm"].item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
