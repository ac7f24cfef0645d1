"""SC304 bce-with-activation: `binary_cross_entropy(sigmoid(x))` instead of the fused `..._with_logits`, and a
sigmoid output fed to `BCEWithLogitsLoss`, which applies the sigmoid a second time."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Fix, Invalid, Rule
from shapecheck.shapes.activations import (
    Activation,
    activation_input,
    activation_of,
    loss_input,
)

FUNCTION = "torch.nn.functional.binary_cross_entropy"
BCE = frozenset({FUNCTION, "torch.nn.BCELoss", "torch.nn.modules.loss.BCELoss"})
WITH_LOGITS = frozenset({"torch.nn.functional.binary_cross_entropy_with_logits", "torch.nn.BCEWithLogitsLoss",
                         "torch.nn.modules.loss.BCEWithLogitsLoss"})
LOSSES = BCE | WITH_LOGITS


class BceWithActivation(Rule):
    code = "SC304"
    name = "bce-with-activation"
    severity = "error"  # a double sigmoid, or an unstable log of a sigmoid, silently skews the loss
    message = "sigmoid then binary_cross_entropy is numerically unstable: use `binary_cross_entropy_with_logits`"
    fixable = "safe"
    triggers = ("binary_cross_entropy", "BCELoss", "BCEWithLogitsLoss")
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds a sigmoid output passed to `F.binary_cross_entropy` / `nn.BCELoss` (use the fused
        `binary_cross_entropy_with_logits` / `nn.BCEWithLogitsLoss` on the logits), and a sigmoid output passed
        to `binary_cross_entropy_with_logits` / `nn.BCEWithLogitsLoss`, which applies the sigmoid again. The
        sigmoid is found in any spelling (`torch.sigmoid`, `F.sigmoid`, `x.sigmoid()`, an `nn.Sigmoid`
        attribute), through local names and shape or dtype changes (`torch.sigmoid(x).float()`); for the double
        sigmoid also through an `nn.Sequential` ending in `nn.Sigmoid` and a model of the same file (or of a
        project module it imports) whose `forward` returns one. Probabilities clamped or computed elsewhere are not reported, nor such a model
        trained with `nn.BCELoss` (the DCGAN recipe, which also wants the probabilities as scores).

        ## Why is this bad?
        `sigmoid` saturates to exactly 0 or 1 in float32 for logits beyond about +-17; `BCELoss` then clamps
        `log(0)` to -100, and the gradient through the saturated sigmoid is zero: confidently wrong examples stop
        contributing to training. `binary_cross_entropy_with_logits` computes the same loss from the logits with
        the log-sum-exp trick and never saturates. Feeding a sigmoid output to `BCEWithLogitsLoss` is worse: the
        loss sees sigmoid(sigmoid(x)), which lies in (0.5, 0.73), so predictions can never approach 0 and the
        model learns nothing useful. The primer: "Return raw logits — PyTorch loss functions apply
        softmax/sigmoid internally".

        ## Example
        ```python
        loss = F.binary_cross_entropy(torch.sigmoid(logits), targets)
        loss = nn.BCEWithLogitsLoss()(torch.sigmoid(logits), targets)
        ```

        ## Use instead
        ```python
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        loss = nn.BCEWithLogitsLoss()(logits, targets)
        ```

        ## Fix
        Safe, for `F.binary_cross_entropy(torch.sigmoid(x), y, ...)` with the sigmoid written inline and the
        loss spelled as an attribute (`F.`, `torch.nn.functional.`): it becomes
        `F.binary_cross_entropy_with_logits(x, y, ...)`, the other arguments kept (they are positionally the
        same). The double sigmoid and the module forms are reported only.
    """
    VALID = [
        """
        import torch.nn.functional as F
        loss = F.binary_cross_entropy_with_logits(logits, targets, pos_weight=pos_weight)
        """,
        """
        import torch
        import torch.nn.functional as F
        # probabilities clamped away from 0 and 1 on purpose
        probs = torch.sigmoid(logits).clamp(1e-6, 1 - 1e-6)
        loss = F.binary_cross_entropy(probs, targets)
        """,
        """
        import torch
        import torch.nn as nn
        class Discriminator(nn.Module):
            def __init__(self):
                super().__init__()
                self.main = nn.Sequential(nn.Conv2d(64, 1, 4, 1, 0, bias=False), nn.Sigmoid())
            def forward(self, input):
                return self.main(input).view(-1, 1).squeeze(1)
        netD = Discriminator()
        criterion = nn.BCELoss()
        errD_real = criterion(netD(real_cpu), label)
        """,
        """
        import torch
        import torch.nn.functional as F
        # the mask is predicted as probabilities by another head and only its target is a sigmoid
        loss = F.binary_cross_entropy_with_logits(mask_logits, torch.sigmoid(teacher_logits))
        """,
        """
        import torch
        import torch.nn.functional as F
        recon = decoder(z)
        bce = F.binary_cross_entropy(recon, x.view(-1, 784), reduction="sum")
        """,
        """
        import torch
        import torch.nn as nn
        D = nn.Sequential(nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1), nn.Sigmoid())
        criterion = nn.BCELoss()
        outputs = D(images)
        d_loss_real = criterion(outputs, real_labels)
        real_score = outputs
        """,
        """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.sigmoid = nn.Identity()
                self.loss = nn.BCEWithLogitsLoss()
            def forward(self, x, y):
                return self.loss(self.sigmoid(x), y)
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            loss = F.binary_cross_entropy(torch.sigmoid(logits), targets, reduction="sum")
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            loss = F.binary_cross_entropy_with_logits(logits, targets, reduction="sum")
            """,
        ),
        Invalid(
            """
            import torch
            loss = torch.nn.functional.binary_cross_entropy(scores.sigmoid(), labels.float())
            """,
            fixed="""
            import torch
            loss = torch.nn.functional.binary_cross_entropy_with_logits(scores, labels.float())
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            loss_pos = F.binary_cross_entropy(torch.sigmoid(logits_pos).float(), gt_pos.float(), reduction="mean")
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            loss_pos = F.binary_cross_entropy_with_logits(logits_pos.float(), gt_pos.float(), reduction="mean")
            """,
        ),
        """
        import torch
        import torch.nn as nn
        criterion = nn.BCELoss()
        probs = torch.sigmoid(model(x))
        loss = criterion(probs, y)
        """,
        """
        import torch
        import torch.nn as nn
        class Segmenter(nn.Module):
            def __init__(self):
                super().__init__()
                self.bce = nn.BCELoss()
            def loss(self, logits, masks):
                return self.bce(torch.sigmoid(logits), masks)
        """,
        """
        import torch
        import torch.nn as nn
        criterion = nn.BCEWithLogitsLoss()
        loss = criterion(torch.sigmoid(out), target)
        """,
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(16, 1)
                self.out = nn.Sigmoid()
            def forward(self, x):
                return self.out(self.fc(x))
        model = Net()
        loss_fn = nn.BCEWithLogitsLoss()
        loss = loss_fn(model(x), y)
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = loss_input(self.ctx, node, LOSSES)
        if found is None:
            return
        loss, argument = found
        if loss in WITH_LOGITS:
            activation = activation_of(self.ctx, argument, models=True)
            if activation is not None and activation.kind == "sigmoid":
                self.report(node, "sigmoid output fed to BCEWithLogits, which applies the sigmoid again: pass the "
                                  "logits")
            return
        activation = activation_of(self.ctx, argument)
        # A model ending in nn.Sigmoid with BCELoss is the DCGAN recipe: its probabilities are wanted elsewhere.
        if activation is not None and activation.kind == "sigmoid" and activation.form != "sequential":
            fix = self._fix(node, argument, activation) if loss == FUNCTION else None
            self.report(node, fix=fix)

    def _fix(self, call: cst.Call, argument: cst.BaseExpression, activation: Activation) -> Fix | None:
        func = call.func
        if not activation.inline or activation.form not in ("function", "method") or type(func) is not cst.Attribute:
            return None  # a bare imported `binary_cross_entropy` has no `_with_logits` spelling in this file
        logits = activation_input(activation)
        if logits is None:
            return None
        # `torch.sigmoid(x).float()` -> `x.float()`: only the sigmoid call goes.
        value = logits if argument is activation.call else argument.deep_replace(activation.call, logits)
        args = [arg.with_changes(value=value) if arg.value is argument else arg for arg in call.args]
        new = call.with_changes(func=func.with_changes(attr=cst.Name("binary_cross_entropy_with_logits")), args=args)
        return Fix("Use `binary_cross_entropy_with_logits` on the logits", ((call, new),), "safe")
