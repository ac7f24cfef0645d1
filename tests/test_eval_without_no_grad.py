"""SC203 reads a helper that saves a model's mode and puts it back (`mode = model.training`, `model.eval()`, ...,
`model.train(mode)`) as leaving the mode its caller had."""

from __future__ import annotations

import textwrap

from tests.helpers import lint

STATS = """
    import torch
    import torch.nn as nn
    def get_model_stats(model, inputs):
        model_mode = model.training
        model.eval()
        with torch.no_grad():
            count = model(inputs).numel()
        model.train(model_mode)
        return count
    def get_predictions(model, clips):
        BEFORE
        print(get_model_stats(model, clips[0]))
        return [model(clip) for clip in clips]
"""


def rows(before: str) -> list[int]:
    source = textwrap.dedent(STATS).replace("BEFORE", before)
    return [finding.location.row for finding in lint(source, "SC203", filename="demo.py").findings]


def test_a_helper_restoring_the_mode_it_found_leaves_its_caller_in_eval_mode() -> None:
    assert rows("model.eval()") == [14]


def test_a_helper_restoring_the_mode_it_found_leaves_a_training_caller_in_train_mode() -> None:
    assert rows("model.train()") == []
    assert rows("pass") == []
