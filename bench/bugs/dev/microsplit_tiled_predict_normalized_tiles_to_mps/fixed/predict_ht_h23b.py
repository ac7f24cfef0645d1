import logging

import numpy as np
import torch

from microsplit.network import UNetLite
from microsplit.predict import TiledPredictor


def load_test_image(seed=0, size=80):
    """The superimposed acquisition: two structures summed, as read from the TIFF (uint16 counts)."""
    rng = np.random.default_rng(seed)
    a = rng.poisson(200, size=(size, size))
    b = rng.poisson(50, size=(size, size))
    return (a + b).astype(np.uint16)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    image = load_test_image()
    data_mean, data_std = image.mean(), image.std()
    if not torch.backends.mps.is_available():
        logging.warning("this notebook expects Apple silicon (MPS); nothing to predict on this machine")
        return
    predictor = TiledPredictor(UNetLite(), data_mean, data_std)
    unmixed = predictor.predict(image)
    logging.info("unmixed shape %s", unmixed.shape)


if __name__ == "__main__":
    main()
