import argparse
import logging

import torch

from classy.dataset import ClassyDataset, SyntheticClips
from classy.model import AudioCNN
from classy.task import ClassificationTask


def main():
    parser = argparse.ArgumentParser(description="environmental sound classification")
    parser.add_argument("--num-epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args([])

    torch.manual_seed(0)
    dataset = ClassyDataset(SyntheticClips(), args.batch_size, shuffle=True)
    task = ClassificationTask(AudioCNN(), dataset, args.num_epochs)
    task.run()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
