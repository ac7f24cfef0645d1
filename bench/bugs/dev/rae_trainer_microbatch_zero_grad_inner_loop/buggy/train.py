import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import RepresentationAutoencoder


def get_args():
    parser = argparse.ArgumentParser(description="train the RAE decoder")
    parser.add_argument("--global-batch-size", type=int, default=16)
    parser.add_argument("--grad-accum-steps", type=int, default=4)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--clip", type=float, default=1.0)
    return parser.parse_args([])


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95))
        self.global_step = 0

    def train_step(self, images):
        micro_batches = images.chunk(self.args.grad_accum_steps)
        total = 0.0
        for micro in micro_batches:
            self.optimizer.zero_grad(set_to_none=True)
            recon = self.model(micro)
            loss = F.l1_loss(recon, micro) / len(micro_batches)
            loss.backward()
            total += loss.item()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.clip)
        self.optimizer.step()
        self.global_step += 1
        return total

    def fit(self, loader):
        self.model.train()
        for epoch in range(self.args.epochs):
            for (images,) in loader:
                loss = self.train_step(images)
            print(f"epoch {epoch} step {self.global_step} l1 {loss:.4f}")


def main():
    args = get_args()
    torch.manual_seed(0)
    images = torch.rand(64, 3, 32, 32) * 2 - 1
    loader = DataLoader(TensorDataset(images), batch_size=args.global_batch_size, shuffle=True, drop_last=True)
    Trainer(RepresentationAutoencoder(), args).fit(loader)


if __name__ == "__main__":
    main()
