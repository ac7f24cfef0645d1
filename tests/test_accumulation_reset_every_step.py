"""SC218 follows the micro-batch loop's resets and backward passes into the helpers it calls."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

HELPER = """
    import torch
    def micro_step(optimizer, loss):
        optimizer.zero_grad()
        loss.backward()
    for step in range(steps):
"""


def rows(loop_body: str) -> list[int]:
    source = textwrap.dedent(HELPER) + textwrap.indent(textwrap.dedent(loop_body), "    ")
    return [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC218"])).findings]


def test_a_helper_resetting_each_micro_batch_before_the_step_after_the_loop() -> None:
    assert rows("""
        for chunk in chunks:
            micro_step(opt, model(chunk).mean())
        opt.step()
    """) == [4]


def test_a_helper_called_under_an_if_or_another_optimizer_s_step_is_clean() -> None:
    assert rows("""
        for at, chunk in enumerate(chunks):
            if at == 0:
                micro_step(opt, model(chunk).mean())
        opt.step()
    """) == []
    assert rows("""
        for chunk in chunks:
            micro_step(critic_opt, critic(chunk).mean())
        actor_opt.step()
    """) == []


def test_a_helper_that_steps_too_is_a_whole_update_per_micro_batch() -> None:
    assert rows("""
        for chunk in chunks:
            micro_step(opt, model(chunk).mean())
            opt.step()
        opt.step()
    """) == []
