import torch
import torch.nn.functional as F

from model import MADDPGCritic

ARGS = {"hidden_size": 32, "lr": 5e-4, "gamma": 0.95, "tau": 0.01}
N_AGENTS, OBS_DIM, ACT_DIM = 3, 5, 2


def sample_batch(batch_size=8):
    obs = torch.randn(batch_size, N_AGENTS * OBS_DIM)
    act = torch.randn(batch_size, N_AGENTS * ACT_DIM)
    rew = torch.randn(batch_size, N_AGENTS)
    return obs, act, rew


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(tau * s)


def train_critic(steps=4):
    critic = MADDPGCritic(ARGS, N_AGENTS * OBS_DIM, N_AGENTS * ACT_DIM, num_q_outs=N_AGENTS)
    target = MADDPGCritic(ARGS, N_AGENTS * OBS_DIM, N_AGENTS * ACT_DIM, num_q_outs=N_AGENTS)
    target.load_state_dict(critic.state_dict())
    optimizer = torch.optim.Adam(critic.parameters(), lr=ARGS["lr"])
    for step in range(steps):
        obs, act, rew = sample_batch()
        with torch.no_grad():
            next_q = torch.cat(target(obs, act), dim=-1)
            q_target = rew + ARGS["gamma"] * next_q
        q_pred = torch.cat(critic(obs, act), dim=-1)
        loss = F.mse_loss(q_pred, q_target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        soft_update(target, critic, ARGS["tau"])
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    train_critic()
