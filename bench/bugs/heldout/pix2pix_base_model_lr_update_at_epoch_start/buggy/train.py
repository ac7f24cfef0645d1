import argparse
import time

import torch

from models import create_model


def parse_opt():
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--n_epochs", type=int, default=1)
    p.add_argument("--n_epochs_decay", type=int, default=2)
    p.add_argument("--epoch_count", type=int, default=1)
    p.add_argument("--lambda_L1", type=float, default=100.0)
    return p.parse_args([])


def dataset(n=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [{"A": torch.rand(1, 3, 16, 16, generator=g) * 2 - 1, "B": torch.rand(1, 3, 16, 16, generator=g) * 2 - 1} for _ in range(n)]


if __name__ == "__main__":
    opt = parse_opt()
    torch.manual_seed(0)
    data = dataset()
    model = create_model(opt)
    model.setup()
    for epoch in range(opt.epoch_count, opt.n_epochs + opt.n_epochs_decay + 1):
        epoch_start_time = time.time()
        model.update_learning_rate()
        for i, batch in enumerate(data):
            model.set_input(batch)
            loss_D, loss_G = model.optimize_parameters()
        print(f"End of epoch {epoch} \t Time Taken: {time.time() - epoch_start_time:.2f} sec, D {loss_D:.3f} G {loss_G:.3f}")
