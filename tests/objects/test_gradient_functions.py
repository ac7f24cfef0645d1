from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.objects.gradient_functions import GradientFunctions


def test_functions_computing_gradients_and_their_callers_by_name(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "layers.py").write_text(textwrap.dedent("""
        import torch
        def gradprop(Z, X, S):
            return torch.autograd.grad(Z, X, S, retain_graph=True)
        class RelProp:
            def relprop(self, R):
                return gradprop(self.Y, self.X, R)
        def freeze(model):
            for p in model.parameters():
                p.requires_grad_(False)
    """))
    source = textwrap.dedent("""
        import torch
        from layers import RelProp
        def train(model, loss):
            loss.backward()
        def evaluate(model, x):
            model.eval()
            y = model(x)
            model.train()
            return y
        def explain(model, x):
            return model.relprop(model(x))
        def guided(x):
            with torch.enable_grad():
                return x * 2
    """)
    path = tmp_path / "explain.py"
    path.write_text(source)
    ctx = Context(cst.parse_module(source), str(path))
    # `evaluate` calls `model.train()`, torch's method, not the project's `train`; freezing computes no gradient
    assert GradientFunctions(ctx).names() == {"gradprop", "relprop", "explain", "guided"}
