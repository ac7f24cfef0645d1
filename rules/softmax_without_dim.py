"""SC302 softmax-without-dim: `F.softmax(x)` / `nn.Softmax()` leave torch to guess the dimension."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Fix, Invalid, Rule
from shapecheck.engine.syntax import last_name
from shapecheck.shapes.activations import with_keyword

# The dotted name and the position `dim` takes among the positional arguments.
FUNCTIONS = {
    "torch.nn.functional.softmax": 1, "torch.nn.functional.log_softmax": 1, "torch.nn.functional.softmin": 1,
    "torch.softmax": 1, "torch.log_softmax": 1, "torch.special.softmax": 1, "torch.special.log_softmax": 1,
    "torch.nn.Softmax": 0, "torch.nn.LogSoftmax": 0, "torch.nn.Softmin": 0,
    "torch.nn.modules.activation.Softmax": 0, "torch.nn.modules.activation.LogSoftmax": 0,
    "torch.nn.modules.activation.Softmin": 0,
}
LAST_NAMES = frozenset(name.rsplit(".", 1)[1] for name in FUNCTIONS)


class SoftmaxWithoutDim(Rule):
    code = "SC302"
    name = "softmax-without-dim"
    severity = "error"  # the implicit dim normalises over the batch for 3-D input
    message = "softmax without `dim`: torch picks dim 0 for 1-D and 3-D input, normalising over the batch"
    fixable = "unsafe"
    triggers = ("softmax", "Softmax", "softmin", "Softmin")
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds `F.softmax(x)`, `F.log_softmax(x)`, `F.softmin(x)`, `torch.softmax(x)`, `nn.Softmax()`,
        `nn.LogSoftmax()` and `nn.Softmin()` called without a `dim` (or with `dim=None`).

        ## Why is this bad?
        Without `dim`, torch guesses: dim 0 for 0-D, 1-D and 3-D input, dim 1 otherwise. For (B, T, V) attention
        scores or language-model logits that is the batch dimension, so every row of the output "sums to 1" across
        unrelated examples, and nothing fails: the loss just stops making sense. torch itself has deprecated the
        guess ("Implicit dimension choice for softmax has been deprecated"), and `torch.softmax(x)` raises. The
        primer always names the dimension, `F.softmax(x, dim=-1)`, because "dim= is the dim being consumed".

        ## Example
        ```python
        attn = F.softmax(scores)                 # scores: (B, T, T) -> normalised over B
        self.act = nn.Softmax()
        ```

        ## Use instead
        ```python
        attn = F.softmax(scores, dim=-1)
        self.act = nn.Softmax(dim=-1)
        ```

        ## Fix
        Unsafe: adds `dim=-1`, the class dimension of (N, C) and (B, T, V) input. For 4-D (N, C, H, W) input
        torch's guess was dim 1 (channels, as in segmentation), which `dim=-1` changes: check the shape first.
        `dim=None` written out is reported without a fix.
    """
    VALID = [
        """
        import torch.nn.functional as F
        att = F.softmax(att, dim=-1)
        """,
        """
        import torch
        import torch.nn.functional as F
        probs = F.softmax(logits, -1)
        log_probs = torch.log_softmax(logits.float(), 1)
        """,
        """
        import torch
        from torch import nn
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.softmax = nn.Softmax(dim=1)
                self.log_softmax = nn.LogSoftmax(1)
        """,
        """
        import torch
        attn = scores.softmax(dim=-1)
        probs = logits.softmax(-1)
        """,
        """
        import torch
        import tensorflow as tf
        y = tf.nn.softmax(logits)
        """,
        """
        import torch
        import jax
        from scipy.special import softmax
        p = jax.nn.softmax(x)
        q = softmax(z)
        """,
        """
        import torch.nn.functional as F
        # the dim comes with the other arguments
        y = F.softmax(x, *args)
        z = F.log_softmax(x, **kwargs)
        """,
        """
        import torch.nn.functional as F
        y = F.gumbel_softmax(logits, tau=1.0, hard=True)
        """,
        """
        import torch
        concept_outputs = torch.softmax(torch.from_numpy(concept_outputs), axis=-1).numpy()
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch.nn.functional as F
            attn = F.softmax(scores)
            """,
            fixed="""
            import torch.nn.functional as F
            attn = F.softmax(scores, dim=-1)
            """,
        ),
        Invalid(
            """
            import torch
            from torch import nn
            head = nn.Sequential(nn.Linear(128, 10), nn.LogSoftmax())
            """,
            fixed="""
            import torch
            from torch import nn
            head = nn.Sequential(nn.Linear(128, 10), nn.LogSoftmax(dim=-1))
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            p = F.softmax(logits.float(), dtype=torch.float32)
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            p = F.softmax(logits.float(), dtype=torch.float32, dim=-1)
            """,
        ),
        Invalid(
            """
            import torch
            w = torch.softmax(
                scores,
            )
            """,
            fixed="""
            import torch
            w = torch.softmax(
                scores, dim=-1,
            )
            """,
        ),
        Invalid(
            """
            from torch.nn.functional import log_softmax, softmin
            a = log_softmax(x)
            b = softmin(y)
            """,
            count=2,
        ),
        """
        import torch.nn as nn
        act = nn.Softmax(dim=None)
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if last_name(func) not in LAST_NAMES:
            return
        position = FUNCTIONS.get(self.ctx.qualname(func))
        if position is None:
            return
        positional = 0
        for arg in node.args:
            if arg.star:
                return  # the dim may be among them
            if arg.keyword is None:
                positional += 1
            elif arg.keyword.value in ("dim", "axis"):  # torch takes numpy's `axis` as an alias
                if type(arg.value) is cst.Name and arg.value.value == "None":
                    self.report(node)
                return
        if positional > position:
            return
        self.report(node, fix=Fix("Add `dim=-1`", ((node, with_keyword(node, "dim", "-1")),), "unsafe"))
