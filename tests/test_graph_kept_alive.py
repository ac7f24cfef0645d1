"""SC208 follows the log a loss is appended to through attribute chains and `setdefault`."""

from __future__ import annotations

import textwrap

import pytest

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve

LOOP = """
    import torch
    def train(model, loader, optimizer, criterion, state, stats, epochs):
        log = state.make_log()
        for epoch in range(epochs):
            {reset}
            for x, y in loader:
                optimizer.zero_grad()
                out = model(x)
                loss = torch.nn.functional.cross_entropy(out, y)
                loss.backward()
                optimizer.step()
                {log}
"""


def reported(log: str, reset: str = "pass") -> bool:
    source = textwrap.dedent(LOOP).format(log=log, reset=reset)
    return bool(lint_text(source, "train.py", resolve(["SC208"])).findings)


@pytest.mark.parametrize("log", [
    "state.losses.append(loss)",
    "state.history.train.append(loss)",
    "log.losses.append(loss)",
    'stats.setdefault("loss", []).append(loss)',
    'state.stats.setdefault("loss", []).append(loss)',
    'stats.setdefault("train", {}).setdefault("loss", []).append(loss)',
])
def test_a_loss_tensor_kept_in_an_object_made_outside_the_loop(log: str) -> None:
    assert reported(log)


@pytest.mark.parametrize("log", [
    "state.losses.append(loss.item())",
    "state.losses.append(float(loss))",
    "state.outputs.append(out.detach().cpu())",
    'stats.setdefault("loss", []).append(loss.detach())',
    'stats.get("loss", []).append(loss)',  # the default is not stored
])
def test_values_and_detached_copies_are_clean(log: str) -> None:
    assert not reported(log)


def test_an_attribute_set_anew_in_the_loop_is_not_followed() -> None:
    # the bindings do not follow `state.losses`: which loop its new list lives through is not known, so widen
    assert not reported("state.losses.append(loss)", "state.losses = []")


def test_an_object_made_per_epoch_keeps_the_graphs_of_its_batches() -> None:
    # as `losses = []` per epoch does: every batch's graph lives until the epoch ends
    assert reported("state.losses.append(loss)", "state = make_state()")


def test_an_object_made_in_each_iteration_keeps_nothing_across_them() -> None:
    source = textwrap.dedent("""
        import torch
        def train(model, loader, optimizer, criterion):
            for x, y in loader:
                record = Record()
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                record.losses.append(loss)
    """)
    assert not lint_text(source, "train.py", resolve(["SC208"])).findings


@pytest.mark.parametrize("log", [
    "running = loss if running is None else running + loss",
    "running = running + loss if running is not None else loss",
])
def test_a_running_total_seeded_on_the_first_step(log: str) -> None:
    assert reported(log, "running = None")


@pytest.mark.parametrize("log", [
    "running = loss.item() if running is None else running + loss.item()",
    "running = loss.detach() if running is None else running + loss.detach()",
    "running = loss if running is None else running.detach() + 0",  # no sum onto itself
])
def test_a_running_total_of_values_is_clean(log: str) -> None:
    assert not reported(log, "running = None")


def test_a_running_total_updated_in_one_branch_and_seeded_in_another() -> None:
    # the tuple branch re-binds the total too: the total is still made before the loop, at `None`
    log = """if isinstance(loss, tuple):
                    running = loss if running is None else tuple(map(sum, zip(running, loss)))
                else:
                    running = loss if running is None else running + loss"""
    assert reported(log, "running = None")


def test_a_loss_backpropagated_under_another_name() -> None:
    source = textwrap.dedent("""
        import torch
        def train(model, loader, optimizer):
            total = 0
            for x in loader:
                losses = model(x).sum()
                loss = losses
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total = total + losses
            return total
    """)
    assert lint_text(source, "train.py", resolve(["SC208"])).findings
