"""SC104 on losses and targets, on values that come through calls: a trainer's step on a loader's batches, a dataset
whose `__init__` builds its samples in a loop, an unreduced loss weighted per sample. Each program has its fixed
look-alike, which stays silent."""

from __future__ import annotations

import pytest

from tests.helpers import lint

# a trainer weights an unreduced BCE by per-sample weights; the dataset keeps its samples as dicts appended in its
# `__init__` (more than are run one by one), the labels as one-element arrays of a spelling the analysis can't read:
# the unreduced loss is the logits' (B, 1) all the same; `%s` is the weighting
WEIGHTED_TRAINER = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Claims(Dataset):
    def __init__(self, n: int = 300, n_features: int = 10, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.samples = []
        for _ in range(n):
            x = rng.normal(size=n_features).astype(np.float32)
            self.samples.append({"x": x, "y": np.float32([x[0] > 0]), "w": float(rng.uniform(0.5, 2.0))})

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        s = self.samples[i]
        return {"x": torch.from_numpy(s["x"]), "y": torch.from_numpy(s["y"]), "w": torch.tensor(s["w"])}


class RiskModel(nn.Module):
    def __init__(self, n_features: int = 10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x)


class WeightedTrainer:
    def __init__(self, model: RiskModel, lr: float = 1e-3):
        self.model = model
        self.criterion = nn.BCEWithLogitsLoss(reduction="none")
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, batch):
        feats, target, weight = batch["x"], batch["y"], batch["w"]
        loss = self.criterion(self.model(feats), target)
        loss = (%s).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, loader, epochs: int = 1):
        for _ in range(epochs):
            for batch in loader:
                self.step(batch)


trainer = WeightedTrainer(RiskModel())
trainer.fit(DataLoader(Claims(), batch_size=20, shuffle=True), epochs=2)
'''


@pytest.mark.parametrize(("weighting", "rows"), [("weight * loss", [42]), ("weight.unsqueeze(1) * loss", []),
                                                  ("weight * loss.squeeze(1)", [])])
def test_per_sample_weights_against_an_unreduced_binary_loss(weighting: str, rows: list[int]) -> None:
    _reported(WEIGHTED_TRAINER % weighting, rows, "`weight` is (20,) and `loss` is (20, 1)")


# a regression set made by a factory: the targets a comprehension over the feature rows (as many as the rows); an
# rmse() helper right in the training step (the predictions squeezed) and wrong in the evaluation; `%s` is what the
# evaluation scores
RMSE_HELPER = '''
import numpy as np
import torch
import torch.nn as nn


def make_dataset(n_nodes: int = 80, n_features: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(n_nodes, n_features)).astype(np.float32)
    targets = [float(row.sum()) for row in feats]
    return torch.from_numpy(feats), torch.tensor(targets)


def rmse(pred, target):
    return ((pred - target) ** 2).mean().sqrt()


class Trainer:
    def __init__(self, model: nn.Module):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters())

    def train_step(self, x, y):
        loss = rmse(self.model(x).squeeze(-1), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    @torch.no_grad()
    def evaluate(self, x, y):
        return rmse(%s, y).item()


def main():
    x, y = make_dataset()
    trainer = Trainer(nn.Sequential(nn.Linear(x.shape[1], 16), nn.ReLU(), nn.Linear(16, 1)))
    for _ in range(10):
        trainer.train_step(x, y)
    print(trainer.evaluate(x, y))


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize(("scored", "rows"), [("self.model(x)", [15]), ("self.model(x).squeeze(-1)", []),
                                              ("self.model(x)[:, 0]", [])])
def test_a_helper_called_right_in_one_place_and_wrong_in_another(scored: str, rows: list[int]) -> None:
    """The targets' count is the comprehension's rows: (80,) against the (80, 1) predictions of the evaluation."""
    _reported(RMSE_HELPER % scored, rows, "`pred` is (80, 1) and `target` is (80,)")


# PPO on fixed-size rollout buffers: the policy returns its distribution and its value head together, a GAE helper
# keeps the (T, 1) advantages of the critic's column; `%s` is what weights the (T,) probability ratios
PPO_UPDATE = '''
import torch
import torch.nn as nn
from torch.distributions import Categorical

HORIZON = 128


class Policy(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=64):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))
        self.v = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return Categorical(logits=self.pi(obs)), self.v(obs)


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    next_values = torch.cat([values[1:], last_value.view(1, 1)])
    deltas = rewards[:, None] + gamma * next_values * (1 - dones[:, None]) - values
    advantages = torch.zeros_like(deltas)
    running = torch.zeros(1)
    for t in range(deltas.shape[0] - 1, -1, -1):
        running = deltas[t] + gamma * lam * (1 - dones[t]) * running
        advantages[t] = running
    return advantages, advantages + values


def rollout(policy, horizon=HORIZON, obs_dim=8):
    obs_buf, act_buf = torch.zeros(horizon, obs_dim), torch.zeros(horizon, dtype=torch.long)
    logp_buf, rew_buf, done_buf = torch.zeros(horizon), torch.zeros(horizon), torch.zeros(horizon)
    val_buf = torch.zeros(horizon, 1)
    obs = torch.randn(obs_dim)
    for t in range(horizon):
        with torch.no_grad():
            dist, value = policy(obs)
        action = dist.sample()
        obs_buf[t], act_buf[t], logp_buf[t], val_buf[t] = obs, action, dist.log_prob(action), value
        obs = torch.randn(obs_dim)
        rew_buf[t], done_buf[t] = float(action == 0), float(t %% 32 == 31)
    with torch.no_grad():
        _, last_value = policy(obs)
    return obs_buf, act_buf, logp_buf, rew_buf, done_buf, val_buf, last_value


def update(policy, optimizer, batch, clip=0.2):
    obs, actions, old_logp, rewards, dones, values, last_value = batch
    advantages, returns = compute_gae(rewards, values, dones, last_value)
    advantages = %s
    dist, new_values = policy(obs)
    ratio = torch.exp(dist.log_prob(actions) - old_logp)
    surr = torch.min(ratio * advantages, ratio.clamp(1 - clip, 1 + clip) * advantages)
    loss = -surr.mean() + 0.5 * (returns - new_values).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


policy = Policy()
opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
for it in range(3):
    update(policy, opt, rollout(policy))
'''


@pytest.mark.parametrize(("advantages", "rows"), [("advantages.detach()", [53]),
                                                  ("advantages.squeeze(-1).detach()", [])])
def test_ratios_of_a_policy_returning_its_distribution_against_gae_advantages(advantages: str,
                                                                              rows: list[int]) -> None:
    """`dist, value = policy(obs)`: the distribution's log-probabilities are (T,), the GAE advantages (T, 1)."""
    _reported(PPO_UPDATE % advantages, rows, "`ratio` is (128,) and `advantages` is (128, 1)")


def _reported(source: str, rows: list[int], shapes: str) -> None:
    """SC104 reports `source` at `rows` (none: the fixed look-alike), naming the operands' `shapes`."""
    found = lint(source, "SC104").findings
    assert [f.location.row for f in found] == rows
    if rows:
        assert shapes in found[0].message
