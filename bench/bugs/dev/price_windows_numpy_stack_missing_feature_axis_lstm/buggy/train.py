import argparse

from data import make_loaders, synthetic_close_prices
from model import PriceLSTM
from trainer import Trainer
from utils import MinMaxScaler, get_logger, seed_everything


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lookback", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    seed_everything(0)
    log = get_logger("forecast")
    prices = synthetic_close_prices(400)
    scaler = MinMaxScaler().fit(prices[: int(0.8 * len(prices))])
    train_loader, valid_loader = make_loaders(scaler.transform(prices), args.lookback, args.batch_size)

    model = PriceLSTM()
    Trainer(model, args.lr, log).fit(train_loader, valid_loader, args.epochs)


if __name__ == "__main__":
    main()
