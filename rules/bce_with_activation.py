"""SC304 bce-with-activation: `binary_cross_entropy(sigmoid(x))` instead of the fused `..._with_logits`, and a
sigmoid output fed to `BCEWithLogitsLoss`, which applies the sigmoid a second time."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.shapes.activations import (
    Activation,
    HandedLoss,
    activation_input,
    activation_of,
    handed_loss,
    loss_input,
    resolve_handed,
)

FUNCTION = "torch.nn.functional.binary_cross_entropy"
BCE = frozenset({FUNCTION, "torch.nn.BCELoss", "torch.nn.modules.loss.BCELoss"})
WITH_LOGITS = frozenset({"torch.nn.functional.binary_cross_entropy_with_logits", "torch.nn.BCEWithLogitsLoss",
                         "torch.nn.modules.loss.BCEWithLogitsLoss"})
LOSSES = BCE | WITH_LOGITS
DOUBLE_SIGMOID = "sigmoid output fed to BCEWithLogits, which applies the sigmoid again: pass the logits"


class BceWithActivation(Rule):
    code = "SC304"
    name = "bce-with-activation"
    severity = "error"  # a double sigmoid, or an unstable log of a sigmoid, silently skews the loss
    message = "sigmoid then binary_cross_entropy is numerically unstable: use `binary_cross_entropy_with_logits`"
    fixable = "safe"
    # A helper's `criterion(model(x), y)` names no loss: the model module it imports holds the sigmoid.
    triggers = ("binary_cross_entropy", "BCELoss", "BCEWithLogitsLoss", "sigmoid")
    triggered_through_imports = True
    # A loss on a sigmoid in view is reported where it is; one whose criterion or model was handed in waits for the
    # whole file's calls and constructions (`finish`), from what the visits gathered.
    scope = "statement"
    gathered = ("_handed",)
    docs = """
        ## What it does
        Finds a sigmoid output passed to `F.binary_cross_entropy` / `nn.BCELoss` (use the fused
        `binary_cross_entropy_with_logits` / `nn.BCEWithLogitsLoss` on the logits), and a sigmoid output passed
        to `binary_cross_entropy_with_logits` / `nn.BCEWithLogitsLoss`, which applies the sigmoid again. The
        sigmoid is found in any spelling (`torch.sigmoid`, `F.sigmoid`, `x.sigmoid()`, an `nn.Sigmoid`
        attribute), through local names, shape or dtype changes and tensor indexing (`torch.sigmoid(x).float()`,
        `p[..., 4]`); for the double
        sigmoid also through an `nn.Sequential` ending in `nn.Sigmoid` (also `nn.Sequential(*layers)` after
        `layers.append(nn.Sigmoid())`) and a model of the same file (or of a
        project module it imports) whose `forward` returns one (also at one position of a returned tuple or under
        one key of a returned dict: `out["exist"]`). A helper's criterion or model parameter (`def
        train(model, loader, criterion)`) is read from the helper's calls, and a trainer's `self.criterion` /
        `self.model` stored from its constructor's parameters from the trainer's constructions, every one agreeing
        (a call that passes nothing gives the parameter's default; a criterion picked from a dict of loss factories,
        `LOSSES[args.loss](pos_weight)`, is the loss every entry builds when they all agree, and one of a
        conditional the loss both branches build, `nn.BCEWithLogitsLoss() if args.loss == "bce" else
        nn.BCEWithLogitsLoss(pos_weight=w)`), as for SC303. A
        loss that reads the model's output from a parameter (`def forward(self, preds, targets)` of a loss module,
        `self.bce(preds["conf"], obj)`; a helper's `def box_loss(out, batch)`) takes it from the calls that hand it
        one, every one agreeing: a helper's calls, or the calls of the module's instances (`criterion =
        YoloLoss(4)`, then `criterion(model(images), targets)`), or of a model's own `loss(output, batch)` method
        on the model (also one a runner's constructor stored, `self.net.loss(output, batch)`), in the file or a
        project module importing it. A
        helper's module that names no BCE loss is linted for this rule when it imports the module of the model
        (`def train_one_epoch(model: AdultNet, loader, criterion, optimizer)`). Probabilities clamped or computed
        elsewhere are not reported, nor such a model trained with `nn.BCELoss` (the DCGAN recipe, which also wants
        the probabilities as scores).

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
        # A trainer handed a model that returns logits, with a separate `predict` for the probabilities.
        """
        import torch
        import torch.nn as nn
        class ToxicityHead(nn.Module):
            def __init__(self, hidden, n_labels):
                super().__init__()
                self.proj = nn.Linear(hidden, n_labels)
            def forward(self, pooled):
                return self.proj(pooled)
            def predict(self, pooled):
                return torch.sigmoid(self(pooled))
        class Trainer:
            def __init__(self, model, criterion):
                self.model, self.criterion = model, criterion
            def step(self, pooled, labels):
                return self.criterion(self.model(pooled), labels)
        Trainer(ToxicityHead(768, 6), nn.BCEWithLogitsLoss())
        """,
        # The DCGAN recipe through a helper: a discriminator ending in nn.Sigmoid, handed with BCELoss.
        """
        import torch.nn as nn
        class Critic(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(784, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1), nn.Sigmoid())
            def forward(self, x):
                return self.net(x.flatten(1))
        def discriminator_loss(disc, real, fake, criterion):
            return criterion(disc(real), ones) + criterion(disc(fake.detach()), zeros)
        d_loss = discriminator_loss(Critic(), real, fake, nn.BCELoss())
        """,
        # A helper whose callers hand it different criteria, or a model the file can't see.
        """
        import torch
        import torch.nn as nn
        def fit(model, loader, criterion):
            for x, y in loader:
                criterion(torch.sigmoid(model(x)), y).backward()
        fit(net, loader, nn.BCEWithLogitsLoss())
        fit(net, loader, nn.MSELoss())
        def score(model, x, y, loss_fn=nn.BCEWithLogitsLoss()):
            return loss_fn(model(x), y)
        score(build_model(cfg), x, y)
        """,
        # A stack ending in nn.Sigmoid, appended, trained with BCELoss: the DCGAN recipe.
        """
        import torch.nn as nn
        layers = [nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1)]
        layers.append(nn.Sigmoid())
        disc = nn.Sequential(*layers)
        adversarial_loss = nn.BCELoss()
        d_loss = adversarial_loss(disc(real_imgs), valid)
        """,
        # A model returning a dict: the loss takes the logits, the probabilities are for the metrics.
        """
        import torch
        import torch.nn as nn
        class CTRModel(nn.Module):
            def __init__(self, n_features):
                super().__init__()
                self.mlp = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, 1))
            def forward(self, x):
                logits = self.mlp(x).squeeze(-1)
                return {"logits": logits, "prob": torch.sigmoid(logits)}
        model = CTRModel(40)
        criterion = nn.BCEWithLogitsLoss()
        out = model(features)
        loss = criterion(out["logits"], clicks)
        auc_meter.update(out["prob"].detach(), clicks)
        """,
        # The head gives raw maps; the loss module slices the logits, decoding applies the sigmoid apart.
        """
        import torch
        import torch.nn as nn
        class AnchorHead(nn.Module):
            def __init__(self, channels, n_classes):
                super().__init__()
                self.pred = nn.Conv2d(channels, 3 * (5 + n_classes), 1)
            def forward(self, x):
                b, _, h, w = x.shape
                return self.pred(x).view(b, 3, -1, h, w).permute(0, 1, 3, 4, 2)
            def decode(self, x):
                return self(x)[..., 4:].sigmoid()
        class ObjectnessLoss(nn.Module):
            def __init__(self):
                super().__init__()
                self.bce = nn.BCEWithLogitsLoss()
            def forward(self, p, obj_mask):
                return self.bce(p[..., 4], obj_mask)
        head, obj_loss = AnchorHead(64, 20), ObjectnessLoss()
        for feats, obj in batches:
            obj_loss(head(feats), obj).backward()
        scores = head.decode(feats)
        """,
        # A model's own loss method on the logits it returns beside the probabilities.
        """
        import torch
        import torch.nn as nn
        class SlotDetector(nn.Module):
            def __init__(self, n_slots):
                super().__init__()
                self.present = nn.Linear(16, n_slots)
                self.present_loss = nn.BCEWithLogitsLoss()
            def forward(self, x):
                logits = self.present(x)
                return {"present": logits, "present_prob": logits.sigmoid()}
            def loss(self, output, batch):
                return self.present_loss(output["present"], batch["present"])
        class Runner:
            def __init__(self, net):
                self.net = net
            def step(self, batch):
                return self.net.loss(self.net(batch["x"]), batch)
        runner = Runner(SlotDetector(4))
        """,
        # A loss module handed the logits under one key and the probabilities under another, for the metrics.
        """
        import torch
        import torch.nn as nn
        class Tagger(nn.Module):
            def __init__(self, d, k):
                super().__init__()
                self.out = nn.Linear(d, k)
            def forward(self, x):
                logits = self.out(x)
                return {"logits": logits, "scores": torch.sigmoid(logits)}
        class TagLoss(nn.Module):
            def __init__(self):
                super().__init__()
                self.bce = nn.BCEWithLogitsLoss()
            def forward(self, out, tags):
                return self.bce(out["logits"], tags)
        model, criterion = Tagger(32, 5), TagLoss()
        out = model(features)
        loss = criterion(out, tags)
        meter.update(out["scores"].detach(), tags)
        """,
        # The sigmoid is applied only when the caller asks for probabilities; the test loop passes the logits.
        """
        import torch
        import torch.nn as nn
        class ToxicityHead(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.proj = nn.Linear(d, 1)
            def forward(self, pooled, as_probability=False):
                logit = self.proj(pooled).squeeze(-1)
                if as_probability:
                    logit = torch.sigmoid(logit)
                return logit
        head = ToxicityHead(768)
        loss_fn = nn.BCEWithLogitsLoss()
        head.eval()
        for pooled, toxic in test_batches:
            logit = head(pooled)
            test_loss = loss_fn(logit, toxic.float()).item()
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
            import torch.nn.functional as F
            mask_loss = F.binary_cross_entropy(mask_logits.sigmoid()[:, 0], mask_targets)
            """,
            fixed="""
            import torch.nn.functional as F
            mask_loss = F.binary_cross_entropy_with_logits(mask_logits[:, 0], mask_targets)
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
        # A trainer stores the model and the criterion it is given: a model ending in a sigmoid, and
        # BCEWithLogitsLoss.
        """
        import torch
        import torch.nn as nn
        class ClickModel(nn.Module):
            def __init__(self, n_ids, dim=16):
                super().__init__()
                self.embed = nn.EmbeddingBag(n_ids, dim)
                self.out = nn.Linear(dim, 1)
            def forward(self, ids, offsets):
                return torch.sigmoid(self.out(self.embed(ids, offsets))).squeeze(1)
        class Trainer:
            def __init__(self, model, criterion, optimizer):
                self.model = model
                self.criterion = criterion
                self.optimizer = optimizer
            def fit_batch(self, ids, offsets, clicks):
                self.optimizer.zero_grad()
                loss = self.criterion(self.model(ids, offsets), clicks)
                loss.backward()
                self.optimizer.step()
        def main():
            model = ClickModel(1000)
            criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))
            trainer = Trainer(model, criterion, torch.optim.Adam(model.parameters()))
        """,
        # A helper's criterion parameter, handed BCEWithLogitsLoss, fed probabilities.
        """
        import torch.nn as nn
        def run_epoch(net, batches, loss_fn, opt):
            for images, masks in batches:
                probs = net(images).sigmoid()
                loss = loss_fn(probs, masks)
                opt.zero_grad()
                loss.backward()
                opt.step()
        run_epoch(unet, train_batches, nn.BCEWithLogitsLoss(), opt)
        """,
        # A helper's default BCELoss fed a sigmoid it applies itself.
        """
        import torch
        import torch.nn as nn
        def evaluate(model, loader, criterion=nn.BCELoss()):
            total = 0.0
            for x, y in loader:
                total += criterion(torch.sigmoid(model(x)), y.float()).item()
            return total / len(loader)
        val_loss = evaluate(model, val_loader)
        """,
        # A stack whose appended last layer is a sigmoid, fed to BCEWithLogitsLoss.
        """
        import torch.nn as nn
        def anomaly_loss(n_in, x, y):
            layers = [nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 1)]
            layers.append(nn.Sigmoid())
            scorer = nn.Sequential(*layers)
            return nn.BCEWithLogitsLoss()(scorer(x).squeeze(1), y)
        """,
        # An anchor head squashing every channel, and a loss module reading the objectness channel of it.
        """
        import torch
        import torch.nn as nn
        class AnchorHead(nn.Module):
            def __init__(self, channels, n_classes, n_anchors=3):
                super().__init__()
                self.n_anchors = n_anchors
                self.pred = nn.Conv2d(channels, n_anchors * (5 + n_classes), 1)
            def forward(self, x):
                b, _, h, w = x.shape
                p = self.pred(x).view(b, self.n_anchors, -1, h, w).permute(0, 1, 3, 4, 2)
                return p.sigmoid()
        class ObjectnessLoss(nn.Module):
            def __init__(self, pos_weight=1.0):
                super().__init__()
                self.bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(pos_weight))
            def forward(self, p, obj_mask):
                return self.bce(p[..., 4], obj_mask)
        head, obj_loss = AnchorHead(64, 20), ObjectnessLoss(2.0)
        for feats, obj in batches:
            obj_loss(head(feats), obj).backward()
        """,
        # A model's own loss method, called by a runner that stored the model, on a dict whose "present" entry
        # went through a sigmoid.
        """
        import torch
        import torch.nn as nn
        class SlotDetector(nn.Module):
            def __init__(self, n_slots):
                super().__init__()
                self.body = nn.Linear(32, 16)
                self.present = nn.Linear(16, n_slots)
                self.present_loss = nn.BCEWithLogitsLoss()
            def forward(self, x):
                return {"present": torch.sigmoid(self.present(torch.relu(self.body(x))))}
            def loss(self, output, batch):
                return self.present_loss(output["present"], batch["present"])
        class Runner:
            def __init__(self, net, lr):
                self.net = net
                self.opt = torch.optim.SGD(net.parameters(), lr=lr)
            def step(self, batch):
                loss = self.net.loss(self.net(batch["x"]), batch)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        runner = Runner(SlotDetector(4), 0.01)
        """,
        # A matting loss module handed the net's outputs, the alpha head through a sigmoid.
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class MattingNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Conv2d(3, 8, 3, padding=1)
                self.fg = nn.Conv2d(8, 3, 1)
                self.alpha = nn.Conv2d(8, 1, 1)
            def forward(self, x):
                h = torch.relu(self.body(x))
                return self.fg(h), self.alpha(h).sigmoid()
        class MattingLoss(nn.Module):
            def forward(self, outputs, alpha_gt, fg_gt):
                fg, alpha = outputs
                return F.l1_loss(fg, fg_gt) + F.binary_cross_entropy_with_logits(alpha, alpha_gt)
        def fit(loader):
            net, criterion = MattingNet(), MattingLoss()
            for images, alphas, fgs in loader:
                criterion(net(images), alphas, fgs).backward()
        """,
        # A detector whose forward returns a dict, one head through a sigmoid, fed to BCEWithLogitsLoss.
        """
        import torch
        import torch.nn as nn
        class LaneNet(nn.Module):
            def __init__(self, channels, n_lanes):
                super().__init__()
                self.encoder = nn.Conv2d(3, channels, 3, stride=2, padding=1)
                self.seg = nn.Conv2d(channels, n_lanes + 1, 1)
                self.exist = nn.Linear(channels, n_lanes)
            def forward(self, img):
                feat = torch.relu(self.encoder(img))
                return {"seg": self.seg(feat), "exist": torch.sigmoid(self.exist(feat.mean((2, 3))))}
        net = LaneNet(16, 4)
        seg_loss, exist_loss = nn.CrossEntropyLoss(), nn.BCEWithLogitsLoss()
        for img, seg_gt, exist_gt in loader:
            out = net(img)
            loss = seg_loss(out["seg"], seg_gt) + 0.1 * exist_loss(out["exist"], exist_gt)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._handed: list[HandedLoss] = []  # the losses whose criterion or model was handed in, for `finish`

    def visit_Call(self, node: cst.Call) -> None:
        found = loss_input(self.ctx, node, LOSSES)
        if found is None:
            self._note_handed(node, None)
            return
        loss, argument = found
        if loss in WITH_LOGITS:
            activation = activation_of(self.ctx, argument, models=True)
            if activation is not None and activation.kind == "sigmoid":
                self.report(node, DOUBLE_SIGMOID)
            else:
                self._note_handed(node, loss)
            return
        activation = activation_of(self.ctx, argument)
        # A model ending in nn.Sigmoid with BCELoss is the DCGAN recipe: its probabilities are wanted elsewhere.
        if activation is not None and activation.kind == "sigmoid" and activation.form != "sequential":
            fix = self._fix(node, argument, activation) if loss == FUNCTION else None
            self.report(node, fix=fix)

    def _note_handed(self, node: cst.Call, loss: str | None) -> None:
        """`criterion(model(x), y)` in `def train(model, loader, criterion)`, or `self.criterion(self.model(x), y)`
        in a trainer that stored what its constructor was given: the calls of the helper or the constructions of
        the trainer say what the criterion and the model are."""
        handed = handed_loss(self.ctx, node, loss)
        if handed is not None and handed.kind in (None, "sigmoid"):
            self._handed.append(handed)

    def finish(self) -> None:
        for handed in self._handed:
            resolved = resolve_handed(self.ctx, handed, LOSSES)
            if resolved is None or resolved[1] != "sigmoid":
                continue
            if resolved[0] in WITH_LOGITS:
                self.report(handed.call, DOUBLE_SIGMOID)
            elif handed.form not in (None, "sequential", "model"):  # a model's own sigmoid with BCELoss: DCGAN
                self.report(handed.call)

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
