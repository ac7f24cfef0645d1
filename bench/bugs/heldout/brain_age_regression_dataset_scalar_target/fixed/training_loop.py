import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import VolumeRegressionDataset
from model import VGG3DRegressor

logging.basicConfig(level=logging.INFO)
params = {"batch_size": 4, "learning_rate": 1e-3, "num_epochs": 2, "value_keys": ["value_0"]}


def step(model, subject):
    image = subject["image"]
    target = subject[params["value_keys"][0]]
    output = model(image)
    loss = F.mse_loss(output, target)
    return loss, output


def train_network(model, loader, optimizer):
    model.train()
    total = 0.0
    for subject in loader:
        optimizer.zero_grad()
        loss, _ = step(model, subject)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VGG3DRegressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=params["learning_rate"])
    loader = DataLoader(VolumeRegressionDataset(), batch_size=params["batch_size"], shuffle=True)
    for epoch in range(params["num_epochs"]):
        logging.info("epoch %d mse %.3f", epoch, train_network(model, loader, optimizer))
