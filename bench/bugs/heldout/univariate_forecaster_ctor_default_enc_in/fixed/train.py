import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset

from data import HourlyLoad
from model import ConvForecaster


def train_epoch(model: ConvForecaster, loader: DataLoader, opt: torch.optim.Optimizer, criterion: nn.Module) -> float:
    model.train()
    losses = []
    for x, y in loader:
        pred = model(x)
        loss = criterion(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


def main() -> None:
    parser = argparse.ArgumentParser(description="univariate load forecasting")
    parser.add_argument("--seq_len", type=int, default=48)
    parser.add_argument("--pred_len", type=int, default=12)
    parser.add_argument("--train_epochs", type=int, default=2)
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    args = parser.parse_args([])
    torch.manual_seed(2021)
    dataset = HourlyLoad(seq_len=args.seq_len, pred_len=args.pred_len)
    loader = DataLoader(Subset(dataset, range(64)), batch_size=16, shuffle=True)
    model = ConvForecaster(enc_in=dataset.n_vars, seq_len=args.seq_len, pred_len=args.pred_len)
    opt = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    for epoch in range(args.train_epochs):
        print(f"epoch {epoch + 1}: mse {train_epoch(model, loader, opt, nn.MSELoss()):.4f}")


if __name__ == "__main__":
    main()
