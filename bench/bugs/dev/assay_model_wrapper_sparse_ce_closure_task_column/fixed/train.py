import argparse
import logging

import torch

from molkit.data import make_assay_dataset
from molkit.losses import SparseSoftmaxCrossEntropy
from molkit.models import MultitaskClassifier, TorchModel


def parse_args():
    parser = argparse.ArgumentParser(description="single-task assay classifier")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--n-classes", type=int, default=3)
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    dataset = make_assay_dataset(n_classes=args.n_classes)
    net = MultitaskClassifier(n_features=dataset.X.shape[1], n_classes=args.n_classes)
    model = TorchModel(net, SparseSoftmaxCrossEntropy(), batch_size=args.batch_size)
    final = model.fit(dataset, nb_epoch=args.epochs)
    logging.info("final loss %.4f over %d tasks", final, dataset.n_tasks)


if __name__ == "__main__":
    main()
