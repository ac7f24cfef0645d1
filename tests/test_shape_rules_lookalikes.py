"""Code from real projects that the shape rules once reported wrongly (found by linting nanoGPT, pytorch/examples,
timm, transformers, d2l and nerfstudio): the shape analysis gave a wrong fact, so every shape rule must stay quiet.

Each is a short re-typed look-alike of the real code, named after where it came from.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import lint

SHAPE_RULES = ("SC101", "SC104", "SC105", "SC106", "SC107", "SC108")

LOOKALIKES = {
    # torch takes numpy's `keepdims=` and `axis=` spellings
    "d2l linear-algebra: keepdims=": """
        import torch
        A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        sum_A = A.sum(axis=1, keepdims=True)
        B = A / sum_A
        """,
    "transformers wav2vec2: argmax(axis=1) of one-hot labels": """
        import torch
        from torch.nn import CrossEntropyLoss
        def loss(logits, labels, n):
            return CrossEntropyLoss()(logits.view(-1, n), torch.argmax(labels.view(-1, n), axis=1))
        """,
    # indexing the leading dims of a `*num_poses 4 4` tensor: the run may be empty
    "nerfstudio camera_utils: slicing a *batch run": """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def focus(poses: Float[Tensor, "*num_poses 4 4"], initial_focus: Float[Tensor, "3"]):
            active_directions = -poses[:, :3, 2:3]
            active_origins = poses[:, :3, 3:4]
            return torch.sum(active_directions.squeeze(-1) * (initial_focus - active_origins.squeeze(-1)), dim=-1)
        """,
    # a parameter holding a torch.Size
    "transformers reformer: torch.ones(input_shape)": """
        import torch
        def pad(input_shape, padding_length):
            return torch.cat([torch.ones(input_shape, dtype=torch.bool),
                              torch.zeros((input_shape[0], padding_length), dtype=torch.bool)], dim=-1)
        """,
}


@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_shape_rules_stay_quiet_on_real_lookalikes(name: str) -> None:
    result = lint(textwrap.dedent(LOOKALIKES[name]).strip() + "\n", *SHAPE_RULES)
    assert result.error is None
    assert [(f.code, f.message) for f in result.findings] == []
