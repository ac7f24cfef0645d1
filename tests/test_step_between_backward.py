"""SC209 reads a loss that a same-file helper returns through the helper's `return`, the element a name unpacks."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

AGENT = """
    import torch
    class Agent:
        def __init__(self, actor, critic):
            self.actor, self.critic = actor, critic
            self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
            self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        def losses(self, obs, act, target):
            loss_q = ((self.critic(obs, act) - target) ** 2).mean()
            loss_pi = -self.critic(obs, self.actor(obs)).mean()
            return loss_q, loss_pi
"""


def rows(update: str) -> list[int]:
    source = textwrap.dedent(AGENT) + textwrap.indent(textwrap.dedent(update), " " * 4)
    return [finding.location.row for finding in lint_text(source, "agent.py", resolve(["SC209"])).findings]


def test_a_loss_a_helper_returned_before_the_step_of_a_module_it_goes_through() -> None:
    assert rows("""
        def update(self, batch):
            loss_q, loss_pi = self.losses(*batch)
            self.critic_opt.zero_grad()
            loss_q.backward()
            self.critic_opt.step()
            self.actor_opt.zero_grad()
            loss_pi.backward()
            self.actor_opt.step()
    """) == [19]


def test_the_element_unpacked_decides_and_a_helper_called_after_the_step_is_fresh() -> None:
    # the critic's loss goes through no actor: the actor's step leaves its graph alone
    assert rows("""
        def update(self, batch):
            loss_q, loss_pi = self.losses(*batch)
            self.actor_opt.zero_grad()
            loss_pi.backward()
            self.actor_opt.step()
            self.critic_opt.zero_grad()
            loss_q.backward()
            self.critic_opt.step()
    """) == []
    assert rows("""
        def update(self, batch):
            loss_q, _ = self.losses(*batch)
            self.critic_opt.zero_grad()
            loss_q.backward()
            self.critic_opt.step()
            _, loss_pi = self.losses(*batch)
            self.actor_opt.zero_grad()
            loss_pi.backward()
            self.actor_opt.step()
    """) == []
