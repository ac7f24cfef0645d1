import torch
import torch.nn as nn
import torch.optim as optim


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(10, 50), nn.ReLU(), nn.Linear(50, 1))

    def forward(self, x):
        return self.model(x)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(1, 50), nn.ReLU(), nn.Linear(50, 1), nn.Sigmoid())

    def forward(self, x):
        return self.model(x)


def train(G, D, epochs=20, batch=64):
    optimizer_G = optim.Adam(G.parameters(), lr=0.001)
    optimizer_D = optim.Adam(D.parameters(), lr=0.001)
    loss_func = nn.BCELoss()
    for epoch in range(epochs):
        D.zero_grad()
        real_data = torch.randn(batch, 1) * 0.5 + 2.0
        fake_data = G(torch.randn(batch, 10)).detach()
        real_loss = loss_func(D(real_data), torch.ones(batch, 1))
        fake_loss = loss_func(D(fake_data), torch.zeros(batch, 1))
        d_loss = real_loss + fake_loss
        d_loss.backward()
        optimizer_D.step()

        G.zero_grad()
        fake_data = G(torch.randn(batch, 10))
        g_loss = loss_func(D(fake_data), torch.ones(batch, 1))
        g_loss.backward()
        optimizer_G.step()
    return d_loss.item(), g_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    print(train(Generator(), Discriminator()))
