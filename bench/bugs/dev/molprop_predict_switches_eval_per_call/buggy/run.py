import math

import torch
from torch.utils.data import DataLoader, TensorDataset

from molprop.models import FingerprintFFN
from molprop.predict import predict
from molprop.train import train_epoch

ARGS = {"fp_size": 256, "hidden_size": 128, "depth": 3, "dropout": 0.2, "epochs": 3, "batch_size": 32}


def fake_fingerprints(n, fp_size, seed):
    g = torch.Generator().manual_seed(seed)
    fps = (torch.rand(n, fp_size, generator=g) < 0.1).float()
    targets = fps[:, :16].sum(1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g)
    return TensorDataset(fps, targets)


def rmse(preds, dataset):
    errs = [(p[0] - t.item()) ** 2 for p, (_, t) in zip(preds, dataset)]
    return math.sqrt(sum(errs) / len(errs))


def main():
    torch.manual_seed(0)
    train_set = fake_fingerprints(160, ARGS["fp_size"], 0)
    val_set = fake_fingerprints(48, ARGS["fp_size"], 1)
    train_loader = DataLoader(train_set, batch_size=ARGS["batch_size"], shuffle=True)
    val_loader = DataLoader(val_set, batch_size=ARGS["batch_size"])

    model = FingerprintFFN(ARGS["fp_size"], ARGS["hidden_size"], ARGS["depth"], ARGS["dropout"])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(ARGS["epochs"]):
        train_loss = train_epoch(model, train_loader, optimizer)
        val_preds = predict(model, val_loader)
        print(f"epoch {epoch}: train {train_loss:.4f} val rmse {rmse(val_preds, val_set):.4f}")


if __name__ == "__main__":
    main()
