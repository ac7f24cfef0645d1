import argparse
import logging

import torch

from data import build_loader, toy_scenes
from detector.engine import train_one_epoch
from detector.inference import load_for_inference, predict_boxes
from detector.model import SetPredictor


def get_args_parser():
    parser = argparse.ArgumentParser("toy set detector", add_help=False)
    parser.add_argument("--lr", default=1e-4, type=float)
    parser.add_argument("--weight_decay", default=1e-4, type=float)
    parser.add_argument("--epochs", default=2, type=int)
    parser.add_argument("--batch_size", default=4, type=int)
    parser.add_argument("--dropout", default=0.1, type=float)
    parser.add_argument("--threshold", default=0.3, type=float)
    return parser


def main(args):
    torch.manual_seed(42)
    model = SetPredictor(dropout=args.dropout)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    data_loader = build_loader(args.batch_size)
    for epoch in range(args.epochs):
        train_one_epoch(model, data_loader, optimizer, epoch)

    model = load_for_inference(model)
    images = toy_scenes(n=2, seed=7).tensors[0]
    first = predict_boxes(model, images, args.threshold)
    second = predict_boxes(model, images, args.threshold)
    same = all(torch.equal(a["boxes"], b["boxes"]) for a, b in zip(first, second))
    print("detections per image:", [len(r["scores"]) for r in first], "deterministic:", same)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main(get_args_parser().parse_args([]))
