import torch
import torch.nn as nn
from torch.distributions import Categorical


class MlpExtractor(nn.Module):
    def __init__(self, feature_dim, net_arch=(32, 32)):
        super().__init__()
        policy, value, last = [], [], feature_dim
        for width in net_arch:
            policy += [nn.Linear(last, width), nn.Tanh()]
            value += [nn.Linear(last, width), nn.Tanh()]
            last = width
        self.policy_net, self.value_net = nn.Sequential(*policy), nn.Sequential(*value)
        self.latent_dim_pi = self.latent_dim_vf = last

    def forward(self, features):
        return self.policy_net(features), self.value_net(features)


class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.features_extractor = nn.Flatten()
        self.mlp_extractor = MlpExtractor(obs_dim)
        self.action_net = nn.Linear(self.mlp_extractor.latent_dim_pi, n_actions)
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)

    def extract_features(self, obs):
        return self.features_extractor(obs.float())

    def forward(self, obs):
        features = self.extract_features(obs)
        latent_pi, latent_vf = self.mlp_extractor.forward(features)
        dist = Categorical(logits=self.action_net(latent_pi))
        actions = dist.sample()
        return actions, self.value_net(latent_vf), dist.log_prob(actions)

    def evaluate_actions(self, obs, actions):
        latent_pi, latent_vf = self.mlp_extractor(self.extract_features(obs))
        dist = Categorical(logits=self.action_net(latent_pi))
        return self.value_net(latent_vf), dist.log_prob(actions), dist.entropy()


def main(n_updates=3, n_steps=16, obs_dim=4, n_actions=2):
    policy = ActorCriticPolicy(obs_dim, n_actions)
    activations = []
    policy.mlp_extractor.register_forward_hook(lambda m, i, o: activations.append(o[0].detach().abs().mean()))
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
    for update in range(n_updates):
        obs = torch.randn(n_steps, obs_dim)
        with torch.no_grad():
            actions, values, old_log_prob = policy(obs)
        returns = torch.randn(n_steps, 1)
        advantages = (returns - values).squeeze(1)
        new_values, log_prob, entropy = policy.evaluate_actions(obs, actions)
        ratio = torch.exp(log_prob - old_log_prob)
        policy_loss = -torch.min(ratio * advantages, ratio.clamp(0.8, 1.2) * advantages).mean()
        loss = policy_loss + 0.5 * (returns - new_values).pow(2).mean() - 0.01 * entropy.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(update, loss.item(), len(activations))


if __name__ == "__main__":
    main()
