"""SC104 on a rollout memory: an object of the project whose lists a collecting helper fills, step by step, in the
episodes it plays (a `while not done` loop inside a loop over episodes), read by the agent's update in another
module. The lists appended on the same steps are as long as each other; lists appended on other passes (once an
episode) are not. Each program has its fixed look-alike, which stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import project_findings


def _findings(folder: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    return [(name, finding.location.row, finding.message) for name, finding in project_findings(folder, files, "SC104")]


# an actor-critic in a package: the memory keeps the critic's (1,) outputs and the rewards as floats; `collect`
# plays whole episodes into it; the agent's `learn` stacks the values and discounts the rewards in a helper of the
# package (backwards, each return put in front); `%s` is the advantage, then where the rewards are kept
ROLLOUT = {
    "rl/__init__.py": """
        from .agent import Agent
        from .memory import Memory
    """,
    "rl/memory.py": """
        class Memory:
            def __init__(self):
                self.reset()

            def reset(self):
                self.log_probs, self.values, self.rewards, self.terminals = [], [], [], []
    """,
    "rl/utils.py": """
        import torch


        def discount(rewards, terminals, gamma=0.99):
            out, running = [], 0.0
            for reward, terminal in zip(reversed(rewards), reversed(terminals)):
                running = reward + gamma * running * (1.0 - terminal)
                out.insert(0, running)
            returns = torch.tensor(out, dtype=torch.float32)
            return (returns - returns.mean()) / (returns.std() + 1e-8)
    """,
    "rl/agent.py": """
        import torch
        import torch.nn as nn
        from torch.distributions import Categorical

        from .utils import discount


        class Policy(nn.Module):
            def __init__(self, obs_dim, n_actions, hidden=64):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
                self.logits = nn.Linear(hidden, n_actions)
                self.value = nn.Linear(hidden, 1)

            def forward(self, obs):
                h = self.body(obs)
                return Categorical(logits=self.logits(h)), self.value(h)


        class Agent:
            def __init__(self, policy, lr=3e-4, gamma=0.99):
                self.policy = policy
                self.gamma = gamma
                self.optimizer = torch.optim.Adam(policy.parameters(), lr=lr)

            def act(self, obs):
                dist, value = self.policy(torch.as_tensor(obs, dtype=torch.float32))
                action = dist.sample()
                return action.item(), dist.log_prob(action), value

            def learn(self, memory):
                returns = discount(memory.rewards, memory.terminals, self.gamma)
                values = torch.stack(memory.values)
                log_probs = torch.stack(memory.log_probs)
                advantage = %s
                loss = -(log_probs * advantage.detach()).mean() + advantage.pow(2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                return loss.item()
    """,
    "rl/rollout.py": """
        def collect(env, agent, memory, episodes):
            lengths = []
            for _ in range(episodes):
                obs, done, steps = env.reset(), False, 0
                while not done:
                    action, log_prob, value = agent.act(obs)
                    obs, reward, done = env.step(action)
                    memory.log_probs.append(log_prob)
                    memory.values.append(value)
                    %s
                    memory.terminals.append(float(done))
                    steps += 1
                lengths.append(steps)
            return sum(lengths) / len(lengths)
    """,
    "train.py": """
        import argparse

        import numpy as np
        import torch

        from rl import Agent, Memory
        from rl.agent import Policy
        from rl.rollout import collect


        class Corridor:
            def __init__(self, step_size=0.1):
                self.step_size = step_size

            def reset(self):
                self.pos = 0.0
                return np.array([self.pos, 1.0 - self.pos], dtype=np.float32)

            def step(self, action):
                self.pos = min(max(self.pos + self.step_size * (2 * action - 1), 0.0), 1.0)
                done = self.pos >= 1.0
                return np.array([self.pos, 1.0 - self.pos], dtype=np.float32), (1.0 if done else -0.01), done


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--updates", type=int, default=50)
            parser.add_argument("--episodes-per-update", type=int, default=4)
            args = parser.parse_args()
            torch.manual_seed(0)
            env = Corridor()
            agent = Agent(Policy(2, 2))
            memory = Memory()
            for update in range(args.updates):
                mean_length = collect(env, agent, memory, args.episodes_per_update)
                loss = agent.learn(memory)
                memory.reset()
                print(update, loss, mean_length)


        if __name__ == "__main__":
            main()
    """,
}

_EACH_STEP = "memory.rewards.append(reward)"
# the episode's length kept once an episode, after its steps: as many as the episodes, not as the steps
_EACH_EPISODE = "memory.rewards.append(float(steps)) if done else None"


@pytest.mark.parametrize(("advantage", "rewards", "reported"), [
    ("returns - values", _EACH_STEP, [("train.py", 37)]),
    ("returns - values.squeeze(-1)", _EACH_STEP, []),
    ("returns - values", _EACH_EPISODE, []),
])
def test_a_value_column_against_returns_of_a_memory_filled_episode_by_episode(
        project: Path, advantage: str, rewards: str, reported: list[tuple[str, int]]) -> None:
    files = {**ROLLOUT, "rl/agent.py": ROLLOUT["rl/agent.py"] % advantage,
             "rl/rollout.py": ROLLOUT["rl/rollout.py"] % rewards}
    found = _findings(project, files)
    assert [(name, row) for name, row, _ in found] == reported
    assert all("`returns` is (n,) and `values` is (n, 1)" in message for _, _, message in found)


# an agent that owns its episode buffer (`self.buffer`, an object of another class of the package) and fills it in
# its own `play`, episodes of a `while not done` loop; its `update` reads the buffer: the buffer's lists grow in the
# loops of a method of the object holding it, so their passes are joined as the object's own attributes are (not
# counted once per pass the analysis makes); `%s` is the critic's loss
AGENT = {
    "src/agents/__init__.py": """
        from .a2c import A2CAgent
    """,
    "src/agents/buffer.py": """
        class EpisodeBuffer:
            def __init__(self):
                self.clear()

            def clear(self):
                self.values, self.rewards, self.log_probs = [], [], []
    """,
    "src/agents/returns.py": """
        import torch


        def n_step_returns(rewards, gamma):
            running, out = 0.0, []
            for r in reversed(rewards):
                running = r + gamma * running
                out.append(running)
            out.reverse()
            return torch.tensor(out)
    """,
    "src/agents/a2c.py": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        from .buffer import EpisodeBuffer
        from .returns import n_step_returns


        class Net(nn.Module):
            def __init__(self, obs_dim: int, n_actions: int):
                super().__init__()
                self.shared = nn.Linear(obs_dim, 32)
                self.pi = nn.Linear(32, n_actions)
                self.v = nn.Linear(32, 1)

            def forward(self, x):
                h = torch.relu(self.shared(x))
                return F.log_softmax(self.pi(h), dim=-1), self.v(h)


        class A2CAgent:
            def __init__(self, obs_dim: int, n_actions: int, gamma: float = 0.95):
                self.net = Net(obs_dim, n_actions)
                self.buffer = EpisodeBuffer()
                self.gamma = gamma
                self.opt = torch.optim.RMSprop(self.net.parameters(), lr=1e-3)

            def play(self, env, episodes: int):
                for _ in range(episodes):
                    state, done = env.reset(), False
                    while not done:
                        log_pi, value = self.net(torch.as_tensor(state))
                        action = torch.multinomial(log_pi.exp(), 1).item()
                        state, reward, done = env.step(action)
                        self.buffer.log_probs.append(log_pi[action])
                        self.buffer.values.append(value)
                        self.buffer.rewards.append(reward)

            def update(self):
                returns = n_step_returns(self.buffer.rewards, self.gamma)
                values = torch.stack(self.buffer.values)
                critic_loss = %s
                self.opt.zero_grad()
                critic_loss.backward()
                self.opt.step()
                self.buffer.clear()
    """,
    "src/main.py": """
        import numpy as np
        import torch

        from agents import A2CAgent


        class Bandit:
            def reset(self):
                self.t = 0
                return np.zeros(3, dtype=np.float32)

            def step(self, action):
                self.t += 1
                return np.random.rand(3).astype(np.float32), float(action == 1), self.t >= 20


        torch.manual_seed(0)
        agent = A2CAgent(3, 2)
        env = Bandit()
        for it in range(100):
            agent.play(env, 2)
            agent.update()
    """,
}


@pytest.mark.parametrize(("loss", "reported"), [("F.mse_loss(values, returns)", [("src/main.py", 23)]),
                                                ("F.mse_loss(values.squeeze(-1), returns)", [])])
def test_a_critic_column_against_returns_of_a_buffer_the_agent_owns(
        project: Path, loss: str, reported: list[tuple[str, int]]) -> None:
    found = _findings(project, {**AGENT, "src/agents/a2c.py": AGENT["src/agents/a2c.py"] % loss})
    assert [(name, row) for name, row, _ in found] == reported
    # as many values as rewards, however many the episodes take: not a count of the analysis's passes
    assert all("`values` is (n, 1), `returns` is (n,)" in message for _, _, message in found)
