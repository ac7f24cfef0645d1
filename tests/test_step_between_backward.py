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


def messages(source: str) -> list[str]:
    return [finding.message for finding in lint_text(textwrap.dedent(source), "a2c.py", resolve(["SC209"])).findings]


def test_the_message_names_the_error_torch_raises() -> None:
    """Two critic calls: the step's in-place update is what the second pass trips on. One critic call that the
    first pass went through without `retain_graph`: the freed graph is (torch checks it first)."""
    separate, = messages(textwrap.dedent(AGENT) + textwrap.indent(textwrap.dedent("""
        def update(self, batch):
            loss_q, loss_pi = self.losses(*batch)
            loss_q.backward()
            self.critic_opt.step()
            loss_pi.backward()
    """), " " * 4))
    assert "modified by an inplace operation" in separate and "second time" not in separate
    shared, = messages("""
        import torch
        import torch.nn as nn
        critic = nn.Linear(8, 1)
        critic_opt = torch.optim.SGD(critic.parameters(), lr=0.1)
        obs, returns = torch.randn(4, 8), torch.randn(4, 1)
        values = critic(obs)
        value_loss = ((values - returns) ** 2).mean()
        spread_loss = (returns - values).abs().mean()
        value_loss.backward()
        critic_opt.step()
        spread_loss.backward()
    """)
    assert "Trying to backward through the graph a second time" in shared and "value_loss.backward()" in shared


def test_a_loss_a_dict_holds_is_read_through_the_key_the_backward_pass_names() -> None:
    agent = AGENT.replace("return loss_q, loss_pi", 'return {"q": loss_q, "pi": loss_pi}')
    update = """
        def update(self, batch):
            out = self.losses(*batch)
            out["q"].backward()
            self.critic_opt.step()
            out[KEY].backward()
    """
    source = textwrap.dedent(agent) + textwrap.indent(textwrap.dedent(update), " " * 4)
    found = messages(source.replace("KEY", '"pi"'))
    assert len(found) == 1 and found[0].startswith('`out["pi"]` goes through `self.critic(obs, self.actor(obs))`')
    # the critic's own loss again: through the graph the first pass freed
    again, = messages(source.replace("KEY", '"q"'))
    assert "second time" in again
