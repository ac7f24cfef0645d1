import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = {"obs_dim": 8, "action_dim": 3, "d_model": 32, "seq_len": 10, "batch_size": 6, "gamma": 0.99,
       "lr": 1e-4, "grad_clip": 1.0, "updates": 3}


class Agent(nn.Module):
    def __init__(self, obs_dim, action_dim, d_model):
        super().__init__()
        self.traj_encoder = nn.GRU(obs_dim, d_model, batch_first=True)
        self.actor = nn.Sequential(nn.Linear(d_model, d_model), nn.LeakyReLU(), nn.Linear(d_model, action_dim))
        self.critic = nn.Sequential(nn.Linear(d_model + action_dim, d_model), nn.LeakyReLU(), nn.Linear(d_model, 1))

    def forward(self, obs):
        s_rep, _ = self.traj_encoder(obs)
        return s_rep, torch.tanh(self.actor(s_rep))

    def q(self, s_rep, actions):
        return self.critic(torch.cat([s_rep, actions], dim=-1)).squeeze(-1)


class Experiment:
    def __init__(self, agent, cfg):
        self.agent, self.cfg = agent, cfg
        self.optimizer = torch.optim.AdamW(agent.parameters(), lr=cfg["lr"])

    def compute_losses(self, batch):
        s_rep, a = self.agent(batch["obs"])
        q_taken = self.agent.q(s_rep, batch["actions"])
        with torch.no_grad():
            td_target = batch["rewards"][:, :-1] + self.cfg["gamma"] * self.agent.q(s_rep[:, 1:], a[:, 1:])
        critic_loss = F.mse_loss(q_taken[:, :-1], td_target)
        actor_loss = -self.agent.q(s_rep, a).mean()
        return critic_loss, actor_loss

    def train_step(self, batch):
        critic_loss, actor_loss = self.compute_losses(batch)
        self.optimizer.zero_grad()
        actor_loss.backward(retain_graph=True)
        for p in self.agent.critic.parameters():
            p.grad = None
        critic_loss.backward()
        nn.utils.clip_grad_norm_(self.agent.parameters(), self.cfg["grad_clip"])
        self.optimizer.step()
        return {"critic_loss": critic_loss.item(), "actor_loss": actor_loss.item()}


def sample_batch(cfg):
    b, t = cfg["batch_size"], cfg["seq_len"]
    return {"obs": torch.randn(b, t, cfg["obs_dim"]), "actions": torch.rand(b, t, cfg["action_dim"]) * 2 - 1,
            "rewards": torch.randn(b, t)}


if __name__ == "__main__":
    torch.manual_seed(0)
    experiment = Experiment(Agent(cfg["obs_dim"], cfg["action_dim"], cfg["d_model"]), cfg)
    for update in range(cfg["updates"]):
        print(update, experiment.train_step(sample_batch(cfg)))
