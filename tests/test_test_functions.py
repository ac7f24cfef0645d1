"""A `test_*` function is a test where pytest or unittest would run it, not wherever the name starts so."""

from __future__ import annotations

from tests.helpers import codes_of, lint

TEST_LOOP = """\
import torch

def test_loop(dataloader, model, loss_fn):
    model.eval()
    total = 0.0
    for X, y in dataloader:
        pred = model(X)
        total += loss_fn(pred, y).item()
    return total
"""


def test_a_test_loop_helper_in_a_training_script_is_linted() -> None:
    assert codes_of(lint(TEST_LOOP, "SC203", filename="train.py")) == ["SC203"]


def test_the_same_function_in_a_test_file_is_a_test() -> None:
    assert codes_of(lint(TEST_LOOP, "SC203", filename="tests/test_model.py")) == []


def test_a_test_function_that_asserts_is_a_test_anywhere() -> None:
    source = TEST_LOOP.replace("    return total\n", "    assert total > 0\n")
    assert codes_of(lint(source, "SC203", filename="train.py")) == []


def test_a_test_case_method_is_a_test() -> None:
    body = "".join("    " + line if line else line for line in TEST_LOOP.splitlines(keepends=True)[2:])
    source = "import torch\nimport unittest\n\nclass ModelTest(unittest.TestCase):\n" + body
    assert codes_of(lint(source, "SC203", filename="checks.py")) == []


# A video project's evaluation script (`tools/test_net.py`): no runner collects it, whatever its name.
MULTI_VIEW_TEST = """\
import torch

def multi_view_test(test_loader, model, cfg):
    model.eval()
    preds = []
    for clips, labels in test_loader:
        logits = model(clips.flatten(0, 1))
        preds.append(logits.view(-1, cfg.NUM_VIEWS, cfg.NUM_CLASSES).softmax(-1).mean(1))
    return torch.cat(preds)
"""


def test_an_evaluation_script_named_like_a_test_file_is_linted() -> None:
    assert codes_of(lint(MULTI_VIEW_TEST, "SC203", filename="tools/test_net.py")) == ["SC203"]
    assert codes_of(lint(MULTI_VIEW_TEST, "SC203", filename="net_test.py")) == ["SC203"]


def test_a_file_named_like_a_test_file_holding_what_a_runner_collects_is_a_test_file() -> None:
    collected = ("def test_views():\n    pass\n", "import pytest\n", "from unittest import mock\n",
                 "class TestViews:\n    def test_shape(self):\n        pass\n")
    for added in collected:
        assert codes_of(lint(MULTI_VIEW_TEST + added, "SC203", filename="tools/test_net.py")) == [], added
