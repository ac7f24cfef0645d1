import torch
from torch import nn


def make_mlp(dims, activation: str = "relu", dropout: float = 0.0) -> nn.Sequential:
    layers = []
    for dim_in, dim_out in zip(dims[:-1], dims[1:]):
        layers.append(nn.Linear(dim_in, dim_out))
        layers.append(nn.ReLU() if activation == "relu" else nn.LeakyReLU())
        if dropout > 0:
            layers.append(nn.Dropout(p=dropout))
    return nn.Sequential(*layers)


class Encoder(nn.Module):
    def __init__(self, embedding_dim: int = 16, h_dim: int = 32, num_layers: int = 1) -> None:
        super().__init__()
        self.h_dim = h_dim
        self.embedding_dim = embedding_dim
        self.num_layers = num_layers
        self.encoder = nn.LSTM(embedding_dim, h_dim, num_layers)
        self.spatial_embedding = nn.Linear(2, embedding_dim)

    def init_hidden(self, batch: int):
        return (torch.zeros(self.num_layers, batch, self.h_dim), torch.zeros(self.num_layers, batch, self.h_dim))

    def forward(self, obs_traj: torch.Tensor) -> torch.Tensor:
        batch = obs_traj.size(1)
        obs_traj_embedding = self.spatial_embedding(obs_traj.view(-1, 2))
        obs_traj_embedding = obs_traj_embedding.view(-1, batch, self.embedding_dim)
        _, state = self.encoder(obs_traj_embedding, self.init_hidden(batch))
        return state[0]


class TrajectoryGenerator(nn.Module):
    def __init__(self, pred_len: int = 8, embedding_dim: int = 16, h_dim: int = 32) -> None:
        super().__init__()
        self.pred_len = pred_len
        self.encoder = Encoder(embedding_dim, h_dim)
        self.decoder = make_mlp([h_dim, 64, pred_len * 2])

    def forward(self, obs_traj_rel: torch.Tensor) -> torch.Tensor:
        final_h = self.encoder(obs_traj_rel)
        out = self.decoder(final_h.squeeze(0))
        return out.view(-1, self.pred_len, 2).permute(1, 0, 2)
