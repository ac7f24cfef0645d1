import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logging.basicConfig(level=logging.INFO)


class WakeWordNet(nn.Module):
    def __init__(self, input_shape=(16, 96), layer_dim=64):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Linear(input_shape[0] * input_shape[1], layer_dim)
        self.layernorm1 = nn.LayerNorm(layer_dim)
        self.relu = nn.ReLU()
        self.last_layer = nn.Linear(layer_dim, 1)

    def forward(self, x):
        return self.last_layer(self.relu(self.layernorm1(self.layer1(self.flatten(x)))))


class Model:
    def __init__(self, lr=1e-4):
        self.model = WakeWordNet()
        self.loss = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train_model(self, loader, max_steps, min_accumulated=64):
        accumulated_samples = 0
        step = 0
        self.model.train()
        while step < max_steps:
            for x, y in loader:
                self.optimizer.zero_grad()
                logits = self.model(x).squeeze(-1)
                loss = self.loss(logits, y)
                loss.backward()
                accumulated_samples += x.size(0)
                if accumulated_samples >= min_accumulated:
                    self.optimizer.step()
                    accumulated_samples = 0
                    logging.info("step %d loss %.4f", step, loss.item())
                step += 1
                if step >= max_steps:
                    break


def main():
    torch.manual_seed(0)
    features = torch.randn(256, 16, 96)
    labels = (torch.rand(256) > 0.8).float()
    loader = DataLoader(TensorDataset(features, labels), batch_size=16, shuffle=True)
    Model().train_model(loader, max_steps=12)


if __name__ == "__main__":
    main()
