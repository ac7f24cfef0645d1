import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from model import FlowMatching, LatentDenoiser


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--global-batch-size", type=int, default=16)
    parser.add_argument("--micro-batch-size", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--clip", type=float, default=1.0)
    return parser.parse_args([])


def main():
    args = parse_args()
    grad_accum_steps = args.global_batch_size // args.micro_batch_size
    latents = TensorDataset(torch.randn(64, 16))
    loader = DataLoader(latents, batch_size=args.global_batch_size, shuffle=True, drop_last=True)
    model = LatentDenoiser()
    transport = FlowMatching(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0)
    train_steps = 0
    for epoch in range(args.epochs):
        model.train()
        for (z,) in loader:
            for micro in z.split(args.micro_batch_size):
                optimizer.zero_grad(set_to_none=True)
                loss = transport.training_loss(micro) / grad_accum_steps
                loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            optimizer.step()
            train_steps += 1
            print(f"step {train_steps} loss {loss.item() * grad_accum_steps:.4f}")


if __name__ == "__main__":
    main()
