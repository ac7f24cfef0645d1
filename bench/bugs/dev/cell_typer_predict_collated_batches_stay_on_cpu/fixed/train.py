import logging

import numpy as np
import torch

from celltype.model import CellTyper


def simulate(n_cells, n_markers, n_types, rng):
    types = rng.integers(0, n_types, n_cells)
    means = rng.gamma(2.0, 2.0, size=(n_types, n_markers))
    expression = rng.poisson(means[types]).astype(np.float32)
    covariates = np.eye(2, dtype=np.float32)[rng.integers(0, 2, n_cells)]
    return expression, covariates, types


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    expression, covariates, types = simulate(96, 12, 4, rng)
    typer = CellTyper(n_markers=12, n_covariates=2, n_types=4).fit(expression, covariates, types)
    predicted = typer.predict(expression, covariates)
    logging.info("train accuracy %.3f", (predicted == types).mean())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
