"""SC201 reads an optimizer's parameter groups built before its construction, and an agent's update method called
in the loop of a script of another module."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from tests.helpers import project_rows

# A face-recognition solver: the margin head's weights train with the backbone's, at ten times the rate.
SOLVER = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    class MarginHead(nn.Module):
        def __init__(self, dim, n_ids):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(n_ids, dim))
        def forward(self, emb, labels):
            return F.cross_entropy(emb @ F.normalize(self.weight, dim=1).t() * 30.0, labels)
    class Solver:
        def __init__(self, backbone, args):
            self.args = args
            self.model = backbone
            self.head = MarginHead(args.dim, args.n_ids)
            PARAMS
            self.opt = torch.optim.SGD(params, lr=args.lr, momentum=0.9)
        def step(self, x, y):
            self.model.zero_grad()
            loss = self.head(self.model(x), y)
            loss.backward()
            self.opt.step()
            return loss.item()
        def run(self, batches):
            for epoch in range(self.args.epochs):
                for x, y in batches:
                    self.step(x, y)
"""


def solver_rows(params: str) -> list[int]:
    source = textwrap.dedent(SOLVER).replace("PARAMS", params)
    return [finding.location.row for finding in lint_text(source, "solver.py", resolve(["SC201"])).findings]


def test_parameter_groups_built_before_the_optimizer_are_its_owners() -> None:
    groups = 'params = [{"params": self.model.parameters()}, {"params": self.head.parameters(), "lr": args.lr * 10}]'
    assert solver_rows(groups) == [22]
    assert solver_rows("params = list(self.model.parameters()) + list(self.head.parameters())") == [22]
    # the backbone alone (the head frozen): the model's reset clears all the optimizer steps
    assert solver_rows("params = [p for p in self.model.parameters() if p.requires_grad]") == []
    # groups of unknown modules: any reset may clear them
    assert solver_rows("params = make_groups(self.model, self.head)") == []


AGENT = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    class QNet(nn.Module):
        def __init__(self, obs_dim, n_actions):
            super().__init__()
            self.fc = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
        def forward(self, obs):
            return self.fc(obs)
    class DQNAgent:
        def __init__(self, obs_dim, n_actions, lr=1e-3, gamma=0.99):
            self.q = QNet(obs_dim, n_actions)
            self.target = QNet(obs_dim, n_actions)
            self.opt = torch.optim.Adam(self.q.parameters(), lr=lr)
            self.gamma = gamma
        def learn(self, obs, actions, rewards, next_obs, dones):
            q = self.q(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                target = rewards + self.gamma * (1 - dones) * self.target(next_obs).max(1).values
            loss = F.smooth_l1_loss(q, target)
            loss.backward()
            self.opt.step()
            return loss.item()
"""

RUN = """
    import torch
    from agents.dqn import DQNAgent
    def sample(n=32):
        return torch.randn(n, 4), torch.randint(0, 2, (n,)), torch.randn(n), torch.randn(n, 4), torch.zeros(n)
    agent = DQNAgent(4, 2)
    for it in range(100):
        RESET
        loss = agent.learn(*sample())
"""


def test_an_update_method_called_in_the_loop_of_a_script_of_another_module(tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("")
    path = tmp_path / "agents" / "dqn.py"
    path.write_text(textwrap.dedent(AGENT))

    def rows(reset: str) -> list[int]:
        (tmp_path / "run.py").write_text(textwrap.dedent(RUN).replace("RESET", reset))
        PROJECT.forget()
        return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC201"])).findings]

    assert rows("pass") == [23]
    assert rows("agent.opt.zero_grad()") == []  # the script resets the agent's optimizer before each update


# A base trainer of one module loops over `self.train_step(batch)`; the subclass of another module overrides it with
# a backward pass and a step, and nothing resets the gradients.
BASE_TRAINER = """
    class BaseTrainer:
        def __init__(self, model, optimizer, criterion):
            self.model, self.optimizer, self.criterion = model, optimizer, criterion

        def train_step(self, batch):
            raise NotImplementedError

        def before_step(self):
            pass

        def train_epoch(self, loader):
            self.model.train()
            total = 0.0
            for batch in loader:
                BEFORE
                total += self.train_step(batch)
            return total / len(loader)
"""

CLASSIFIER_TRAINER = """
    import torch
    from .base import BaseTrainer

    class ClassifierTrainer(BaseTrainer):
        def train_step(self, batch):
            images, labels = batch
            loss = self.criterion(self.model(images), labels)
            loss.backward()
            self.optimizer.step()
            return loss.item()
        OVERRIDE
"""


def test_a_step_a_base_trainer_of_another_module_loops_over(tmp_path: Path) -> None:
    def found(before: str = "pass", override: str = "") -> list[int]:
        return project_rows(tmp_path, "engine/classifier.py", {
            "engine/__init__.py": "", "engine/base.py": BASE_TRAINER.replace("BEFORE", before),
            "engine/classifier.py": CLASSIFIER_TRAINER.replace("OVERRIDE", override)}, "SC201")

    assert found() == [10]
    assert found(before="self.optimizer.zero_grad()") == []
    # a hook of the base loop that the subclass overrides may reset: its events are not in the base's record
    assert found(before="self.before_step()",
                 override="def before_step(self):\n            self.optimizer.zero_grad()") == []
