import torch
from torch.utils.data import DataLoader, TensorDataset


def click_logs(field_dims, n, generator):
    fields = torch.stack([torch.randint(0, d, (n,), generator=generator) for d in field_dims], dim=1)
    logits = (fields[:, 0] % 3 == 0).float() + 0.5 * (fields[:, 1] == fields[:, 3]).float() - 0.7
    clicks = (torch.rand(n, generator=generator) < torch.sigmoid(logits)).float()
    return TensorDataset(fields, clicks)


def loader(field_dims, cfg, generator):
    return DataLoader(click_logs(field_dims, cfg["n"], generator), batch_size=cfg["batch_size"], shuffle=True,
                      generator=generator)
