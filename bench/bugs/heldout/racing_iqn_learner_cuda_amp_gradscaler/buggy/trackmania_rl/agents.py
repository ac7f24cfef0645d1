import math

import torch
import torch.nn as nn

from . import config


class IQN_Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = nn.Sequential(nn.Linear(config.float_input_dim, config.dense_hidden_dimension), nn.LeakyReLU())
        self.iqn_fc = nn.Linear(config.iqn_embedding_dimension, config.dense_hidden_dimension)
        self.A_head = nn.Sequential(nn.Linear(config.dense_hidden_dimension, config.dense_hidden_dimension // 2),
                                    nn.LeakyReLU(), nn.Linear(config.dense_hidden_dimension // 2, config.n_actions))

    def forward(self, float_inputs, num_quantiles):
        batch_size = float_inputs.shape[0]
        tau = torch.rand(batch_size * num_quantiles, 1)
        quantile_net = torch.cos(torch.arange(1, config.iqn_embedding_dimension + 1) * math.pi * tau)
        quantile_net = torch.relu(self.iqn_fc(quantile_net))
        features = self.dense(float_inputs).repeat(num_quantiles, 1) * quantile_net
        return self.A_head(features), tau


class Trainer:
    def __init__(self, online_network, target_network, optimizer, scaler):
        self.online_network = online_network
        self.target_network = target_network
        self.optimizer = optimizer
        self.scaler = scaler

    def train_on_batch(self, state, actions, rewards, next_state, done):
        n = config.iqn_n
        with torch.no_grad():
            next_q, _ = self.target_network(next_state, n)
            targets = rewards.repeat(n) + config.gamma * (1 - done.repeat(n)) * next_q.max(dim=1).values
        q, tau = self.online_network(state, n)
        q = q.gather(1, actions.repeat(n).unsqueeze(1)).squeeze(1)
        td = targets.view(n, -1).unsqueeze(0) - q.view(n, -1).unsqueeze(1)
        huber = torch.where(td.abs() <= 1, 0.5 * td ** 2, td.abs() - 0.5)
        loss = (torch.abs(tau.view(n, -1).unsqueeze(0) - (td < 0).float()) * huber).sum(0).mean()
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()
