import torch

from networks import Discriminator, Encoder, Generator
from training_loop_encoder import training_loop


def main() -> None:
    torch.manual_seed(0)
    G = Generator()
    with torch.no_grad():
        reals = G(torch.randn(64, 16))
    training_loop(Encoder(), G, Discriminator(), reals)


if __name__ == "__main__":
    main()
