import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

import vgg
from solver import Solver


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--train_iterations", type=int, default=4)
    parser.add_argument("--num_classes", type=int, default=10)
    return parser.parse_args([])


def cifar_like(n, seed):
    g = torch.Generator().manual_seed(seed)
    return TensorDataset(torch.rand(n, 3, 32, 32, generator=g), torch.randint(0, 10, (n,), generator=g))


def main(args):
    torch.manual_seed(0)
    test_dataloader = DataLoader(cifar_like(16, 1), batch_size=args.batch_size, drop_last=False)
    querry_dataloader = DataLoader(cifar_like(32, 0), batch_size=args.batch_size, shuffle=True, drop_last=True)
    solver = Solver(args, test_dataloader)
    task_model = vgg.vgg16_bn(num_classes=args.num_classes)
    acc = solver.train(querry_dataloader, task_model)
    print(f"Final accuracy with 10% of data is: {acc:.2f}")


if __name__ == "__main__":
    main(arguments())
