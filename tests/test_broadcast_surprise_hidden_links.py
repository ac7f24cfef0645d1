"""SC104 where the shapes pass through links the analysis used to lose (stop 45, t45a): a PPO agent's update
called in a loop over `range(num_updates)` of a parameter (the run that makes the call certain reports it, not the
plain run of the loop that may not run), discounted returns a helper appends backwards and puts back in order with
`[::-1]`, and a GCN's outputs and targets picked by one boolean `train_mask`. Each program has its fixed look-alike,
which stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import lint, project_findings
from tests.shapes.probe import probe


def _found(folder: Path, program: dict[str, str], changed: str, text: str) -> list[tuple[str, int, str]]:
    return [(name, finding.location.row, finding.message)
            for name, finding in project_findings(folder, {**program, changed: program[changed] % text}, "SC104")]


# the rollout lists are made anew on each pass of `for _ in range(num_updates)`, a parameter's default: the plain run
# of `run` may make no pass, the call `run()` makes three
PPO = {
    "agent.py": """
        import torch
        from torch.distributions import Categorical

        from networks import Actor, Critic
        from utils import gae_advantages


        class PPOAgent:
            def __init__(self, state_dim=4, n_actions=2, clip=0.2, lr=3e-4):
                self.actor = Actor(state_dim, n_actions)
                self.critic = Critic(state_dim)
                self.opt = torch.optim.Adam(list(self.actor.parameters()) + list(self.critic.parameters()), lr=lr)
                self.clip = clip

            def act(self, state):
                probs = self.actor(state)
                dist = Categorical(probs)
                action = dist.sample()
                return action, dist.log_prob(action), self.critic(state)

            def update(self, states, actions, old_log_probs, returns, values):
                returns = torch.cat(returns).detach()
                values = torch.cat(values).detach()
                advantage = %s
                for _ in range(4):
                    dist = Categorical(self.actor(states))
                    new_log_probs = dist.log_prob(actions)
                    ratio = (new_log_probs - old_log_probs).exp()
                    surr1 = ratio * advantage
                    surr2 = torch.clamp(ratio, 1.0 - self.clip, 1.0 + self.clip) * advantage
                    actor_loss = -torch.min(surr1, surr2).mean()
                    critic_loss = (returns - self.critic(states)).pow(2).mean()
                    loss = actor_loss + 0.5 * critic_loss
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
    """,
    "networks.py": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Actor(nn.Module):
            def __init__(self, state_dim, n_actions):
                super().__init__()
                self.l1 = nn.Linear(state_dim, 64)
                self.l2 = nn.Linear(64, n_actions)

            def forward(self, s):
                return F.softmax(self.l2(torch.tanh(self.l1(s))), dim=-1)


        class Critic(nn.Module):
            def __init__(self, state_dim):
                super().__init__()
                self.l1 = nn.Linear(state_dim, 64)
                self.l2 = nn.Linear(64, 1)

            def forward(self, s):
                return self.l2(torch.tanh(self.l1(s)))
    """,
    "train.py": """
        import torch

        from agent import PPOAgent
        from utils import gae_advantages


        def run(num_updates=3, horizon=32):
            agent = PPOAgent()
            state = torch.randn(1, 4)
            for _ in range(num_updates):
                states, actions, log_probs, values, rewards, masks = [], [], [], [], [], []
                for _ in range(horizon):
                    with torch.no_grad():
                        action, log_prob, value = agent.act(state)
                    next_state = torch.randn(1, 4)
                    reward = torch.rand(1)
                    done = torch.rand(1) < 0.05
                    states.append(state)
                    actions.append(action)
                    log_probs.append(log_prob)
                    values.append(value)
                    rewards.append(reward)
                    masks.append(1.0 - done.float())
                    state = next_state
                with torch.no_grad():
                    next_value = agent.critic(state)
                returns = gae_advantages(rewards, values, masks, next_value)
                agent.update(torch.cat(states), torch.cat(actions), torch.cat(log_probs), returns, values)


        if __name__ == "__main__":
            run()
    """,
    "utils.py": """
        import torch


        def gae_advantages(rewards, values, masks, next_value, gamma=0.99, tau=0.95):
            values = values + [next_value]
            gae = 0
            returns = []
            for step in reversed(range(len(rewards))):
                delta = rewards[step] + gamma * values[step + 1] * masks[step] - values[step]
                gae = delta + gamma * tau * masks[step] * gae
                returns.insert(0, gae + values[step])
            return returns
    """,
}


@pytest.mark.parametrize(("advantage", "reported"), [("returns - values", [("train.py", 29)]),
                                                     ("(returns - values).squeeze(-1)", [])])
def test_ratios_against_advantages_of_an_update_in_a_loop_over_a_parameters_range(
        project: Path, advantage: str, reported: list[tuple[str, int]]) -> None:
    found = _found(project, PPO, "agent.py", advantage)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`ratio` is (32,) and `advantage` is (32, 1)" in message for _, _, message in found)


# an episode of unknown length (`while not done`), its returns discounted backwards by a helper and put back in order
# with `out[::-1]`; `%s` is what `run_episode` makes of them
REINFORCE = {
    "env.py": """
        import random

        import torch


        class ToyEnv:
            def __init__(self, obs_dim=4, max_steps=50):
                self.obs_dim = obs_dim
                self.max_steps = max_steps
                self.t = 0

            def reset(self):
                self.t = 0
                return torch.randn(self.obs_dim)

            def step(self, action):
                self.t += 1
                done = self.t >= self.max_steps or random.random() < 0.05
                return torch.randn(self.obs_dim), random.random(), done
    """,
    "models.py": """
        import torch
        import torch.nn as nn


        class Policy(nn.Module):
            def __init__(self, obs_dim=4, n_actions=2):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

            def forward(self, x):
                return torch.softmax(self.body(x), dim=-1)


        class Baseline(nn.Module):
            def __init__(self, obs_dim=4):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 1))

            def forward(self, x):
                return self.body(x).squeeze(-1)
    """,
    "reinforce.py": """
        import torch
        import torch.nn.functional as F

        from env import ToyEnv
        from models import Baseline, Policy
        from rollout import run_episode


        def baseline_loss(baseline, episode):
            return F.mse_loss(baseline(episode.states), episode.returns)


        def main(episodes=10):
            env = ToyEnv()
            policy, baseline = Policy(), Baseline()
            p_opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
            b_opt = torch.optim.Adam(baseline.parameters(), lr=1e-2)
            for _ in range(episodes):
                ep = run_episode(env, policy)
                b_loss = baseline_loss(baseline, ep)
                b_opt.zero_grad()
                b_loss.backward()
                b_opt.step()
                with torch.no_grad():
                    adv = ep.returns.view(-1) - baseline(ep.states)
                logp = torch.log(policy(ep.states).gather(1, ep.actions.unsqueeze(1)).squeeze(1))
                p_loss = -(logp * adv).mean()
                p_opt.zero_grad()
                p_loss.backward()
                p_opt.step()


        if __name__ == "__main__":
            main()
    """,
    "rollout.py": """
        from dataclasses import dataclass
        from typing import List

        import torch


        @dataclass
        class Episode:
            states: torch.Tensor
            actions: torch.Tensor
            returns: torch.Tensor


        def discount(rewards: List[float], gamma: float) -> List[float]:
            out, g = [], 0.0
            for r in reversed(rewards):
                g = r + gamma * g
                out.append(g)
            return out[::-1]


        def run_episode(env, policy, gamma=0.99) -> Episode:
            states, actions, rewards = [], [], []
            obs = env.reset()
            done = False
            while not done:
                with torch.no_grad():
                    probs = policy(obs)
                action = torch.multinomial(probs, 1).item()
                next_obs, reward, done = env.step(action)
                states.append(obs)
                actions.append(action)
                rewards.append(reward)
                obs = next_obs
            returns = %s
            return Episode(torch.stack(states), torch.tensor(actions), returns)
    """,
}


@pytest.mark.parametrize(("returns", "reported"), [
    ("torch.tensor(discount(rewards, gamma), dtype=torch.float32).unsqueeze(1)", [("reinforce.py", 11)]),
    ("torch.tensor(discount(rewards, gamma), dtype=torch.float32)", []),
])
def test_a_baseline_against_returns_discounted_backwards_and_reversed(
        project: Path, returns: str, reported: list[tuple[str, int]]) -> None:
    found = _found(project, REINFORCE, "rollout.py", returns)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("is (n,), `episode.returns` is (n, 1)" in message for _, _, message in found)


# a Kipf-style GCN regressor scored on the nodes of a boolean `train_mask` by an `rmse` helper that a baseline also
# calls, correctly, on the validation nodes; `%s` is what the model returns
GCN = {
    "layers.py": """
        import math

        import torch
        import torch.nn as nn


        class GraphConvolution(nn.Module):
            def __init__(self, in_features, out_features):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(in_features, out_features))
                self.bias = nn.Parameter(torch.zeros(out_features))
                stdv = 1.0 / math.sqrt(out_features)
                self.weight.data.uniform_(-stdv, stdv)

            def forward(self, x, adj):
                support = torch.mm(x, self.weight)
                return torch.spmm(adj, support) + self.bias


        class GCNRegressor(nn.Module):
            def __init__(self, nfeat, nhid, dropout=0.5):
                super().__init__()
                self.gc1 = GraphConvolution(nfeat, nhid)
                self.gc2 = GraphConvolution(nhid, 1)
                self.dropout = dropout

            def forward(self, x, adj):
                x = torch.relu(self.gc1(x, adj))
                x = nn.functional.dropout(x, self.dropout, training=self.training)
                return %s
    """,
    "metrics.py": """
        import torch


        def rmse(pred, target):
            return torch.sqrt(((pred - target) ** 2).mean())
    """,
    "utils.py": """
        import torch


        def load_graph(n_nodes=200, n_feat=16, n_edges=800, seed=0):
            g = torch.Generator().manual_seed(seed)
            features = torch.randn(n_nodes, n_feat, generator=g)
            src = torch.randint(0, n_nodes, (n_edges,), generator=g)
            dst = torch.randint(0, n_nodes, (n_edges,), generator=g)
            indices = torch.stack([torch.cat([src, dst, torch.arange(n_nodes)]), torch.cat([dst, src, torch.arange(n_nodes)])])
            values = torch.ones(indices.shape[1])
            adj = torch.sparse_coo_tensor(indices, values, (n_nodes, n_nodes))
            deg = torch.sparse.sum(adj, dim=1).to_dense()
            adj = torch.sparse_coo_tensor(indices, values / deg[indices[0]], (n_nodes, n_nodes))
            targets = features[:, 0] * 2.0 + torch.randn(n_nodes, generator=g) * 0.1
            idx_train = torch.zeros(n_nodes, dtype=torch.bool)
            idx_train[:120] = True
            idx_val = torch.arange(120, 160)
            return adj, features, targets, idx_train, idx_val
    """,
    "train.py": """
        import torch

        from layers import GCNRegressor
        from metrics import rmse
        from utils import load_graph

        adj, features, targets, idx_train, idx_val = load_graph()
        model = GCNRegressor(nfeat=features.shape[1], nhid=32)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

        baseline = torch.full_like(targets[idx_val], targets[idx_train].mean().item())
        print("baseline rmse", rmse(baseline, targets[idx_val]).item())


        def train_epoch():
            model.train()
            optimizer.zero_grad()
            output = model(features, adj)
            loss = rmse(output[idx_train], targets[idx_train])
            loss.backward()
            optimizer.step()
            return loss.item()


        for epoch in range(50):
            train_epoch()
    """,
}


@pytest.mark.parametrize(("output", "reported"), [("self.gc2(x, adj)", [("train.py", 20)]),
                                                  ("self.gc2(x, adj).squeeze(-1)", [])])
def test_gcn_outputs_against_targets_under_one_boolean_mask(
        project: Path, output: str, reported: list[tuple[str, int]]) -> None:
    found = _found(project, GCN, "layers.py", output)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`pred` is (idx_train.sum(), 1) and `target` is (idx_train.sum(),)" in message
               for _, _, message in found)


def test_a_grown_list_reversed_by_a_slice_or_copied_keeps_its_count() -> None:
    """`out[::-1]` and `out[:]` of a list a loop grew hold as many elements; `torch.as_tensor` and
    `torch.FloatTensor` of a helper's list read it as `torch.tensor` does; a step other than 1 or -1 is unknown."""
    assert probe('''
import torch


def discount(rewards, gamma):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def main(env):
    states, rewards = [], []
    done = False
    while not done:
        states.append(torch.randn(4))
        rewards.append(float(env.step()))
        done = env.done()
    probe(torch.tensor(discount(rewards, 0.9)) - torch.stack(states)[:, :1])
    probe(torch.as_tensor(discount(rewards, 0.9)))
    probe(torch.FloatTensor(discount(rewards, 0.9)))
    probe(torch.tensor(rewards[:]))
    probe(torch.tensor(rewards[::2]))
''') == ["(n, n)", "(n,)", "(n,)", "(n,)", None]


def test_a_boolean_mask_picks_a_count_of_its_own() -> None:
    """One 1-d boolean mask picks the same count from every tensor whose dim it fits, a count of its own for
    another mask (`~m`, a comparison written out); a mask not known to fit the dim is unknown."""
    assert probe('''
import torch

y = torch.randn(10, 3)
w = torch.randn(10)
m = y[:, 0] > 0
probe(y[m])
probe(w[m])
probe(y[~m])
probe(y[w > 0, 0])
probe(torch.randn(12)[m])


def f(x, mask):
    probe(x[mask])
''') == ["(m.sum(), 3)", "(m.sum(),)", "((~m).sum(), 3)", "((w > 0).sum(),)", None, None]


def test_one_entry_a_mask_picks_is_not_called_several() -> None:
    """A mask's count may be 1 (`idx[scores == scores.max()]` picks the best one): `.item()` of it is not SC107,
    while a column of it against the same mask's rows is still SC104."""
    source = '''
import torch


def best(scores: torch.Tensor) -> int:
    idx = torch.arange(10)
    return idx[scores == scores.max()].item()


def residual(pred: torch.Tensor, y: torch.Tensor):
    keep = y > 0
    return pred[keep][:, :1] - y[keep]


best(torch.randn(10))
residual(torch.randn(10, 3), torch.randn(10))
'''
    assert [(finding.code, finding.location.row) for finding in lint(source, "SC104", "SC107").findings] == [
        ("SC104", 12)]


# a custom optimizer for a stack of expert matrices scales each (m, n) update by its Frobenius norm; `%s` is the
# update, `g` the gradient of a parameter the optimizer does not know the shape of
OPTIMIZER = '''
import torch
from torch.optim import Optimizer


class StackedNormSGD(Optimizer):
    def __init__(self, params, lr=1e-2, eps=1e-8):
        super().__init__(params, dict(lr=lr, eps=eps))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                g = p.grad
                if g.dim() == 3:
                    norms = g.norm(dim=(-2, -1))
                    update = %s
                else:
                    update = g / (g.norm() + group["eps"])
                p.add_(update, alpha=-group["lr"])
'''


@pytest.mark.parametrize(("update", "reported"), [
    ('g / (norms + group["eps"])', [19]),
    ('g / norms.clamp(min=group["eps"])', [19]),
    ("g.div(norms.add(1e-8))", [19]),
    ('g / torch.linalg.matrix_norm(g).clamp_min(group["eps"])', [19]),
    ('g / (norms[:, None, None] + group["eps"])', []),
    ('g / (norms.view(-1, 1, 1) + group["eps"])', []),
    ('g / (g.norm(dim=(-2, -1), keepdim=True) + group["eps"])', []),
    ('g / (g.norm(dim=0) + group["eps"])', []),
])
def test_a_norm_over_the_last_two_dims_divided_back_into_the_stack(update: str, reported: list[int]) -> None:
    """The reduction is found through an arithmetic operator or method on it, whatever the other operand (`+
    group["eps"]`: its dims keep their place from the right), `torch.linalg.matrix_norm` is over the last two dims,
    and `if g.dim() == 3:` states the rank negative dims need; a norm put back in place, kept, or over the leading dim
    is not reported."""
    assert [finding.location.row for finding in lint(OPTIMIZER % update, "SC104").findings] == reported


def test_a_rank_test_elsewhere_states_nothing() -> None:
    """Only a test around the division, on the branch it guards, gives the rank (`len(g.shape) == 3` too): in the
    `else` branch, for another tensor, or after the branch binds the name again, negative dims of a tensor of
    unknown rank stay unknown."""
    source = '''
import torch


def scale(g, h):
    if g.dim() == 3:
        pass
    else:
        g = g / g.norm(dim=(-2, -1))
    if h.ndim == 3:
        g = g / g.norm(dim=(-2, -1))
    if g.ndim == 3:
        g = g.flatten(1)
        g = g / g.norm(dim=(-2, -1))
    return g


def scale_stack(w):
    if len(w.shape) == 3:
        w = w / w.norm(dim=(-2, -1))
    return w
'''
    assert [finding.location.row for finding in lint(source, "SC104").findings] == [20]


# a rollout object whose `add` appends a step's state and reward and whose `clear` empties it after each update;
# `compute` discounts the rewards into a dataclass batch; `%s` is what each return is kept as
FILLED = {
    "nets.py": """
        import torch.nn as nn


        class Critic(nn.Module):
            def __init__(self, obs_dim=4):
                super().__init__()
                self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

            def forward(self, s):
                return self.v(s).squeeze(-1)
    """,
    "storage.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class Batch:
            states: torch.Tensor
            returns: torch.Tensor


        class Rollout:
            def __init__(self):
                self.states = []
                self.rewards = []

            def add(self, state, reward):
                self.states.append(state)
                self.rewards.append(reward)

            def compute(self, gamma=0.99) -> Batch:
                returns, g = [], 0.0
                for r in reversed(self.rewards):
                    g = r + gamma * g
                    returns.insert(0, %s)
                return Batch(torch.stack(self.states), torch.tensor(returns))

            def clear(self):
                self.states.clear()
                self.rewards.clear()
    """,
    "train.py": """
        import random

        import torch
        import torch.nn.functional as F

        from nets import Critic
        from storage import Rollout


        def critic_loss(critic, batch):
            return F.mse_loss(critic(batch.states), batch.returns)


        def main():
            critic = Critic()
            opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
            rollout = Rollout()
            for episode in range(5):
                for t in range(40):
                    rollout.add(torch.randn(4), random.random())
                batch = rollout.compute()
                loss = critic_loss(critic, batch)
                opt.zero_grad()
                loss.backward()
                opt.step()
                rollout.clear()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.mark.parametrize(("kept", "reported"), [("[g]", [("train.py", 12)]), ("g", [])])
def test_a_critic_against_returns_of_an_object_its_add_method_fills(
        project: Path, kept: str, reported: list[tuple[str, int]]) -> None:
    """A run that builds the object runs each call of its filling methods (`add`, `clear`) for what they append."""
    found = _found(project, FILLED, "storage.py", kept)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("is (40,), `batch.returns` is (40, 1)" in message for _, _, message in found)


def test_a_buffer_read_where_its_filling_is_not_followed_is_not_known() -> None:
    """A module-level buffer a function reads, and one a helper fills: what they hold is not known there (no finding,
    none of an empty list either)."""
    source = '''
import torch
import torch.nn.functional as F


class Buffer:
    def __init__(self):
        self.states = []
        self.returns = []

    def push(self, s, r):
        self.states.append(s)
        self.returns.append(r)

    def clear(self):
        self.states.clear()
        self.returns.clear()


buffer = Buffer()
critic = torch.nn.Linear(4, 1)


def update():
    states = torch.stack(buffer.states)
    returns = torch.tensor(buffer.returns)
    loss = F.mse_loss(critic(states).squeeze(-1), returns)
    buffer.clear()
    return loss


def collect(buf, n):
    for _ in range(n):
        buf.push(torch.randn(4), 1.0)


def main():
    local = Buffer()
    collect(local, 10)
    s = torch.stack(local.states)
    r = torch.tensor(local.returns)
    l2 = F.mse_loss(critic(s), r.unsqueeze(-1))
    for step in range(100):
        buffer.push(torch.randn(4), 1.0)
        if step % 10 == 9:
            update()
    return l2


main()
'''
    assert lint(source, "SC104", "SC105", "SC107").findings == []


# a PPO agent whose `__init__` builds its rollout storage; `collect` pushes each step, `update` reads the dataclass
# batch `finalize` makes (returns put back in order with `[::-1]`) and resets the storage; `%s` is the value head's
# output
AGENT = {
    "agents/__init__.py": "",
    "agents/buffer.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class Minibatch:
            obs: torch.Tensor
            actions: torch.Tensor
            old_log_probs: torch.Tensor
            returns: torch.Tensor
            advantages: torch.Tensor


        class RolloutStorage:
            def __init__(self):
                self.obs = []
                self.actions = []
                self.log_probs = []
                self.rewards = []
                self.values = []

            def push(self, obs, action, log_prob, reward, value):
                self.obs.append(obs)
                self.actions.append(action)
                self.log_probs.append(log_prob)
                self.rewards.append(reward)
                self.values.append(value)

            def reset(self):
                self.obs = []
                self.actions = []
                self.log_probs = []
                self.rewards = []
                self.values = []

            def finalize(self, gamma=0.99):
                values = torch.cat(self.values)
                returns = []
                running = 0.0
                for r in reversed(self.rewards):
                    running = r + gamma * running
                    returns.append(running)
                returns = torch.tensor(returns[::-1], dtype=torch.float32)
                return Minibatch(torch.stack(self.obs), torch.stack(self.actions), torch.stack(self.log_probs),
                                 returns, returns - values.squeeze(-1))
    """,
    "agents/losses.py": """
        import torch
        import torch.nn.functional as F


        def value_loss(values: torch.Tensor, batch) -> torch.Tensor:
            return F.mse_loss(values, batch.returns)


        def policy_loss(new_log_probs, batch, clip=0.2):
            ratio = torch.exp(new_log_probs - batch.old_log_probs)
            clipped = torch.clamp(ratio, 1 - clip, 1 + clip)
            return -torch.min(ratio * batch.advantages, clipped * batch.advantages).mean()
    """,
    "agents/model.py": """
        import torch
        import torch.nn as nn


        class ActorCritic(nn.Module):
            def __init__(self, obs_dim: int = 8, n_actions: int = 4):
                super().__init__()
                self.shared = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
                self.pi = nn.Linear(64, n_actions)
                self.v = nn.Linear(64, 1)

            def forward(self, obs):
                h = self.shared(obs)
                return torch.distributions.Categorical(logits=self.pi(h)), %s
    """,
    "run_ppo.py": """
        import random

        import torch

        from agents.buffer import RolloutStorage
        from agents.losses import policy_loss, value_loss
        from agents.model import ActorCritic


        class PPO:
            def __init__(self, horizon: int = 64, epochs: int = 4):
                self.model = ActorCritic()
                self.opt = torch.optim.Adam(self.model.parameters(), lr=2.5e-4)
                self.storage = RolloutStorage()
                self.horizon = horizon
                self.epochs = epochs

            def collect(self):
                obs = torch.randn(8)
                for _ in range(self.horizon):
                    with torch.no_grad():
                        dist, value = self.model(obs.unsqueeze(0))
                        action = dist.sample()
                    self.storage.push(obs, action.squeeze(0), dist.log_prob(action).squeeze(0), random.random(), value.squeeze(0))
                    obs = torch.randn(8)

            def update(self):
                batch = self.storage.finalize()
                for _ in range(self.epochs):
                    dist, values = self.model(batch.obs)
                    loss = policy_loss(dist.log_prob(batch.actions), batch) + 0.5 * value_loss(values, batch)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
                self.storage.reset()


        if __name__ == "__main__":
            agent = PPO()
            for it in range(3):
                agent.collect()
                agent.update()
    """,
}


def test_an_agents_storage_built_in_its_init_is_filled_by_its_own_calls(project: Path) -> None:
    """The storage an agent's `__init__` builds is its own: the run that builds the agent runs its `push` and
    `reset` calls, so the dataclass batch of the rollout is known where the value loss meets it."""
    found = _found(project, AGENT, "agents/model.py", "self.v(h)")
    assert [(name, row) for name, row, _ in found] == [("run_ppo.py", 32)]
    assert "`values` is (64, 1), `batch.returns` is (64,)" in found[0][2]
