import torch

from diffusion_planner.model import DiffusionPlanner
from diffusion_planner.train_epoch import ModelEma, train_epoch


def synthetic_scenes(n_batches, batch_size, generator):
    return [{"future": torch.randn(batch_size, 4, 8, 2, generator=generator),
             "context": torch.randn(batch_size, 4, 20, generator=generator)} for _ in range(n_batches)]


def main():
    torch.manual_seed(0)
    args = {"alpha_planning_loss": 1.0, "lr": 5e-4, "epochs": 2}
    model = DiffusionPlanner()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args["lr"])
    ema = ModelEma(model)
    loader = synthetic_scenes(8, 4, torch.Generator().manual_seed(0))
    for epoch in range(args["epochs"]):
        losses, total = train_epoch(loader, model, optimizer, args, ema)
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v:.4f}" for k, v in losses.items()))


if __name__ == "__main__":
    main()
