import argparse


def get_config(argv=None):
    parser = argparse.ArgumentParser(description="survival classifier on tabular features")
    parser.add_argument("--n_features", type=int, default=7)
    parser.add_argument("--hidden", type=int, default=20)
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--seed", type=int, default=42)
    return parser.parse_args(argv if argv is not None else [])
