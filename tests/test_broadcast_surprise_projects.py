"""SC104 on losses and targets in programs laid out as projects are: a model, its data and its losses each in a
module of a package, a trainer or solver class, a script that wires them. Each program has its fixed look-alike,
which stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import project_findings


def _findings(folder: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    """SC104's findings in every file of the project, as (file, row, message)."""
    return [(name, finding.location.row, finding.message) for name, finding in project_findings(folder, files, "SC104")]


# a click model's unreduced BCE weighted per sample in a loss helper (reported at the solver's call, which holds the
# facts); the weights are picked between two numbers by `np.where` in a data factory of the package (3.0 for a
# click, 1.0 otherwise), the clicks kept as a column; `%s` is the weighting
CLICKS = {
    "lib/__init__.py": "",
    "lib/nets.py": """
        from torch import nn


        class ClickModel(nn.Module):
            def __init__(self, n_fields: int, emb: int = 8):
                super().__init__()
                self.emb = nn.Linear(n_fields, emb)
                self.out = nn.Linear(emb, 1)

            def forward(self, feats):
                return self.out(self.emb(feats).tanh())
    """,
    "lib/data.py": """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        def make_clicks(n_rows: int, n_fields: int, seed: int = 0):
            rng = np.random.default_rng(seed)
            feats = rng.normal(size=(n_rows, n_fields)).astype(np.float32)
            clicks = (rng.random(n_rows) < 0.3).astype(np.float32).reshape(-1, 1)
            weights = np.where(clicks[:, 0] > 0, 3.0, 1.0).astype(np.float32)
            return feats, clicks, weights


        class ClickLog(Dataset):
            def __init__(self, feats, clicks, weights):
                self.feats, self.clicks, self.weights = feats, clicks, weights

            def __len__(self):
                return len(self.feats)

            def __getitem__(self, i):
                return torch.from_numpy(self.feats[i]), torch.from_numpy(self.clicks[i]), torch.tensor(self.weights[i])
    """,
    "lib/losses.py": """
        import torch.nn.functional as F


        def weighted_bce(logits, target, weight):
            raw = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
            return (%s).sum() / weight.sum()
    """,
    "run.py": """
        import torch
        from torch.utils.data import DataLoader

        from lib.data import ClickLog, make_clicks
        from lib.losses import weighted_bce
        from lib.nets import ClickModel


        class Solver:
            def __init__(self, model, lr=0.01):
                self.model = model
                self.opt = torch.optim.Adagrad(model.parameters(), lr=lr)

            def fit(self, loader):
                for feats, clicks, weights in loader:
                    loss = weighted_bce(self.model(feats), clicks, weights)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()


        feats, clicks, weights = make_clicks(512, 12)
        solver = Solver(ClickModel(12))
        solver.fit(DataLoader(ClickLog(feats, clicks, weights), batch_size=64, shuffle=True))
    """,
}


@pytest.mark.parametrize(("weighting", "reported"), [("raw * weight", [("run.py", 17)]),
                                                     ("raw.squeeze(1) * weight", []),
                                                     ("raw * weight.unsqueeze(1)", [])])
def test_weights_a_data_factory_picks_with_where_against_an_unreduced_loss(
        project: Path, weighting: str, reported: list[tuple[str, int]]) -> None:
    files = {**CLICKS, "lib/losses.py": CLICKS["lib/losses.py"] % weighting}
    found = _findings(project, files)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`raw` is (64, 1) and `weight` is (64,)" in message for _, _, message in found)


# an A2C runner in a package: `collect` rolls the policy out for `n_steps` (a count it is given), keeping the value
# head's (1,) outputs and the rewards as floats; the n-step returns come from a helper that goes backwards over the
# rewards and the episode ends zipped together; the observations come from an environment the
# runner is handed, of a shape nothing states, so the values are (n, ..., 1); `%s` is the advantage
A2C = {
    "rl/__init__.py": "",
    "rl/policy.py": """
        import torch.nn as nn
        from torch.distributions import Categorical


        class ActorCritic(nn.Module):
            def __init__(self, obs_dim: int, n_actions: int, hidden: int = 64):
                super().__init__()
                self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
                self.pi = nn.Linear(hidden, n_actions)
                self.v = nn.Linear(hidden, 1)

            def forward(self, obs):
                h = self.trunk(obs)
                return Categorical(logits=self.pi(h)), self.v(h)
    """,
    "rl/runner.py": """
        import torch

        from rl.policy import ActorCritic


        def n_step_returns(rewards, dones, bootstrap: float, gamma: float):
            out, running = [], bootstrap
            for reward, done in zip(reversed(rewards), reversed(dones)):
                running = reward + gamma * running * (0.0 if done else 1.0)
                out.append(running)
            out.reverse()
            return torch.tensor(out)


        class Runner:
            def __init__(self, env, model: ActorCritic, n_steps: int = 8, gamma: float = 0.99):
                self.env, self.model = env, model
                self.n_steps, self.gamma = n_steps, gamma
                self.obs = env.reset()
                self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

            def collect(self):
                log_probs, values, rewards, dones = [], [], [], []
                for _ in range(self.n_steps):
                    dist, value = self.model(torch.as_tensor(self.obs, dtype=torch.float32))
                    action = dist.sample()
                    self.obs, reward, done = self.env.step(action.item())
                    log_probs.append(dist.log_prob(action))
                    values.append(value)
                    rewards.append(float(reward))
                    dones.append(done)
                with torch.no_grad():
                    _, last = self.model(torch.as_tensor(self.obs, dtype=torch.float32))
                return torch.stack(log_probs), torch.stack(values), rewards, dones, last.item()

            def update(self):
                log_probs, values, rewards, dones, bootstrap = self.collect()
                returns = n_step_returns(rewards, dones, bootstrap, self.gamma)
                advantages = %s
                loss = -(log_probs * advantages.detach()).mean() + advantages.pow(2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
    """,
}


@pytest.mark.parametrize(("advantage", "reported"), [("returns - values", [("rl/runner.py", 40)]),
                                                     ("returns - values.squeeze(-1)", [])])
def test_a_value_column_against_n_step_returns_of_a_helper(
        project: Path, advantage: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**A2C, "rl/runner.py": A2C["rl/runner.py"] % advantage})
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`returns` is (n_steps,) and `values` is (n_steps, ..., 1)" in message for _, _, message in found)


# a PPO update on a rollout buffer a loop fills: the advantages come from a GAE helper of the module that walks
# the steps backwards by index and puts each in front (`insert(0, ...)`), from the values kept as floats; the
# critic's outputs, on observations of a shape nothing states, are kept beside them; `%s` is the value loss
PPO = {
    "agent/__init__.py": "",
    "agent/ppo.py": """
        import torch
        import torch.nn as nn


        def compute_gae(rewards, values, masks, last_value: float, gamma: float = 0.99, lam: float = 0.95):
            advantages, gae, next_value = [], 0.0, last_value
            for t in reversed(range(len(rewards))):
                delta = rewards[t] + gamma * next_value * masks[t] - values[t]
                gae = delta + gamma * lam * masks[t] * gae
                advantages.insert(0, gae)
                next_value = values[t]
            return torch.tensor(advantages, dtype=torch.float32)


        class Critic(nn.Module):
            def __init__(self, obs_dim: int = 8):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 1))

            def forward(self, obs):
                return self.net(obs)


        class Learner:
            def __init__(self, critic: Critic, horizon: int = 32):
                self.critic = critic
                self.horizon = horizon
                self.opt = torch.optim.Adam(critic.parameters(), lr=1e-3)

            def rollout(self, env):
                pred_buf, rew_buf, val_buf, mask_buf = [], [], [], []
                obs = env.reset()
                for _ in range(self.horizon):
                    value = self.critic(torch.as_tensor(obs, dtype=torch.float32))
                    obs, reward, done = env.step(0)
                    pred_buf.append(value)
                    rew_buf.append(float(reward))
                    val_buf.append(value.item())
                    mask_buf.append(0.0 if done else 1.0)
                return pred_buf, rew_buf, val_buf, mask_buf, float(self.critic(torch.as_tensor(obs)).item())

            def update(self, env):
                preds, rewards, values, masks, last_value = self.rollout(env)
                advantages = compute_gae(rewards, values, masks, last_value)
                targets = advantages + torch.tensor(values)
                predicted = torch.stack(preds)
                value_loss = (%s).pow(2).mean()
                self.opt.zero_grad()
                value_loss.backward()
                self.opt.step()
    """,
}


@pytest.mark.parametrize(("error", "reported"), [("predicted - targets", [("agent/ppo.py", 48)]),
                                                 ("predicted.squeeze(-1) - targets", [])])
def test_a_critic_column_against_targets_from_a_gae_helper(
        project: Path, error: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**PPO, "agent/ppo.py": PPO["agent/ppo.py"] % error})
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`predicted` is (horizon, ..., 1) and `targets` is (horizon,)" in message for _, _, message in found)


# a rollout buffer that keeps the returns as a column and yields shuffled minibatches as records (a dataclass, or a
# `typing.NamedTuple` as stable-baselines3's samples are), and a value loss helper of another module; `%s` is the
# record class's header, then the target the helper takes
BUFFER = {
    "ppo/__init__.py": "",
    "ppo/buffer.py": """
        from dataclasses import dataclass
        from typing import NamedTuple

        import torch


        %s
            obs: torch.Tensor
            actions: torch.Tensor
            returns: torch.Tensor
            advantages: torch.Tensor


        class RolloutBuffer:
            def __init__(self, size: int, obs_dim: int):
                self.obs = torch.zeros(size, obs_dim)
                self.actions = torch.zeros(size, dtype=torch.long)
                self.returns = torch.zeros(size, 1)
                self.advantages = torch.zeros(size)
                self.size = size

            def batches(self, batch_size: int):
                order = torch.randperm(self.size)
                for start in range(0, self.size, batch_size):
                    idx = order[start:start + batch_size]
                    yield Batch(self.obs[idx], self.actions[idx], self.returns[idx], self.advantages[idx])
    """,
    "ppo/losses.py": """
        import torch.nn.functional as F

        from .buffer import Batch


        def value_loss(critic, batch: Batch):
            values = critic(batch.obs).squeeze(-1)
            return F.mse_loss(values, %s)
    """,
    "train.py": """
        import torch
        import torch.nn as nn

        from ppo.buffer import RolloutBuffer
        from ppo.losses import value_loss

        critic = nn.Sequential(nn.Linear(6, 64), nn.Tanh(), nn.Linear(64, 1))
        opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
        buffer = RolloutBuffer(256, 6)
        for epoch in range(4):
            for batch in buffer.batches(64):
                loss = value_loss(critic, batch)
                opt.zero_grad()
                loss.backward()
                opt.step()
    """,
}


@pytest.mark.parametrize("record", ["@dataclass\nclass Batch:", "class Batch(NamedTuple):"])
@pytest.mark.parametrize(("target", "reported"), [("batch.returns", [("train.py", 13)]),
                                                  ("batch.returns.squeeze(-1)", [])])
def test_a_critic_helper_against_the_returns_column_of_minibatch_records_a_buffer_yields(
        project: Path, record: str, target: str, reported: list[tuple[str, int]]) -> None:
    files = {**BUFFER, "ppo/buffer.py": BUFFER["ppo/buffer.py"].replace("        %s", "        " + record.replace(
        "\n", "\n        ")), "ppo/losses.py": BUFFER["ppo/losses.py"] % target}
    found = _findings(project, files)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`values` is (64,), `batch.returns` is (64, 1)" in message for _, _, message in found)


# a load forecaster in a package: the dataset cuts sliding windows from a series, each ending at a number of
# `range(lookback, len(series) - 1, stride)` (too many to run one by one), with the next reading as a (1,) target;
# the model scores every step of the window; `%s` is what it returns
FORECAST = {
    "forecast/__init__.py": """
        from .data import LoadWindows
        from .model import Forecaster
    """,
    "forecast/data.py": """
        import torch
        from torch.utils.data import Dataset


        class LoadWindows(Dataset):
            def __init__(self, series: torch.Tensor, lookback: int = 24, stride: int = 2):
                self.samples = []
                for end in range(lookback, len(series) - 1, stride):
                    self.samples.append((series[end - lookback:end], series[end:end + 1, 0]))

            def __len__(self):
                return len(self.samples)

            def __getitem__(self, i):
                return self.samples[i]
    """,
    "forecast/model.py": """
        import torch.nn as nn


        class Forecaster(nn.Module):
            def __init__(self, n_features: int, hidden: int = 32):
                super().__init__()
                self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
                self.out = nn.Linear(hidden, 1)

            def forward(self, x):
                seq, _ = self.lstm(x)
                return %s
    """,
    "train.py": """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader

        from forecast import Forecaster, LoadWindows


        def main():
            series = torch.randn(500, 3)
            loader = DataLoader(LoadWindows(series, lookback=24), batch_size=16, shuffle=True)
            model = Forecaster(3)
            criterion = nn.MSELoss()
            opt = torch.optim.Adam(model.parameters())
            for step, (x, y) in enumerate(loader):
                pred = model(x)
                loss = criterion(pred, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("self.out(seq).squeeze(-1)", [("train.py", 17)]),
                                                  ("self.out(seq[:, -1])", [])])
def test_every_step_of_sliding_windows_against_the_next_reading(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**FORECAST, "forecast/model.py": FORECAST["forecast/model.py"] % output})
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`pred` is (batch, 24), `y` is (batch, 1)" in message for _, _, message in found)


# a meter forecaster in a `src/` layout: the window length and the series length are command-line options, the
# dataset keeps the windows' ends, `list(range(window, len(readings), stride))`, and makes the reading after each a
# one-element tensor of an array element; `%s` is how the GRU's per-step outputs are read
METERS = {
    "src/meter/__init__.py": """
        from .dataset import MeterWindows
        from .net import GRUNet
    """,
    "src/meter/dataset.py": """
        import torch
        from torch.utils.data import Dataset


        class MeterWindows(Dataset):
            def __init__(self, readings, window: int, stride: int = 4):
                self.readings = readings
                self.ends = list(range(window, len(readings), stride))
                self.window = window

            def __len__(self):
                return len(self.ends)

            def __getitem__(self, i):
                end = self.ends[i]
                x = torch.from_numpy(self.readings[end - self.window:end])
                y = torch.tensor([self.readings[end, 0]])
                return x, y
    """,
    "src/meter/net.py": """
        import torch.nn as nn


        class GRUNet(nn.Module):
            def __init__(self, n_in: int, hidden: int = 32):
                super().__init__()
                self.gru = nn.GRU(n_in, hidden, batch_first=True)
                self.fc = nn.Linear(hidden, 1)

            def forward(self, x):
                h, _ = self.gru(x)
                return self.fc(h)
    """,
    "src/train.py": """
        import argparse

        import numpy as np
        import torch
        from torch.utils.data import DataLoader

        from meter import GRUNet, MeterWindows


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--window", type=int, default=48)
            parser.add_argument("--steps", type=int, default=2000)
            args = parser.parse_args()
            readings = np.random.rand(args.steps, 3).astype(np.float32)
            loader = DataLoader(MeterWindows(readings, args.window), batch_size=32, shuffle=True)
            model = GRUNet(3)
            loss_fn = torch.nn.L1Loss()
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for epoch in range(3):
                for x, y in loader:
                    out = %s
                    loss = loss_fn(out, y)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("model(x)[..., 0]", [("src/train.py", 24)]),
                                                  ("model(x)[:, -1]", [])])
def test_every_step_of_windows_ending_on_a_range_of_options_against_the_next_reading(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**METERS, "src/train.py": METERS["src/train.py"] % output})
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`out` is (batch, args.window), `y` is (batch, 1)" in message for _, _, message in found)


# the same dataset in a trainer class of the package holding the model and the criterion on `self`, its epoch run
# from the script on a loader of simulated readings: the windows are as many as `__init__` finds ends for, a count
# nothing states, and a loop over a loader of them is written to take its passes; `%s` is how the GRU's per-step
# outputs are read
METER_TRAINER = {
    **{name: text for name, text in METERS.items() if name != "src/train.py"},
    "src/meter/trainer.py": """
        import torch


        class Runner:
            def __init__(self, model, lr: float = 1e-3):
                self.model = model
                self.loss_fn = torch.nn.L1Loss()
                self.opt = torch.optim.Adam(model.parameters(), lr=lr)

            def epoch(self, loader):
                total = 0.0
                for x, y in loader:
                    out = %s
                    loss = self.loss_fn(out, y)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
                    total += loss.item()
                return total / len(loader)
    """,
    "src/train.py": """
        import argparse

        import numpy as np
        from torch.utils.data import DataLoader

        from meter import GRUNet, MeterWindows
        from meter.trainer import Runner


        def simulate(n_hours: int, n_meters: int, seed: int = 0):
            rng = np.random.default_rng(seed)
            daily = np.sin(np.arange(n_hours) * 2 * np.pi / 24)[:, None]
            return (daily + 0.1 * rng.standard_normal((n_hours, n_meters))).astype(np.float32)


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--days", type=int, default=90)
            parser.add_argument("--window", type=int, default=48)
            args = parser.parse_args()
            readings = simulate(args.days * 24, n_meters=3)
            loader = DataLoader(MeterWindows(readings, args.window), batch_size=32, shuffle=True)
            runner = Runner(GRUNet(3))
            for epoch in range(3):
                print(epoch, runner.epoch(loader))
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("self.model(x).squeeze(-1)", [("src/train.py", 26)]),
                                                  ("self.model(x)[:, -1]", [])])
def test_a_trainers_epoch_over_windows_of_simulated_readings(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**METER_TRAINER, "src/meter/trainer.py": METER_TRAINER["src/meter/trainer.py"] % output})
    assert [(name, row) for name, row, _ in found] == reported


# a trainer of the package holding the criterion on `self`, the model typed with its class of another module, over
# a loader of a dataset that reads its rows from a CSV file (as many as the file holds) and yields each price as a
# 0-d tensor; `%s` is the prediction the criterion gets
HOUSING = {
    "housing/__init__.py": "",
    "housing/data.py": """
        import csv

        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class HousingRows(Dataset):
            def __init__(self, path: str, n_features: int = 8):
                self.features, self.prices = [], []
                with open(path) as f:
                    for row in csv.reader(f):
                        self.features.append(np.array([float(v) for v in row[:n_features]], dtype=np.float32))
                        self.prices.append(float(row[n_features]))

            def __len__(self):
                return len(self.prices)

            def __getitem__(self, idx):
                return torch.from_numpy(self.features[idx]), torch.tensor(self.prices[idx], dtype=torch.float32)
    """,
    "housing/model.py": """
        import torch.nn as nn


        class PriceNet(nn.Module):
            def __init__(self, n_features: int = 8, hidden: int = 64):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

            def forward(self, x):
                return self.net(x)
    """,
    "housing/trainer.py": """
        import torch
        import torch.nn as nn

        from housing.model import PriceNet


        class Trainer:
            def __init__(self, model: PriceNet, lr: float = 1e-3):
                self.model = model
                self.criterion = nn.MSELoss()
                self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

            def train_epoch(self, loader):
                self.model.train()
                for feats, price in loader:
                    pred = %s
                    loss = self.criterion(pred, price)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
    """,
    "main.py": """
        import sys

        from torch.utils.data import DataLoader

        from housing.data import HousingRows
        from housing.model import PriceNet
        from housing.trainer import Trainer


        def main(path):
            loader = DataLoader(HousingRows(path), batch_size=64, shuffle=True)
            trainer = Trainer(PriceNet())
            for epoch in range(10):
                trainer.train_epoch(loader)


        if __name__ == "__main__":
            main(sys.argv[1])
    """,
}


@pytest.mark.parametrize(("prediction", "reported"), [("self.model(feats)", [("main.py", 15)]),
                                                      ("self.model(feats).squeeze(-1)", [])])
def test_a_trainers_criterion_against_scalar_targets_of_rows_a_file_holds(
        project: Path, prediction: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**HOUSING, "housing/trainer.py": HOUSING["housing/trainer.py"] % prediction})
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`pred` is (batch, 1), `price` is (batch,)" in message for _, _, message in found)
