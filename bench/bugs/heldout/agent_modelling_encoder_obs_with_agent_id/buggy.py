import torch
import torch.nn as nn
import torch.nn.functional as F

N_AGENTS = 3
OBS_DIM = 28
ACT_DIM = 5
N_ENVS = 10


def one_hot_agent(agent_id, batch, n_agents=N_AGENTS):
    return F.one_hot(torch.full((batch,), agent_id), n_agents).float()


def build_input(obs, agent_id):
    """The controlled agent's observation, tagged with which agent it is."""
    return torch.cat([obs, one_hot_agent(agent_id, obs.size(0))], dim=-1)


class RecurrentEncoder(nn.Module):
    def __init__(self, input_dim, hidden_dim=16, embedding_dim=8):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim)
        self.embed = nn.Linear(hidden_dim, embedding_dim)

    def forward(self, x, hidden=None):
        x = x.unsqueeze(0)
        out, hidden = self.lstm(x, hidden)
        return self.embed(out.squeeze(0)), hidden


class Decoder(nn.Module):
    def __init__(self, embedding_dim=8, hidden_dim=16):
        super().__init__()
        self.obs_head = nn.Sequential(nn.Linear(embedding_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, OBS_DIM))
        self.act_head = nn.Sequential(nn.Linear(embedding_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, ACT_DIM))

    def forward(self, z):
        return self.obs_head(z), self.act_head(z)


def rollout_step():
    obs = torch.randn(N_ENVS, OBS_DIM)
    other_obs = torch.randn(N_ENVS, OBS_DIM)
    other_act = torch.randint(0, ACT_DIM, (N_ENVS,))
    return obs, other_obs, other_act


def main(updates=3, agent_id=0):
    encoder = RecurrentEncoder(OBS_DIM)
    decoder = Decoder()
    params = list(encoder.parameters()) + list(decoder.parameters())
    optimizer = torch.optim.Adam(params, lr=7e-4)
    hidden = None
    for update in range(updates):
        obs, other_obs, other_act = rollout_step()
        z, hidden = encoder(build_input(obs, agent_id), hidden)
        hidden = tuple(h.detach() for h in hidden)
        obs_pred, act_logits = decoder(z)
        loss = F.mse_loss(obs_pred, other_obs) + F.cross_entropy(act_logits, other_act)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(update, loss.item())


if __name__ == "__main__":
    main()
