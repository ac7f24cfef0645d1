"""SC104 where the shapes pass through links the analysis used to lose: a GAE helper of another module that carries
its accumulator from `0` and `insert`s a tensor per step, a time-series dataset whose series is `np.arange(...,
dtype=...)`, a Kipf-style GCN whose adjacency is a sparse tensor multiplied with `torch.spmm`. Each program has its
fixed look-alike, which stays silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.helpers import lint, project_findings


def _check(folder: Path, program: dict[str, str], changed: str, text: str, reported: list[tuple[str, int]],
           quoted: str) -> None:
    """SC104's findings in `program` with `text` put in its file `changed`: at `reported` (file, row), each
    message quoting `quoted`."""
    found = [(name, finding.location.row, finding.message)
             for name, finding in project_findings(folder, {**program, changed: program[changed] % text}, "SC104")]
    assert [(name, row) for name, row, _ in found] == reported
    assert all(quoted in message for _, _, message in found)


# a PPO rollout in `main` keeps the critic's (1,) values and (1,) rewards one a step; `gae_advantages` of another
# module goes backwards over them with `gae = 0` carried as a tensor and `insert(0, gae)`, so `torch.cat` of its
# list is (steps,); `%s` is what main makes of it
PPO = {
    "gae.py": """
        def gae_advantages(rewards, values, masks, next_value, gamma=0.99, tau=0.95):
            values = values + [next_value]
            gae = 0
            advantages = []
            for step in reversed(range(len(rewards))):
                delta = rewards[step] + gamma * values[step + 1] * masks[step] - values[step]
                gae = delta + gamma * tau * masks[step] * gae
                advantages.insert(0, gae)
            return advantages
    """,
    "nets.py": """
        import torch.nn as nn
        import torch.nn.functional as F


        class Policy(nn.Module):
            def __init__(self, state_dim, action_dim, hidden=64):
                super().__init__()
                self.fc = nn.Linear(state_dim, hidden)
                self.actor = nn.Linear(hidden, action_dim)
                self.critic = nn.Linear(hidden, 1)

            def forward(self, state):
                h = F.relu(self.fc(state))
                return F.softmax(self.actor(h), dim=-1), self.critic(h)
    """,
    "train.py": """
        import argparse

        import torch
        from torch.distributions import Categorical

        from gae import gae_advantages
        from nets import Policy


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--state-dim", type=int, default=4)
            parser.add_argument("--steps", type=int, default=64)
            args = parser.parse_args()
            policy = Policy(args.state_dim, 2)
            optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
            states, actions, log_probs, values, rewards, masks = [], [], [], [], [], []
            state = torch.randn(args.state_dim)
            for _ in range(args.steps):
                probs, value = policy(state)
                dist = Categorical(probs)
                action = dist.sample()
                states.append(state)
                actions.append(action)
                log_probs.append(dist.log_prob(action).detach())
                values.append(value.detach())
                rewards.append(torch.tensor([1.0]))
                masks.append(torch.tensor([1.0]))
                state = torch.randn(args.state_dim)
            _, next_value = policy(state)
            advantages = %s
            states, actions = torch.stack(states), torch.stack(actions)
            old_log_probs = torch.stack(log_probs)
            for _ in range(4):
                probs, _ = policy(states)
                ratio = (Categorical(probs).log_prob(actions) - old_log_probs).exp()
                loss = -torch.min(ratio * advantages, ratio.clamp(0.8, 1.2) * advantages).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """,
}


@pytest.mark.parametrize(("advantages", "reported"), [
    ("torch.cat(gae_advantages(rewards, values, masks, next_value.detach())).unsqueeze(1)",
     [("train.py", 38), ("train.py", 38)]),
    ("torch.cat(gae_advantages(rewards, values, masks, next_value.detach()))", []),
])
def test_ratios_against_advantages_a_gae_helper_inserts_from_a_zero_accumulator(
        project: Path, advantages: str, reported: list[tuple[str, int]]) -> None:
    _check(project, PPO, "train.py", advantages, reported, "`advantages` is (args.steps, 1)")


# a sine series made with `np.arange(length, dtype=np.float32)`; each window's next reading is kept as a (1,) slice;
# the LSTM's head is applied to every step (`%s`), then MSELoss against the one-step target
SINE = {
    "data.py": """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class SineWindows(Dataset):
            def __init__(self, length=2000, window=30):
                t = np.arange(length, dtype=np.float32)
                self.series = (np.sin(0.05 * t) + 0.1 * np.random.randn(length)).astype(np.float32)
                self.window = window

            def __len__(self):
                return len(self.series) - self.window

            def __getitem__(self, i):
                x = torch.tensor(self.series[i:i + self.window], dtype=torch.float32).unsqueeze(-1)
                y = torch.from_numpy(self.series[i + self.window:i + self.window + 1])
                return x, y
    """,
    "model.py": """
        import torch.nn as nn


        class LSTMForecaster(nn.Module):
            def __init__(self, input_size=1, hidden_size=32):
                super().__init__()
                self.lstm = nn.LSTM(input_size, hidden_size, batch_first=True)
                self.head = nn.Linear(hidden_size, 1)

            def forward(self, x):
                out, (h, c) = self.lstm(x)
                return %s
    """,
    "train.py": """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader

        from data import SineWindows
        from model import LSTMForecaster


        def train_one_epoch(model, loader, criterion, optimizer):
            for seq, target in loader:
                optimizer.zero_grad()
                loss = criterion(model(seq), target)
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            loader = DataLoader(SineWindows(), batch_size=64, shuffle=True, drop_last=True)
            model = LSTMForecaster()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            for epoch in range(2):
                train_one_epoch(model, loader, nn.MSELoss(), optimizer)
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("self.head(out).squeeze(-1)", [("train.py", 13)]),
                                                  ("self.head(out[:, -1])", [])])
def test_every_step_against_the_next_reading_of_an_arange_series(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    _check(project, SINE, "model.py", output, reported, "is (64, 30), `target` is (64, 1)")


# Kipf's pygcn layer (`torch.mm` then `torch.spmm` with a sparse adjacency) as a node regressor; the adjacency is a
# `torch.sparse_coo_tensor` of the size given; `rmse` is used correctly on the mean baseline, and on the model's
# (nodes, 1) output as `%s` says
GCN = {
    "layers.py": """
        import math

        import torch
        from torch.nn.parameter import Parameter
        from torch.nn.modules.module import Module


        class GraphConvolution(Module):
            def __init__(self, in_features, out_features):
                super(GraphConvolution, self).__init__()
                self.weight = Parameter(torch.FloatTensor(in_features, out_features))
                self.bias = Parameter(torch.FloatTensor(out_features))
                stdv = 1. / math.sqrt(self.weight.size(1))
                self.weight.data.uniform_(-stdv, stdv)
                self.bias.data.uniform_(-stdv, stdv)

            def forward(self, input, adj):
                support = torch.mm(input, self.weight)
                output = torch.spmm(adj, support)
                return output + self.bias
    """,
    "utils.py": """
        import torch


        def load_synthetic(n_nodes=300, n_feat=16, n_edges=1200):
            edges = torch.randint(0, n_nodes, (2, n_edges))
            edges = torch.cat([edges, edges.flip(0), torch.arange(n_nodes).repeat(2, 1)], dim=1)
            values = torch.ones(edges.size(1))
            adj = torch.sparse_coo_tensor(edges, values, (n_nodes, n_nodes)).coalesce()
            features = torch.randn(n_nodes, n_feat)
            return adj, features, features[:, :4].sum(1)


        def rmse(output, target):
            return (%s - target).pow(2).mean().sqrt()
    """,
    "train.py": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        from layers import GraphConvolution
        from utils import load_synthetic, rmse


        class GCN(nn.Module):
            def __init__(self, nfeat, nhid, nout):
                super(GCN, self).__init__()
                self.gc1 = GraphConvolution(nfeat, nhid)
                self.gc2 = GraphConvolution(nhid, nout)

            def forward(self, x, adj):
                return self.gc2(F.relu(self.gc1(x, adj)), adj)


        adj, features, target = load_synthetic()
        model = GCN(features.shape[1], 16, 1)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        print("mean baseline", rmse(target.mean().repeat(len(target)), target).item())
        for epoch in range(100):
            optimizer.zero_grad()
            loss = rmse(model(features, adj), target)
            loss.backward()
            optimizer.step()
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("output", [("train.py", 26)]),
                                                  ("output.view_as(target)", [])])
def test_a_sparse_adjacency_gcn_output_against_node_targets(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    _check(project, GCN, "utils.py", output, reported, "`output` is (300, 1) and `target` is (300,)")


def test_sparse_products_and_a_zero_accumulator_keep_their_shapes() -> None:
    """Look-alikes: a discounted return carried from `0.0` over (B,) rewards, and a sparse product, each used with
    the shape it has."""
    source = """
        import torch


        def returns_of(rewards, gamma=0.99):
            running = 0.0
            out = []
            for t in reversed(range(len(rewards))):
                running = rewards[t] + gamma * running
                out.insert(0, running)
            return torch.stack(out)


        def main(n=8, batch=16):
            rewards = [torch.rand(batch) for _ in range(n)]
            values = torch.randn(n, batch)
            advantages = returns_of(rewards) - values
            idx = torch.randint(0, 50, (2, 200))
            adj = torch.sparse_coo_tensor(idx, torch.ones(200), (50, 50))
            h = torch.sparse.mm(adj, torch.randn(50, 4)) - torch.randn(50, 4)
            return advantages.mean() + h.mean()
    """
    assert [finding.code for finding in lint(textwrap.dedent(source), "SC104", "SC105").findings] == []


# a fraud set whose per-row weights are looked up in a class-weight dict (`{0: 1.0, 1: n_neg / n_pos}`) by a list
# comprehension, one float per row; the loss is unreduced over the (batch, 1) logits; `%s` is the weighting
FRAUD = {
    "data.py": """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class FraudDataset(Dataset):
            def __init__(self, n_rows: int = 1000, n_features: int = 20, fraud_rate: float = 0.05):
                rng = np.random.default_rng(0)
                self.x = rng.normal(size=(n_rows, n_features)).astype(np.float32)
                self.y = (rng.random(n_rows) < fraud_rate).astype(np.float32)
                counts = np.bincount(self.y.astype(np.int64), minlength=2)
                class_weight = {0: 1.0, 1: float(counts[0]) / max(counts[1], 1)}
                self.w = [class_weight[int(label)] for label in self.y]

            def __len__(self):
                return len(self.y)

            def __getitem__(self, idx):
                label = torch.tensor([self.y[idx]])
                return torch.from_numpy(self.x[idx]), label, torch.tensor(self.w[idx], dtype=torch.float32)
    """,
    "train.py": """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader

        from data import FraudDataset


        def main(epochs: int = 2):
            loader = DataLoader(FraudDataset(), batch_size=128, shuffle=True)
            model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
            criterion = nn.BCEWithLogitsLoss(reduction="none")
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
            for epoch in range(epochs):
                for features, labels, weights in loader:
                    per_sample = criterion(model(features), labels)
                    loss = (%s).sum() / weights.sum()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
    """,
}


@pytest.mark.parametrize(("weighting", "reported"), [("per_sample * weights", [("train.py", 17)]),
                                                     ("per_sample.squeeze(1) * weights", [])])
def test_class_weights_looked_up_per_row_against_an_unreduced_column_loss(
        project: Path, weighting: str, reported: list[tuple[str, int]]) -> None:
    _check(project, FRAUD, "train.py", weighting, reported, "`per_sample` is (batch, 1) and `weights` is (batch,)")


# a single-lead ECG cut into chunks `recording[i * w:(i + 1) * w]`, `len // w` of them: (window, leads) each; the
# denoiser convolves channels first and returns (batch, leads, window) unless `%s` turns it back
ECG = {
    "signals.py": """
        import torch
        from torch.utils.data import Dataset


        class NoisyECG(Dataset):
            def __init__(self, recording: torch.Tensor, window: int = 128, noise: float = 0.1):
                self.recording = recording
                self.window = window
                self.noise = noise

            def __len__(self):
                return self.recording.shape[0] // self.window

            def __getitem__(self, i):
                clean = self.recording[i * self.window:(i + 1) * self.window]
                return clean + self.noise * torch.randn_like(clean), clean
    """,
    "train.py": """
        from dataclasses import dataclass

        import torch
        from torch import nn
        from torch.utils.data import DataLoader

        from signals import NoisyECG


        class ConvDenoiser(nn.Module):
            def __init__(self, leads: int, width: int = 32):
                super().__init__()
                self.net = nn.Sequential(nn.Conv1d(leads, width, 7, padding=3), nn.GELU(),
                                         nn.Conv1d(width, leads, 7, padding=3))

            def forward(self, x):
                return %s


        @dataclass
        class Config:
            leads: int = 1
            window: int = 128


        def main(cfg: Config) -> None:
            recording = torch.randn(20_000, cfg.leads).cumsum(0) * 0.01
            loader = DataLoader(NoisyECG(recording, cfg.window), batch_size=16, shuffle=True)
            model = ConvDenoiser(cfg.leads)
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            loss_fn = nn.MSELoss()
            for noisy, clean in loader:
                loss = loss_fn(model(noisy), clean)
                opt.zero_grad()
                loss.backward()
                opt.step()


        main(Config())
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("self.net(x.transpose(1, 2))", [("train.py", 34)]),
                                                  ("self.net(x.transpose(1, 2)).transpose(1, 2)", [])])
def test_channels_first_output_against_chunks_of_a_recording(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    _check(project, ECG, "train.py", output, reported, "is (batch, 1, 128), `clean` is (batch, 128, 1)")



# a dataset factory that indexes a registry with the `--dataset` option handed to it (`DATASETS[name](n, **kwargs)`);
# the two entries both give (n,) targets for (n, 1) inputs; a same-file `mse` helper is given the MLP's (batch, 1)
# output, `%s` being its difference
FACTORY = {
    "datasets.py": """
        import math

        import torch
        from torch.utils.data import TensorDataset


        def make_sine(n_samples, noise=0.1):
            x = torch.linspace(-math.pi, math.pi, n_samples).unsqueeze(1)
            return TensorDataset(x, torch.sin(x).squeeze(1) + noise * torch.randn(n_samples))


        def make_cubic(n_samples, noise=0.1):
            x = torch.rand(n_samples, 1) * 4 - 2
            return TensorDataset(x, (x ** 3 - x).view(-1) + noise * torch.randn(n_samples))


        DATASETS = {"sine": make_sine, "cubic": make_cubic}


        def build_dataset(name, n_samples, **kwargs):
            if name not in DATASETS:
                raise ValueError(f"unknown dataset {name}")
            return DATASETS[name](n_samples, **kwargs)
    """,
    "train.py": """
        import argparse

        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, random_split

        from datasets import build_dataset


        def mse(pred, target):
            diff = %s
            return (diff * diff).mean()


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--dataset", default="sine", choices=["sine", "cubic"])
            parser.add_argument("--n", type=int, default=1000)
            args = parser.parse_args()
            train_set, val_set = random_split(build_dataset(args.dataset, args.n), [0.8, 0.2])
            model = nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 1))
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            for x, y in DataLoader(train_set, batch_size=32, shuffle=True):
                loss = mse(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """,
}


@pytest.mark.parametrize(("difference", "reported"), [("pred - target", [("train.py", 12)]),
                                                      ("pred.squeeze(-1) - target", [])])
def test_column_predictions_against_targets_of_a_registry_factory_the_option_picks(
        project: Path, difference: str, reported: list[tuple[str, int]]) -> None:
    _check(project, FACTORY, "train.py", difference, reported, "`pred` is (batch, 1) and `target` is (batch,)")


# `main()` first, the model class and the loss helper it calls below it, `main()` run at the end: the names are the
# module's definitions by the time `main` runs; `%s` is what the helper subtracts
LATER = """
import torch
import torch.nn as nn


def main():
    x = torch.randn(128, 10)
    y = torch.randn(128)
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = weighted_mse(model(x), y, torch.ones(128))
        opt.zero_grad()
        loss.backward()
        opt.step()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 1)

    def forward(self, x):
        return self.fc(x)


def weighted_mse(pred, target, weight):
    return (weight * (%s - target) ** 2).mean()


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(("prediction", "rows"), [("pred", [28]), ("pred.squeeze(1)", [])])
def test_a_model_and_a_loss_helper_defined_below_main(prediction: str, rows: list[int]) -> None:
    found = lint(LATER % prediction, "SC104").findings
    assert [finding.location.row for finding in found] == rows
    assert all("`pred` is (128, 1) and `target` is (128,)" in finding.message for finding in found)


def test_a_helper_the_module_defines_twice_is_not_followed() -> None:
    """Look-alike: two definitions of the helper (the second for another model's output): which one `main` calls
    depends on where it runs, so neither is followed."""
    source = LATER % "pred" + """

def weighted_mse(pred, target, weight):
    return (weight * (pred.squeeze(1) - target) ** 2).mean()
"""
    assert lint(source, "SC104").findings == []
