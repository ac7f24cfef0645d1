import torch
import torch.nn as nn

from federated import Server, User

NUM_USERS, NUM_GLOB_ITERS = 3, 2


def make_model():
    return nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 32), nn.ReLU(), nn.Linear(32, 10))


def user_split(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(20, 1, 28, 28, generator=g)
    y = torch.randint(0, 10, (20,), generator=g)
    return (x[:15], y[:15]), (x[15:], y[15:])


def main():
    model = make_model()
    users = [User(i, model, *user_split(i)) for i in range(NUM_USERS)]
    server = Server(model, users)
    for glob_iter in range(NUM_GLOB_ITERS):
        for user in users:
            user.set_parameters(server.model)
        server.evaluate()
        for user in users:
            user.train()
        server.aggregate_parameters()


if __name__ == "__main__":
    main()
