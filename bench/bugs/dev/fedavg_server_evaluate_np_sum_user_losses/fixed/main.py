import argparse

import torch
from torch.utils.data import TensorDataset

from flcore.model import Net
from flcore.server import FedAvgServer
from flcore.user import User


def fake_split(num_users, per_user, seed):
    g = torch.Generator().manual_seed(seed)
    parts = []
    for _ in range(num_users):
        x = torch.rand(per_user, 1, 28, 28, generator=g)
        y = torch.randint(0, 10, (per_user,), generator=g)
        parts.append(TensorDataset(x, y))
    return parts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_users", type=int, default=3)
    parser.add_argument("--num_glob_iters", type=int, default=2)
    parser.add_argument("--learning_rate", type=float, default=0.05)
    args = parser.parse_args([])
    torch.manual_seed(0)

    model = Net("mnist")
    train_parts = fake_split(args.num_users, 48, seed=1)
    test_parts = fake_split(args.num_users, 16, seed=2)
    users = [User(i, tr, te, model, learning_rate=args.learning_rate) for i, (tr, te) in enumerate(zip(train_parts, test_parts))]
    server = FedAvgServer(model, users, args.num_glob_iters)
    server.train()


if __name__ == "__main__":
    main()
