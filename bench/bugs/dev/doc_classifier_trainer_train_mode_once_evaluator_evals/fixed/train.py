import argparse
import random

import numpy as np
import torch

from common.evaluator import ClassificationEvaluator
from common.trainer import ClassificationTrainer
from data import get_loaders
from models.kim_cnn import KimCNN


def get_args():
    parser = argparse.ArgumentParser(description="Kim CNN document classifier")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=3435)
    parser.add_argument("--patience", type=int, default=5)
    parser.add_argument("--log-every", type=int, default=4)
    parser.add_argument("--words-num", type=int, default=300)
    parser.add_argument("--words-dim", type=int, default=24)
    parser.add_argument("--output-channel", type=int, default=8)
    parser.add_argument("--target-class", type=int, default=4)
    parser.add_argument("--dropout", type=float, default=0.5)
    parser.add_argument("--save-path", type=str, default="model_checkpoints")
    return parser.parse_args([])


if __name__ == "__main__":
    args = get_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    train_loader, dev_loader = get_loaders(args)
    model = KimCNN(args)
    parameter = filter(lambda p: p.requires_grad, model.parameters())
    optimizer = torch.optim.Adam(parameter, lr=args.lr, weight_decay=0)

    dev_evaluator = ClassificationEvaluator(model, dev_loader)
    trainer_config = {"model_outfile": args.save_path, "log_every": args.log_every, "patience": args.patience}
    trainer = ClassificationTrainer(model, optimizer, train_loader, dev_evaluator, trainer_config)
    trainer.train(args.epochs)
