import torch
import torch.utils.data as td

from engine import test, train_one_epoch
from model import FEATURES, SPECIES, PenguinNet


def load_penguins(n=150, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, len(SPECIES), (n,), generator=g)
    centres = torch.tensor([[39.0, 18.3, 190.0, 3.7], [47.5, 15.0, 217.0, 5.0], [48.8, 18.4, 196.0, 3.7]])
    x = centres[labels] + torch.randn(n, len(FEATURES), generator=g)
    x = (x - x.mean(0)) / x.std(0)
    return td.TensorDataset(x, labels)


def main():
    torch.manual_seed(0)
    ds = load_penguins()
    train_ds, test_ds = td.random_split(ds, [105, 45], generator=torch.Generator().manual_seed(0))
    train_loader = td.DataLoader(train_ds, batch_size=20, shuffle=False)
    test_loader = td.DataLoader(test_ds, batch_size=20, shuffle=False)

    model = PenguinNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    for epoch in range(1, 4):
        print("Epoch: {}".format(epoch))
        train_one_epoch(model, train_loader, optimizer)
        test(model, test_loader)


if __name__ == "__main__":
    main()
