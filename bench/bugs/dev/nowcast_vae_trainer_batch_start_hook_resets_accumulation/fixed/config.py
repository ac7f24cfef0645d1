import argparse


def get_parser():
    parser = argparse.ArgumentParser(description="first-stage VAE for precipitation nowcasting")
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--size", type=int, default=16)
    parser.add_argument("--latent-channels", type=int, default=4)
    parser.add_argument("--micro-batch", type=int, default=2)
    parser.add_argument("--accumulate-grad-batches", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=4.5e-5)
    parser.add_argument("--kl-weight", type=float, default=1e-6)
    parser.add_argument("--seed", type=int, default=0)
    return parser
