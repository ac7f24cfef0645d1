import argparse
import logging

import torch

from dnnbrain.dnn import DNN


def make_stimuli(n, generator):
    """Coloured-noise images; the class is the dominant colour channel plus a grey class."""
    labels = torch.randint(0, 4, (n,), generator=generator)
    images = 0.2 * torch.rand(n, 3, 32, 32, generator=generator)
    for i, k in enumerate(labels.tolist()):
        if k < 3:
            images[i, k] += 0.6
        else:
            images[i] += 0.3
    return images, labels


def main():
    parser = argparse.ArgumentParser(description="fine-tune a DNN on stimuli, then score it on held-out stimuli")
    parser.add_argument("--n-epoch", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    train_x, train_y = make_stimuli(32, gen)
    test_x, test_y = make_stimuli(16, gen)

    dnn = DNN()
    dnn.train(train_x, train_y, n_epoch=args.n_epoch)
    result = dnn.test(test_x, test_y)
    logging.info("test accuracy %.3f", result["acc"])


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
