import argparse
import logging

import torch
from torch.utils.data import DataLoader

from config import CONFIG
from seqrec.data import SessionDataset
from seqrec.model import NextEventGRU
from seqrec.trainer import Trainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=CONFIG["train"]["epochs"])
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(CONFIG["seed"])

    data_cfg, model_cfg, train_cfg = CONFIG["data"], CONFIG["model"], CONFIG["train"]
    dataset = SessionDataset(data_cfg["n_sessions"], data_cfg["session_len"], data_cfg["n_events"])
    loader = DataLoader(dataset, batch_size=train_cfg["batch_size"], shuffle=True)
    model = NextEventGRU(data_cfg["n_events"], **model_cfg)
    trainer = Trainer(model, loader, lr=train_cfg["lr"], clip=train_cfg["clip"],
                      log_interval=train_cfg["log_interval"])
    for epoch in range(args.epochs):
        avg = trainer.train_epoch(epoch)
        logging.info("epoch %d avg loss %.4f", epoch, avg)


if __name__ == "__main__":
    main()
