import argparse
import logging

import torch

from config import ProcessorConfig
from processor import RecognitionProcessor


def main():
    parser = argparse.ArgumentParser(description="skeleton action recognition")
    parser.add_argument("--loss", default=None, choices=["cross_entropy", "label_smoothing"])
    parser.add_argument("--num-epoch", type=int, default=None)
    args = parser.parse_args([])
    cfg = ProcessorConfig()
    if args.loss:
        cfg.loss = args.loss
    if args.num_epoch:
        cfg.num_epoch = args.num_epoch
    torch.manual_seed(cfg.seed)
    RecognitionProcessor(cfg).start()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
