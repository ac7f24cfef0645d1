import logging

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config import CONFIG
from forecast.data import LoadWindows, make_frame
from forecast.models import build_model

logging.basicConfig(level=logging.INFO, format="[%(levelname)s] %(message)s")
logger = logging.getLogger("exp")


class ExpForecast:
    def __init__(self, args: dict):
        self.args = args
        frame = make_frame(args["rows"])
        split = int(len(frame) * 0.75)
        self.train_set = LoadWindows(frame[:split], args["seq_len"], args["pred_len"])
        self.val_set = LoadWindows(frame[split - args["seq_len"]:], args["seq_len"], args["pred_len"])
        self.model = build_model(args["model"], enc_in=self.train_set.n_features, seq_len=args["seq_len"],
                                 pred_len=args["pred_len"])
        self.optim = torch.optim.Adam(self.model.parameters(), lr=args["learning_rate"])
        self.criterion = nn.MSELoss()

    def _process_one_batch(self, batch_x, batch_y):
        batch_x, batch_y = batch_x.float(), batch_y.float()
        pred = self.model(batch_x)
        return pred, batch_y

    def vali(self, loader) -> float:
        self.model.eval()
        losses = []
        with torch.no_grad():
            for batch_x, batch_y in loader:
                pred, true = self._process_one_batch(batch_x, batch_y)
                losses.append(self.criterion(pred, true).item())
        self.model.train()
        return float(np.mean(losses))

    def train(self):
        train_loader = DataLoader(self.train_set, batch_size=self.args["batch_size"], shuffle=True, drop_last=True)
        val_loader = DataLoader(self.val_set, batch_size=self.args["batch_size"])
        best, wait = float("inf"), 0
        for epoch in range(self.args["train_epochs"]):
            self.model.train()
            for i, (batch_x, batch_y) in enumerate(train_loader):
                self.optim.zero_grad()
                pred, true = self._process_one_batch(batch_x, batch_y)
                loss = self.criterion(pred, true)
                loss.backward()
                self.optim.step()
                if (i + 1) % 5 == 0:
                    logger.info("epoch %d iter %d loss %.5f", epoch + 1, i + 1, loss.item())
            val = self.vali(val_loader)
            logger.info("epoch %d vali loss %.5f", epoch + 1, val)
            if val < best:
                best, wait = val, 0
            else:
                wait += 1
                if wait >= self.args["patience"]:
                    logger.info("early stopping")
                    break
        return self.model


if __name__ == "__main__":
    torch.manual_seed(0)
    ExpForecast(CONFIG).train()
