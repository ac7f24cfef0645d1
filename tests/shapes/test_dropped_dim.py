"""A reduction that drops a dim, broadcast back against the tensor it reduced (`x / x.sum(1)`): SC104 reports it
whatever the sizes, since the code states the misalignment; shapes only clear it (a size-1 dim, equal sizes)."""

from __future__ import annotations

import textwrap

import pytest

from tests.helpers import lint

REPORTED = {
    "softmax by hand": """
        import torch
        def softmax(x):
            e = torch.exp(x)
            return e / e.sum(1)
        """,
    "dueling head, pre-0.2 expand_as": """
        import torch.nn as nn
        class Dueling(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.adv = nn.Linear(64, n)
            def forward(self, phi):
                adv = self.adv(phi)
                return adv - adv.mean(1).expand_as(adv)
        """,
    "column-normalised init through pow": """
        import torch
        def init(weights, std=1.0):
            out = torch.randn(weights.size())
            out *= std / torch.sqrt(out.pow(2).sum(1).expand_as(out))
            return out
        """,
    "expanded to the size of the tensor it reduced": """
        import torch
        def uniform(x, pad):
            w = torch.ones(x.size(0), x.size(1)) * pad.eq(0).float()
            return w / w.sum(1).expand(w.size())
        """,
    "norms through torch functions, then a square root": """
        import torch
        def l2norm(X):
            norm = torch.pow(X, 2).sum(dim=1).sqrt()
            return torch.div(X, norm.expand_as(X))
        """,
    "max values, bound first": """
        import torch
        def stable(logits):
            top = logits.max(dim=1)[0]
            return logits - top
        """,
    "torch function, known rank": """
        import torch
        def centre(z):
            n, d = z.shape
            mu = torch.mean(z, dim=-1)
            return z - mu.expand_as(z)
        """,
    "Frobenius norms of a stack of matrices": """
        import torch
        def normalise(mats):
            return mats / mats.norm(dim=(1, 2))
        """,
    "a stack of expert gradients of known rank, its last two dims summed away in an optimizer": """
        import torch
        class ExpertNorm(torch.optim.Optimizer):
            @torch.no_grad()
            def step(self):
                for group in self.param_groups:
                    grads = torch.stack([p.grad.view(p.size(0), p.size(1)) for p in group["params"]])
                    scale = torch.linalg.norm(grads, dim=(-2, -1))
                    for p, g in zip(group["params"], grads / scale):
                        p.sub_(g, alpha=group["lr"])
        """,
}

QUIET = {
    "keepdim": """
        import torch
        def softmax(x):
            e = torch.exp(x)
            return e / e.sum(1, keepdim=True)
        """,
    "positional keepdim": """
        import torch
        def softmax(x):
            return x / x.sum(1, True)
        """,
    "dim 0 lines up": """
        import torch
        def centre(x):
            return x - x.mean(0)
        """,
    "last dim of a tensor of unknown rank: a vector's sum is a scalar": """
        import torch
        def normalise(p):
            return p / p.sum(-1)
        """,
    "reduced then indexed back": """
        import torch
        def centre(x):
            return x - x.mean(1)[:, None]
        """,
    "rebound between": """
        import torch
        def f(x):
            s = x.sum(1)
            x = torch.randn(4, 4, 1)
            return x * s
        """,
    "a dim of size 1 in front": """
        import torch
        x = torch.randn(1, 7)
        y = x - x.mean(1)
        """,
    "numpy": """
        import numpy as np
        x = np.ones((3, 4))
        y = x / x.sum(1)
        """,
    "the leading dims reduced: the rest line up": """
        import torch
        def centre(x):
            return x - x.mean(dim=(0, 1))
        """,
    "the last two dims of a tensor of unknown rank: a matrix's norm is a scalar": """
        import torch
        def normalise(w):
            return w / torch.linalg.norm(w, dim=(-2, -1))
        """,
    "the last two dims of a stack, kept": """
        import torch
        def normalise(mats):
            return mats / mats.norm(dim=(-2, -1), keepdim=True)
        """,
    "another tensor": """
        import torch
        def f(x, y):
            return y - x.mean(1)
        """,
}


@pytest.mark.parametrize("source", REPORTED.values(), ids=REPORTED.keys())
def test_reported(source: str) -> None:
    findings = lint(textwrap.dedent(source), "SC104", "SC105").findings
    assert [f.code for f in findings] == ["SC104"], findings
    assert "keepdim=True" in findings[0].message


@pytest.mark.parametrize("source", QUIET.values(), ids=QUIET.keys())
def test_quiet(source: str) -> None:
    assert not lint(textwrap.dedent(source), "SC104").findings


def test_a_certain_error_is_left_to_sc105() -> None:
    source = """
        import torch
        adv = torch.randn(32, 6)
        q = adv - adv.mean(1)
        """
    assert [f.code for f in lint(textwrap.dedent(source), "SC104", "SC105").findings] == ["SC105"]
