import argparse

import torch

from pl_vae import VAESEVIRModule


def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", default=4.5e-6 * 100, type=float)
    parser.add_argument("--accumulate", default=2, type=int)
    parser.add_argument("--epochs", default=2, type=int)
    return parser


def sevir_frames(n_batches, batch_size, generator):
    return [torch.rand(batch_size, 1, 32, 32, generator=generator) for _ in range(n_batches)]


def main():
    args = get_parser().parse_args([])
    torch.manual_seed(0)
    oc = {"latent_channels": 4, "accumulate_grad_batches": args.accumulate, "kl_weight": 1e-6, "lr": args.lr}
    module = VAESEVIRModule(oc)
    frames = sevir_frames(4, 2, torch.Generator().manual_seed(0))
    for epoch in range(args.epochs):
        module.torch_nn_module.train()
        losses = [module.training_step(batch, i) for i, batch in enumerate(frames)]
        print(f"epoch {epoch} loss {torch.stack(losses).mean().item():.4f}")


if __name__ == "__main__":
    main()
