import argparse

import torch

from data import dataloader
from forecast.nbeats_lite import NBeatsLite


def fit(model, loader, max_epochs, gradient_clip_val=0.1):
    optimizer = model.configure_optimizers()
    history = []
    for epoch in range(max_epochs):
        model.train()
        for batch_idx, batch in enumerate(loader):
            log = model.training_step(batch, batch_idx)
            optimizer.zero_grad()
            log["loss"].backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clip_val)
            optimizer.step()
            model.global_step += 1
        history.append(model.on_train_epoch_end())
        print(f"epoch {epoch}: train_loss={history[-1]:.4f}")
    return history


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_epochs", type=int, default=2)
    parser.add_argument("--learning_rate", type=float, default=3e-3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = NBeatsLite(learning_rate=args.learning_rate, log_interval=5)
    fit(model, dataloader(), args.max_epochs)


if __name__ == "__main__":
    main()
