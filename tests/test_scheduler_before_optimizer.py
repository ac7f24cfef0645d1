"""SC213 reads the optimizer steps of the branch its scheduler step is in, including a helper's called there."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

HELPER = """
    import torch
    def run_epoch(net, data, opt):
        for batch in data:
            net.loss(batch).backward()
            opt.step()
            opt.zero_grad()
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(main_opt, T_max=20)
    for epoch in range(20):
"""


def rows(loop_body: str) -> list[int]:
    source = textwrap.dedent(HELPER) + textwrap.indent(textwrap.dedent(loop_body), "    ")
    return [finding.location.row for finding in lint_text(source, "train.py", resolve(["SC213"])).findings]


def test_a_schedule_stepped_before_the_helper_that_steps_its_branch_s_optimizer() -> None:
    assert rows("""
        if epoch < 2:
            run_epoch(net, data, head_opt)
        else:
            sched.step()
            run_epoch(net, data, main_opt)
    """) == [14]


def test_each_elif_branch_s_steps_run_in_other_epochs() -> None:
    assert rows("""
        if epoch < 2:
            run_epoch(net, data, head_opt)
        elif epoch < 4:
            run_epoch(net, data, mid_opt)
        else:
            sched.step()
            run_epoch(net, data, main_opt)
    """) == [16]


def test_a_warm_up_branch_without_a_step_after_it_and_a_schedule_after_the_helper_are_clean() -> None:
    assert rows("""
        if epoch < 2:
            sched.step()
        else:
            run_epoch(net, data, main_opt)
            sched.step()
    """) == []
