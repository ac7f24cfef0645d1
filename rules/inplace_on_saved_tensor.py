"""SC216 inplace-on-saved-tensor: an in-place op on a tensor autograd saved for backward, before the backward.
The analysis is the loop floor's (`shapecheck.loops.saved_tensors`); the rule notes the bodies worth reading and
words what it finds."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Invalid, Rule
from shapecheck.loops.autograd_saves import IN_PLACE_FUNCTIONS, IN_PLACE_METHODS
from shapecheck.loops.inplace_switches import IN_PLACE_CAPABLE, switched_in_place
from shapecheck.loops.saved_tensors import TRAINING_LOOP, SavedTensors, Spoiled, all_in_place
from shapecheck.objects.torch_layers import torch_layer


# A gated residual block built with an out-of-place dropout after a sigmoid, in an encoder that switches the layers
# of `%s` to in place after building it.
_SWITCHED_BLOCK = """
        import torch
        import torch.nn as nn
        class GatedResidual(nn.Module):
            def __init__(self, d, p=0.2):
                super().__init__()
                self.fc = nn.Linear(d, d)
                self.drop = nn.Dropout(p)
            def forward(self, x):
                g = torch.sigmoid(self.fc(x))
                g = self.drop(g)
                return x * g
        class Encoder(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.block = GatedResidual(d)
                self.act = nn.ReLU()
                for m in self.modules():
                    if isinstance(m, %s):
                        m.inplace = True
            def forward(self, x):
                return self.act(self.block(x))
        Encoder(8)(torch.randn(4, 8)).sum().backward()
"""


# A gated recurrent cell whose update gate is a view `chunk` returned of a sigmoid's output; `%s` is what it does
# with the gate (and the input) before using them.
_GATED_CELL = """
        import torch
        import torch.nn as nn
        class GatedCell(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.gates = nn.Linear(2 * d, 2 * d)
                self.proj = nn.Linear(d, d)
            def forward(self, x, h, mask):
                reset, update = torch.sigmoid(self.gates(torch.cat([x, h], -1))).chunk(2, dim=-1)
                %s
                return update * h + (1 - update) * torch.tanh(self.proj(x) + reset * h)
        cell = GatedCell(4)
        cell(torch.randn(6, 4), torch.zeros(6, 4), torch.zeros(6, 4, dtype=torch.bool)).sum().backward()
"""

# The same cell slicing its gates with basic indexing, views of the sigmoid's output; `%s` takes the update gate.
_SLICED_GATES = """
        import torch
        import torch.nn as nn
        class SlicedGateCell(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.d = d
                self.gates = nn.Linear(2 * d, 2 * d)
                self.proj = nn.Linear(d, d)
            def forward(self, x, h, mask):
                gates = self.gates(torch.cat([x, h], -1)).sigmoid()
                reset, update = gates[:, :self.d], %s
                update.masked_fill_(mask, 1.0)
                return update * h + (1 - update) * torch.tanh(self.proj(x) + reset * h)
        cell = SlicedGateCell(4)
        cell(torch.randn(6, 4), torch.zeros(6, 4), torch.zeros(6, 4, dtype=torch.bool)).sum().backward()
"""


class InplaceOnSavedTensor(Rule):
    code = "SC216"
    name = "inplace-on-saved-tensor"
    severity = "error"  # backward raises
    message = ("in-place op on a tensor autograd saved for backward: backward raises \"one of the variables needed "
               "for gradient computation has been modified by an inplace operation\"")
    triggers = ("_(", "+=", "-=", "*=", "/=", "] =", "inplace")
    # The visits only note the bodies with an in-place op; `finish` reads those with the whole file.
    scope = "statement"
    gathered = ("_mutating", "_switchable")
    reads = ((TRAINING_LOOP, ("backward",)),)
    docs = """
        ## What it does
        Finds an in-place op (`x.masked_fill_(...)`, `x += 1`, `x[mask] = 0`, `x.relu_()`, `x.clamp_(...)`,
        `F.relu(x, inplace=True)`, a layer built with `inplace=True`, or one built without it that a walk of
        `self.modules()` switches afterwards, `if isinstance(m, nn.Dropout): m.inplace = True`, in its own class or
        in a module class of the project that builds it, directly or through a factory function such as `SwinB()`,
        up to six builders up; not a dropout of rate 0, or of a constructor parameter defaulting to 0, which drops
        nothing) on a tensor that autograd saved for the backward pass, before that pass runs:
        the output of an op whose gradient is computed from its output (`sigmoid`, `tanh`, `exp`, `softmax`,
        `log_softmax`, `relu`, `sqrt`, a layer doing one, an `nn.Sequential` ending in one), or the input of an op
        whose gradient is computed from its inputs (a factor
        of `*`/`mul`, an operand of `@`/`matmul`, a divisor, the base of `**`, the input of a `Linear`, a
        convolution or a norm layer (also one of the layers of an `nn.ModuleList` or `nn.Sequential`, indexed,
        `self.proj[i](x)`, or looped over, `for layer in self.layers: x += layer(x)`), of an `nn.Sequential`
        starting with one, or of a module class of the project whose
        `forward` hands its input straight to one before rebinding it: an MLP-Mixer's `x += self.channel_mix(x)`
        where `channel_mix` is a feed-forward block whose `forward` starts with `self.fc1(x)`). The op may reach the tensor through a view taken by basic indexing
        (`attn[0].mul_(2)`, or a name bound to one: `reset, update = gates[:, :d], gates[:, d:]` then
        `update.masked_fill_(mask, 1.0)`; `attn[mask]` is a copy) or as an element of a list of saved outputs (`rates =
        [torch.exp(a), torch.exp(b)]; rates[0].add_(eps)`). It reports only a chain the code states whole: the
        tensor comes from a model, a layer with weights (an element of an `nn.ModuleList` too), a parameter or a
        `requires_grad` tensor; a trainer's `self.model` (or `self.model.fc`) counts when every construction of the
        trainer hands it such a model, and a script's `net = build(8)` when the factory returns one (an
        `nn.Sequential` ending in `nn.Tanh()` saves its output); the in-place op follows the saving op with
        no rebinding in between (in a loop, also the op in the next iteration: a running state `S += k * v` that
        `torch.einsum(..., q, S)` saved in the one before; `x[:] = x + h` writes into the same tensor); and a
        backward pass (or, in a module's `forward`, the returned output; in a LightningModule's `training_step`,
        whose `self(x)` runs the model, the returned loss) goes through the saving op. A two-operand `einsum` saves each operand as a product does;
        a zeros buffer that `+=` adds graph values to is in the graph; a same-file function of one `return`
        (`def elu_feature_map(x): return F.elu(x) + 1`) keeps the graph of what it is handed; a module's
        `forward` input is in the graph when a call of one of its instances in the file, or in a project module
        that imports the class (directly or through packages re-exporting it) and keeps an instance as `self.x`,
        hands it a tensor in the graph (SSD's `self.l2norm(x)` on a convolution's output, in `models/ssd.py` with
        `L2Norm` from `layers.py`). A function's parameter is in the graph when a call of it with autograd on, in
        the file (a trainer's `self.compute_loss(logits, y)` too) or in a project module importing a plain function,
        hands it a model's output (or a `self.w` its class assigns `nn.Parameter(...)`: a functional cell handed the
        weights), directly or by a name bound to one (`logits = self.model(images)`, then `soft_dice_loss(logits, masks)` of `losses.py` in a trainer
        that backpropagates the loss). A layer with weights keeps its input whether that input needs a gradient or
        not: a batch's features changed by `feats += self.proj(feats)` spoil what `proj` kept. An in-place op on one
        of the views `split`, `chunk` or `unbind` returns of a tensor in the graph (`r, z =
        torch.sigmoid(gates).chunk(2, 1)`, then `z.masked_fill_(...)`) is reported too: autograd refuses it, saved
        or not.

        ## Why is this bad?
        Autograd keeps the tensors a derivative needs and checks their version when the backward pass runs; an
        in-place op bumps the version, so `backward()` raises `RuntimeError: one of the variables needed for
        gradient computation has been modified by an inplace operation`. The primers: "Inplace ops break
        autograd. x.add_(1) (with the underscore) modifies the tensor in place. If that tensor was part of a
        computation graph, autograd may refuse to compute gradients or silently give wrong ones. Prefer x = x + 1
        unless you know why you want inplace.", and in-place ops are "risky inside autograd graphs because they
        can break the saved values needed for backward".

        An in-place op on a view `split`, `chunk` or `unbind` returned of a tensor that requires grad raises at once:
        "Output 0 of Split is a view and is being modified inplace. This view is the output of a function that returns
        multiple views."

        In-place ops on tensors nothing saved are fine and not reported: `masked_fill_` on attention scores
        before the softmax (`matmul` saved `q` and `k`, not the scores), `nn.ReLU(inplace=True)` after a
        convolution or a linear layer (they saved their input), updates under `no_grad`, a module's inference branch
        (`if not self.training:`, or what follows `if self.training: return ...`), and ops on `.detach()`ed,
        `.clone()`d or freshly created tensors.

        ## Example
        ```python
        probs = torch.sigmoid(logits)
        probs.masked_fill_(~valid, 0.5)
        ```

        ## Use instead
        ```python
        probs = torch.sigmoid(logits)
        probs = probs.masked_fill(~valid, 0.5)
        ```
    """
    VALID = [
        # The residual added out of place; in place after a block that keeps nothing of its input (a learned shift:
        # `add` saves no operand) or after a Sequential that starts with a parameter-free layer.
        """
        import torch
        import torch.nn as nn
        class FeedForward(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc1 = nn.Linear(dim, dim)
                self.fc2 = nn.Linear(dim, dim)
            def forward(self, x):
                return self.fc2(torch.relu(self.fc1(x)))
        class Shift(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.bias = nn.Parameter(torch.zeros(dim))
            def forward(self, x):
                return x + self.bias
        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.mlp = FeedForward(dim)
                self.shift = Shift(dim)
                self.gate = nn.Sequential(nn.ReLU(), nn.Linear(dim, dim))
            def forward(self, x):
                x = x + self.mlp(x)
                x += self.shift(x)
                h = x * 1.0
                h += self.gate(h)
                return h
        Block(8)(torch.randn(2, 8)).sum().backward()
        """,
        # The factory's network ends in a linear layer, which saves its input, not its output; the trainer's noise
        # is added out of place.
        """
        import torch
        import torch.nn as nn
        def build(d):
            return nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d))
        net = build(8)
        h = net(torch.randn(2, 8))
        h.mul_(2.0)
        h.sum().backward()
        class Trainer:
            def __init__(self, model):
                self.model = model
            def train_step(self, x):
                h = torch.sigmoid(self.model(x))
                h = h + 0.1 * torch.randn_like(h)
                h.sum().backward()
        Trainer(nn.Linear(4, 4)).train_step(torch.randn(2, 4))
        """,
        # A residual block whose Sequential ends in an in-place ReLU, added to out of place.
        """
        import torch
        import torch.nn as nn
        class ResidualBlock(nn.Module):
            def __init__(self, ch):
                super().__init__()
                self.left = nn.Sequential(nn.Conv2d(ch, ch, 3, 1, 1), nn.ReLU(inplace=True))
            def forward(self, x):
                out = self.left(x)
                out = out + x
                return out
        ResidualBlock(4)(torch.randn(2, 4, 6, 6)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # a mask index copies: the softmax output is left as it was saved; a list of saved outputs grows
        class Heads(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.q = nn.Linear(dim, dim)
            def forward(self, x):
                attn = self.q(x).softmax(dim=-1)
                attn[attn > 0.5].mul_(2)
                outs = [torch.exp(self.q(x))]
                outs += [torch.exp(x)]
                return attn.sum() + outs[0].sum() + outs[1].sum()
        Heads(4)(torch.randn(2, 4)).backward()
        """,
        """
        import torch
        import torch.nn as nn
        # add saves nothing: a residual sum of ModuleList outputs added to in place
        class ResMLP(nn.Module):
            def __init__(self, dim, depth):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
            def forward(self, x):
                for block in self.blocks:
                    h = self.blocks[0](x) + x
                    h += 1.0
                    x = torch.relu(h)
                return x
        ResMLP(4, 2)(torch.randn(3, 4)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # masked_fill_ on attention scores before the softmax: matmul saved q and k, not the scores
        class Attention(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.qkv = nn.Linear(dim, 3 * dim)
            def forward(self, x, mask):
                q, k, v = self.qkv(x).chunk(3, dim=-1)
                scores = q @ k.transpose(-2, -1)
                scores.masked_fill_(mask, float("-inf"))
                attn = scores.softmax(dim=-1)
                return attn @ v
        layer = Attention(8)
        layer(torch.randn(2, 5, 8), torch.ones(5, 5).triu(1).bool()).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        # an in-place ReLU on a linear layer's output: the layer saved its input, not its output
        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 16)
                self.mid = nn.Linear(16, 16)
                self.out = nn.Linear(16, 1)
                self.act = nn.ReLU(inplace=True)
            def forward(self, x):
                h = self.fc(x)
                F.relu(h, inplace=True)
                return self.out(self.act(self.mid(h)))
        MLP()(torch.randn(4, 8)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # a detached or cloned copy is free to change; `x = x + 1` is no in-place op
        model = nn.Linear(16, 4)
        out = model(torch.randn(8, 16))
        confidence = torch.sigmoid(out).detach()
        confidence.masked_fill_(confidence < 0.5, 0.0)
        probs = torch.softmax(out, dim=-1)
        probs = probs.clone()
        probs[:, 0] = 0
        weights = torch.exp(out)
        weights = weights + 1e-6
        loss = (probs * weights).sum()
        loss.backward()
        """,
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        # the thresholded predictions are metrics: the loss does not go through the sigmoid
        model = nn.Linear(16, 4)
        x, y = torch.randn(8, 16), (torch.rand(8, 4) > 0.5).float()
        logits = model(x)
        preds = torch.sigmoid(logits)
        preds[preds < 0.5] = 0
        loss = F.binary_cross_entropy_with_logits(logits, y)
        loss.backward()
        """,
        """
        import copy
        import torch
        import torch.nn as nn
        # an EMA teacher and a hand-written update under no_grad
        student = nn.Linear(4, 4)
        teacher = copy.deepcopy(student)
        loss = student(torch.randn(2, 4)).pow(2).mean()
        loss.backward()
        with torch.no_grad():
            for t, s in zip(teacher.parameters(), student.parameters()):
                t.mul_(0.99).add_(s, alpha=0.01)
            for p in student.parameters():
                p -= 0.1 * p.grad
        """,
        """
        import torch
        import torch.nn as nn
        # a detection head post-processes its scores in place only in inference
        class Head(nn.Module):
            def __init__(self, dim, classes):
                super().__init__()
                self.cls = nn.Linear(dim, classes)
            def forward(self, x):
                logits = self.cls(x)
                if self.training:
                    return logits
                scores = logits.sigmoid()
                scores[scores < 0.05] = 0
                return scores
        head = Head(8, 3)
        head(torch.randn(4, 8)).sum().backward()
        with torch.no_grad():
            head.eval()
            kept = head(torch.randn(4, 8))
        """,
        """
        import torch
        import torch.nn as nn
        # a freshly created mask changed before it is used
        model = nn.Linear(16, 4)
        mask = torch.ones(8, 4)
        mask[:, 0] = 0
        loss = (model(torch.randn(8, 16)) * mask).sum()
        loss.backward()
        """,
        # idiap/fast-transformers' recurrent linear attention after its fix: the running state rebound each step;
        # a loss total added up in place, which nothing saved.
        """
        import torch
        import torch.nn as nn
        class RecurrentLinearAttention(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.qkv = nn.Linear(d, 3 * d)
            def forward(self, x):
                q, k, v = self.qkv(x).chunk(3, dim=-1)
                Si = x.new_zeros(x.size(0), x.size(2), x.size(2))
                outputs = []
                for i in range(x.size(1)):
                    Si = Si + torch.einsum("nd,nm->ndm", k[:, i], v[:, i])
                    outputs.append(torch.einsum("nd,ndm->nm", q[:, i], Si))
                return torch.stack(outputs, dim=1)
        model = RecurrentLinearAttention(16)
        batches = [torch.randn(4, 5, 16) for _ in range(3)]
        total = 0.0
        for x in batches:
            loss = model(x).pow(2).mean()
            total += loss
        total.backward()
        """,
        # A descriptor head normalizing the raw features it is handed in place (HardNet's L2Norm on a patch's
        # input): no call hands it a tensor in the graph, so nothing was saved that needs gradients.
        """
        import torch
        import torch.nn as nn
        class L2Norm(nn.Module):
            def forward(self, x):
                x /= x.pow(2).sum(dim=1, keepdim=True).sqrt() + 1e-10
                return x
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.norm = L2Norm()
                self.fc = nn.Linear(64, 16)
            def forward(self, feats):
                return self.fc(self.norm(feats))
        Encoder()(torch.randn(4, 64)).sum().backward()
        """,
        # A parent module switches only its ReLUs to in place (after a Linear, which saves its input); another
        # switches its dropout, but builds no module whose dropout follows an op that saved its output.
        _SWITCHED_BLOCK % "nn.ReLU" + """
        class Head(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.drop = nn.Dropout(0.1)
                self.fc = nn.Linear(d, 2)
                for name, m in self.named_modules():
                    if isinstance(m, nn.Dropout):
                        m.inplace = True
            def forward(self, x):
                return self.fc(self.drop(x))
        Head(8)(torch.randn(4, 8)).sum().backward()
        """,
        # A gated cell masking its update gate out of place; the raw batch split into halves and scaled in place,
        # and normalized in place before the projection reads it.
        _GATED_CELL % ("update = update.masked_fill(mask, 0.0)\n                left, right = x.chunk(2, dim=0)\n"
                       "                right.mul_(0.5)\n                x -= x.mean(dim=0)"),
        # The update gate copied out of the sigmoid's output before it is masked.
        _SLICED_GATES % "gates[:, self.d:].clone()",
    ]
    INVALID = [
        # A gated recurrent cell masks its update gate in place: a view `chunk` returned of the sigmoid's output.
        _GATED_CELL % "update.masked_fill_(mask, 0.0)",
        # or a slice of it, which writes into the output the sigmoid saved
        _SLICED_GATES % "gates[:, self.d:]",
        # A denoiser adds its projection to the batch it is handed in place: the Linear kept that batch for its
        # weight's gradient, though the batch itself needs none.
        """
        import torch
        import torch.nn as nn
        class Denoiser(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.proj = nn.Linear(d, d)
                self.out = nn.Linear(d, d)
            def forward(self, feats):
                feats += self.proj(feats)
                return self.out(feats)
        Denoiser(8)(torch.randn(4, 8)).pow(2).mean().backward()
        """,
        # An MLP-Mixer block's channel mixing added to its input in place: the feed-forward block's first Linear
        # kept that input for its weight's gradient; so did the first layer of a Sequential.
        Invalid("""
        import torch
        import torch.nn as nn
        class FeedForward(nn.Module):
            def __init__(self, dim, mult=4):
                super().__init__()
                self.fc1 = nn.Linear(dim, dim * mult)
                self.act = nn.GELU()
                self.fc2 = nn.Linear(dim * mult, dim)
            def forward(self, x):
                return self.fc2(self.act(self.fc1(x)))
        class MixerBlock(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.norm = nn.LayerNorm(dim)
                self.mlp = FeedForward(dim)
                self.proj = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
            def forward(self, x):
                x = self.norm(x)
                x += self.mlp(x)
                y = x.clone()
                y += self.proj(y)
                return y
        MixerBlock(8)(torch.randn(2, 4, 8)).sum().backward()
        """, count=2),
        # A decaying memory read by a linear layer, then scaled and added to in place in the next step.
        Invalid("""
        import torch
        import torch.nn as nn
        class DecayMemory(nn.Module):
            def __init__(self, dim, decay=0.9):
                super().__init__()
                self.decay = decay
                self.inp = nn.Linear(dim, dim)
                self.read = nn.Linear(dim, dim)
            def forward(self, x):
                mem = x.new_zeros(x.size(0), x.size(2))
                outs = []
                for t in range(x.size(1)):
                    mem.mul_(self.decay)
                    mem += self.inp(x[:, t])
                    outs.append(self.read(mem))
                return torch.stack(outs, 1)
        DecayMemory(8)(torch.randn(2, 3, 8)).sum().backward()
        """, count=2),
        # A trainer handed its model: every construction hands it an `Encoder`, whose `fc` has weights.
        """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(784, 256)
                self.head = nn.Linear(256, 10)
        class Trainer:
            def __init__(self, model):
                self.model = model
                self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
            def train_step(self, x, y):
                h = torch.sigmoid(self.model.fc(x))
                h += 0.1 * torch.randn_like(h)
                loss = nn.functional.cross_entropy(self.model.head(h), y)
                loss.backward()
        Trainer(Encoder()).train_step(torch.randn(8, 784), torch.randint(0, 10, (8,)))
        """,
        # A script's network from a factory: the `nn.Sequential` ends in `Tanh`, which saves its output.
        """
        import torch
        import torch.nn as nn
        def build(d):
            return nn.Sequential(nn.Linear(d, d), nn.Tanh())
        net = build(8)
        h = net(torch.randn(2, 8))
        h.mul_(2.0)
        h.sum().backward()
        """,
        # pytorch/pytorch#5687: the block's Sequential ends in a ReLU, which saves its output; `+=` changes it.
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class ResidualBlock(nn.Module):
            def __init__(self, ch_in, ch_out, shortcut=None):
                super().__init__()
                self.left = nn.Sequential(nn.Conv2d(ch_in, 8, 3, 1, 1), nn.ReLU(inplace=True),
                                          nn.Conv2d(8, ch_out, 3, 1, 1), nn.ReLU(inplace=True))
                self.right = shortcut
            def forward(self, x):
                out = self.left(x)
                residual = x if self.right is None else self.right(x)
                out += residual
                return F.relu(out)
        ResidualBlock(4, 4)(torch.randn(2, 4, 6, 6)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        def masked_bce(logits, targets, valid):
            probs = torch.sigmoid(logits)
            probs.masked_fill_(~valid, 0.5)
            return -(targets * torch.log(probs) + (1 - targets) * torch.log(1 - probs)).mean()
        model = nn.Linear(20, 5)
        x, targets = torch.randn(8, 20), (torch.rand(8, 5) > 0.5).float()
        valid = torch.rand(8, 5) > 0.1
        loss = masked_bce(model(x), targets, valid)
        loss.backward()
        """,
        """
        import torch
        import torch.nn as nn
        # mul saved `value` for the gradient of the tanh gate
        class GLUBlock(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.a = nn.Linear(dim, dim)
                self.b = nn.Linear(dim, dim)
            def forward(self, x):
                value = self.a(x)
                out = value * torch.tanh(self.b(x))
                value.clamp_(min=0)
                return out + value
        GLUBlock(8)(torch.randn(4, 8)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # sigmoid saved its output; the helper is handed a model's output through `.squeeze(1)`
        def focal_loss(logits, targets, gamma=2.0):
            p = torch.sigmoid(logits)
            p.clamp_(1e-6, 1 - 1e-6)
            pt = torch.where(targets == 1, p, 1 - p)
            return (-(1 - pt) ** gamma * pt.log()).mean()
        model = nn.Linear(4, 1)
        loss = focal_loss(model(torch.randn(8, 4)).squeeze(1), torch.randint(0, 2, (8,)))
        loss.backward()
        """,
        """
        import torch
        import torch.nn as nn
        # exp saved its output, kept in a list
        class Rates(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.a = nn.Linear(dim, 1)
                self.b = nn.Linear(dim, 1)
            def forward(self, x):
                rates = [torch.exp(self.a(x)), torch.exp(self.b(x))]
                rates[0].add_(1e-6)
                return rates[0] + rates[1]
        Rates(3)(torch.randn(4, 3)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # relu saved its output; the layer is an element of a ModuleList
        class ResMLP(nn.Module):
            def __init__(self, dim, depth):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
            def forward(self, x):
                h = torch.relu(self.blocks[1](self.blocks[0](x)))
                h += 1.0
                return h
        ResMLP(4, 2)(torch.randn(3, 4)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # tanh saved its output
        class Gate(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)
            def forward(self, x):
                g = torch.tanh(self.fc(x))
                g *= 0.5
                return x * g
        Gate(8)(torch.randn(4, 8)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        # the in-place ReLU changes `h`, which the projection saved
        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)
                self.proj = nn.Linear(dim, dim)
                self.act = nn.ReLU(inplace=True)
            def forward(self, x):
                h = self.fc(x)
                skip = self.proj(h)
                h = self.act(h)
                return h + skip
        Block(8)(torch.randn(4, 8)).sum().backward()
        """,
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(16, 4)
        probs = torch.softmax(model(torch.randn(8, 16)), dim=-1)
        probs[:, 0] = 0
        loss = (probs * torch.arange(4.0)).sum()
        loss.backward()
        """,
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        # the projection saved `h`, its input
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
                self.proj = nn.Linear(8, 8)
            def forward(self, x):
                h = self.fc(x)
                out = self.proj(h)
                F.relu(h, inplace=True)
                return out + h
        Block()(torch.randn(4, 8)).sum().backward()
        """,
        # A gate module clamping its input in place after a product saved it; the model hands it a linear layer's
        # output, so its input is in the graph.
        """
        import torch
        import torch.nn as nn
        class Gate(nn.Module):
            def forward(self, h):
                gated = torch.sigmoid(h) * h
                h.clamp_(min=0)
                return gated
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)
                self.gate = Gate()
            def forward(self, x):
                return self.gate(self.fc(x))
        Net()(torch.randn(4, 8)).sum().backward()
        """,
        # The dropout is built out of place, but the module that builds its block switches every ReLU and dropout
        # below it to in place: the dropout then overwrites the sigmoid's output, which sigmoid saved.
        _SWITCHED_BLOCK % "(nn.ReLU, nn.Dropout)",
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._mutating: list[cst.FunctionDef | None] = []  # bodies (None: module level) with an in-place op
        # bodies calling a `self.x` layer that a walk of `self.modules()` may switch to in place, with the layer's
        # constructions: whether one does reads the project's builders of the class, once the file is known
        self._switchable: list[tuple[cst.FunctionDef | None, cst.ClassDef, tuple[cst.Call, ...]]] = []

    # The bodies worth reading are those with an in-place op, and those that call one returning a spoiled graph:
    # the traversal notes the first kind, so `finish` reads a handful of bodies instead of every one.

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mutating.append(self.ctx.function)

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(type(target.target) is cst.Subscript for target in node.targets):
            self._mutating.append(self.ctx.function)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute and func.attr.value in IN_PLACE_METHODS \
                or any(arg.keyword is not None and arg.keyword.value == "inplace" for arg in node.args) \
                or self.ctx.qualname(func) in IN_PLACE_FUNCTIONS \
                or all_in_place(built := self.ctx.analysis(SavedTensors).constructions(self.ctx.class_def, func)):
            self._mutating.append(self.ctx.function)
        elif built and all(torch_layer(self.ctx, call) in IN_PLACE_CAPABLE for call in built):
            self._switchable.append((self.ctx.function, self.ctx.class_def, tuple(built)))  # type: ignore[arg-type]

    def finish(self) -> None:
        switched = [function for function, class_def, built in self._switchable
                    if switched_in_place(self.ctx, class_def, list(built))]
        self.ctx.analysis(SavedTensors).spoiled([*self._mutating, *switched], self.code, self.report_spoiled)

    def report_spoiled(self, found: Spoiled) -> None:
        ctx = self.ctx
        op = " ".join(ctx.code(found.saved.op).split())
        op = op if len(op) <= 60 else op[:56] + " ...)"
        what = "its output" if found.saved.output else f"`{found.name}`"
        change = " ".join(ctx.code(found.node).split())
        if found.saved.views:
            self.report(found.node, f"`{change}` changes `{found.name}` in place, but `{found.name}` is one of the "
                                    f"views `{op}` returns of a tensor that requires grad: torch raises \"... is a view "
                                    f"and is being modified inplace. This view is the output of a function that "
                                    f"returns multiple views\"; {_instead(ctx, found)}")
            return
        self.report(found.node, f"`{change}` changes `{found.name}` in place, but `{op}` saved {what} for backward: "
                                f"backward raises \"one of the variables needed for gradient computation has been "
                                f"modified by an inplace operation\"; {_instead(ctx, found)}")


def _instead(ctx: Context, found: Spoiled) -> str:
    """The out-of-place form of the change, for the message."""
    node, name = found.node, found.name
    if type(node) is cst.AugAssign:
        operator = ctx.code(node.operator).strip().rstrip("=")  # type: ignore[arg-type]
        return f"write `{name} = {name} {operator} {' '.join(ctx.code(node.value).split())}`"
    if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in IN_PLACE_METHODS:
        return f"write `{name} = {name}.{node.func.attr.value[:-1]}(...)`"
    if type(node) is cst.Call:
        return "use the layer's out-of-place form (`inplace=False`)"
    return f"write to a copy (`{name} = {name}.clone()` first) or build the result with `torch.where`"
