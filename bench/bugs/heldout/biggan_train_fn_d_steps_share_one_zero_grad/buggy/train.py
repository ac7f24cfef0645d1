import torch

from nets import Discriminator, Generator
from train_fns import GAN_training_function

config = {"batch_size": 8, "dim_z": 16, "n_classes": 4, "num_D_steps": 2, "num_D_accumulations": 1, "iters": 4}


def main():
    torch.manual_seed(0)
    G, D = Generator(config["dim_z"], config["n_classes"]), Discriminator(config["n_classes"])
    train = GAN_training_function(G, D, config)
    per_iter = config["batch_size"] * config["num_D_steps"] * config["num_D_accumulations"]
    for it in range(config["iters"]):
        x = torch.randn(per_iter, 32).clamp(-1, 1)
        y = torch.randint(0, config["n_classes"], (per_iter,))
        metrics = train(x, y)
        print(it, {k: round(v, 3) for k, v in metrics.items()})


if __name__ == "__main__":
    main()
