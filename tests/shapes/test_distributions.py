"""torch.distributions: batch and event shapes, and what sample / log_prob / entropy give."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_samples_and_log_probs_follow_batch_and_event_shapes() -> None:
    assert probe('''
import torch
from torch.distributions import Categorical, MultivariateNormal, Normal, OneHotCategorical
import torch.distributions as D

mu, std = torch.randn(32, 1), torch.ones(1)
probe(Normal(mu, std).sample())
probe(Normal(mu, std).rsample((5,)))
probe(Normal(mu, std).log_prob(torch.randn(32, 1)))
probe(Normal(0.0, 1.0).sample((4, 3)))
probe(D.Normal(torch.zeros(3), 1.0).entropy())
logits = torch.randn(16, 6)
probe(Categorical(logits=logits).sample())
probe_dtype(Categorical(logits=logits).sample())
probe(Categorical(logits.softmax(-1)).log_prob(torch.randint(0, 6, (16,))))
probe(OneHotCategorical(probs=logits.softmax(-1)).sample())
probe(MultivariateNormal(torch.zeros(8, 3), torch.eye(3)).log_prob(torch.randn(8, 3)))
probe(Normal(mu, std).log_prob(torch.randn(7, 3)))
''') == ["(32, 1)", "(5, 32, 1)", "(32, 1)", "(4, 3)", "(3,)", "(16,)", "int", "(16,)", "(16, 6)", "(8,)", None]


def test_a_distribution_a_model_s_forward_returns_is_read_by_its_methods() -> None:
    assert probe('''
import torch
import torch.nn as nn
from torch.distributions import Categorical

class Actor(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return Categorical(logits=self.net(obs))

actor = Actor()
dist = actor(torch.randn(16, 8))
probe(dist.sample())
probe(dist.log_prob(dist.sample()))
probe(dist.entropy())
''') == ["(16,)", "(16,)", "(16,)"]


def test_parameters_of_unknown_rank_give_samples_of_unknown_shape() -> None:
    # stable-baselines3's gSDE: `Normal(th.zeros_like(std), std).rsample((batch_size,))` is (batch_size, *std's
    # shape), not (batch_size,), when std's shape is not known
    assert probe('''
import torch
from torch.distributions import Normal

def sample_weights(std: torch.Tensor, batch_size: int = 4):
    dist = Normal(torch.zeros_like(std), std)
    probe(dist.rsample((batch_size,)))
    probe(dist.sample())
    probe(dist.entropy())
    probe(dist.log_prob(torch.randn(3, 2)))
''') == [None, None, None, "(..., 3, 2)"]
