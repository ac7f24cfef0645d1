import numpy as np
import torch
import torch.nn as nn

BATCH_SIZE = 32
LR_G = 1e-4
LR_D = 1e-4
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = np.vstack([np.linspace(-1, 1, ART_COMPONENTS) for _ in range(BATCH_SIZE)])


def artist_works(rng):
    a = rng.uniform(1, 2, size=BATCH_SIZE)[:, np.newaxis]
    paintings = a * np.power(PAINT_POINTS, 2) + (a - 1)
    return torch.from_numpy(paintings).float()


G = nn.Sequential(nn.Linear(N_IDEAS, 128), nn.ReLU(), nn.Linear(128, ART_COMPONENTS))
D = nn.Sequential(nn.Linear(ART_COMPONENTS, 128), nn.ReLU(), nn.Linear(128, 1), nn.Sigmoid())

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)


def train(steps, rng):
    for step in range(steps):
        artist_paintings = artist_works(rng)
        G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
        G_paintings = G(G_ideas)
        prob_artist0 = D(artist_paintings)
        prob_artist1 = D(G_paintings)

        D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1.0 - prob_artist1))
        G_loss = torch.mean(torch.log(1.0 - prob_artist1))

        opt_D.zero_grad()
        D_loss.backward(retain_graph=True)
        opt_D.step()

        prob_artist1 = D(G_paintings)
        G_loss = torch.mean(torch.log(1.0 - prob_artist1))
        opt_G.zero_grad()
        G_loss.backward()
        opt_G.step()
        print(step, D_loss.item(), G_loss.item())


if __name__ == "__main__":
    torch.manual_seed(1)
    train(3, np.random.default_rng(1))
