import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import settings
from model import SensorGRU

log = logging.getLogger("gru")


def make_windows():
    g = torch.Generator().manual_seed(3)
    x = torch.randn(settings.N_SERIES, settings.WINDOW, settings.N_FEATURES, generator=g)
    y = x[:, -1, 0] * 0.5 + 0.1 * torch.randn(settings.N_SERIES, generator=g)
    return TensorDataset(x, y)


def fit(model: SensorGRU, loader, epochs):
    opt = torch.optim.Adam(model.parameters(), lr=settings.LR)
    for epoch in range(epochs):
        epoch_loss = 0.0
        for x, y in loader:
            h = model.init_hidden(settings.BATCH_SIZE)
            opt.zero_grad()
            pred, h = model(x, h)
            loss = F.mse_loss(pred, y)
            loss.backward()
            opt.step()
            epoch_loss += loss.item() * x.size(0)
        log.info("epoch %d mse %.4f", epoch, epoch_loss / len(loader.dataset))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    loader = DataLoader(make_windows(), batch_size=settings.BATCH_SIZE, shuffle=True)
    fit(SensorGRU(settings.N_FEATURES, settings.HIDDEN, settings.NUM_LAYERS), loader, settings.EPOCHS)
