"""SC207 numpy-of-graph-tensor: `.numpy()` on a tensor that is still in the autograd graph, or on the GPU."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Literal

import libcst as cst

from shapecheck.engine import Context, Invalid, Rule
from shapecheck.engine.context import Point
from shapecheck.engine.syntax import dotted_name, is_false, is_self_attribute, is_true, last_name, param_annotation
from shapecheck.engine.torch_code import implicit_torch_training, imports_torch
from shapecheck.loops.first_party import imported_functions
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import calls_passing, every_call_passes, imported_calls
from shapecheck.objects.project import PROJECT
from shapecheck.objects.modules import is_module
from shapecheck.objects.stored import every_construction_passes, stored_parameter
from shapecheck.objects.values import ClassValue, FunctionValue, Instance, TorchObject
from shapecheck.objects.model_outputs import forward_returns
from shapecheck.shapes.activations import (
    construction_of,
    element_instances,
    zipped_list,
    instance_class,
    is_foreign_value,
    is_torch_module_class,
    module_parameter,
    project_class,
)
from shapecheck.loops.devices import moves_to_cpu, moves_to_device
from shapecheck.objects.torch_layers import PARAMETER_FREE
from shapecheck.objects.tensor_facts import positional, string_value
from shapecheck.loops.frozen import frozen_module
from shapecheck.loops.surroundings import LIGHTNING_HOOKS, lightning_module
from shapecheck.shapes.evaluator import evaluator

# Methods that return a view, a re-typed copy or a differentiable function of the tensor: the result stays in the
# graph (and on the same device), so `model(x).softmax(dim=1).numpy()` raises as `model(x).numpy()` does.
GRAPH_PRESERVING = frozenset({"squeeze", "unsqueeze", "view", "view_as", "reshape", "reshape_as", "flatten", "permute",
                              "transpose", "t", "contiguous", "float", "double", "half", "clone", "softmax", "log_softmax", "sigmoid",
                              "tanh", "exp", "log", "abs", "relu", "mean", "sum", "clamp", "square", "sqrt"})
# Attributes that leave the graph, or aren't tensors of the graph at all.
LEAVES_GRAPH = frozenset({"data", "grad", "indices", "shape", "dtype", "device"})
# Methods whose result is out of the graph but on the same device: a model's output on the GPU stays there
# (`out.detach().numpy()`, `out.argmax(1).numpy()` raise all the same).
LEAVES_GRAPH_NOT_DEVICE = frozenset({"detach", "argmax", "argmin", "long", "int", "bool", "round", "sign"})
LOSS_FUNCTIONS = frozenset({"cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
                            "kl_div", "poisson_nll_loss", "gaussian_nll_loss", "ctc_loss"})
MODEL_FACTORIES = ("torchvision.models.", "timm.create_model", "torch.hub.load")
SET_GRAD_ENABLED = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                              "torch.autograd.grad_mode.set_grad_enabled"})

# Module methods that return the module on the device it is on (`.to(torch.float16)` is no move).
KEEPS_DEVICE = frozenset({"to", "train", "eval", "float", "half", "double", "bfloat16", "requires_grad_"})
# Torch functions that make a tensor of data: it has no graph unless asked for one (`requires_grad=True`).
_MADE_FROM_DATA = frozenset({"torch.from_numpy", "torch.tensor", "torch.as_tensor", "torch.zeros", "torch.ones",
                             "torch.empty", "torch.full", "torch.arange", "torch.linspace", "torch.Tensor",
                             "torch.FloatTensor", "torch.LongTensor"})

# "stored" / "stored-device": `self.model(x)` of a trainer that stores a constructor parameter there (moved to a
# device, for the second): its constructions say whether it is a model
# "parameter-device": a helper's `model(x)` under `no_grad` or out of the graph: only a moved model counts
# "argument": a tensor the function is handed (`def to_numpy(t): return t.cpu().numpy()`): its callers say whether it
# requires grad
# "weights": a module's `nn.Parameter` (`model.coeffs`), or a tensor computed from one: the node is the parameter read
Origin = Literal["cuda", "device", "model", "loss", "parameter", "parameter-device", "stored", "stored-device",
                 "argument", "weights"]
# Operators autograd differentiates: the result of one keeps the graph of either operand.
_DIFFERENTIABLE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.MatrixMultiply, cst.Power)
# numpy functions that convert each tensor of a list they are given with `.numpy()` (`np.mean(losses)`).
_CONVERTING = frozenset({f"numpy.{name}" for name in (
    "array", "asarray", "mean", "sum", "average", "std", "var", "median", "stack", "concatenate", "vstack", "hstack",
    "max", "min", "prod", "cumsum")})
# torch functions joining a list of tensors into one, which keeps the graph of each.
_JOINING = frozenset({f"torch.{name}" for name in ("cat", "concat", "concatenate", "stack", "vstack", "hstack")})
_CONVERTING_NAMES = frozenset(name.rsplit(".", 1)[1] for name in _CONVERTING)
# A moved model's output brought back to the CPU still carries the model's graph.
_GRAPH_OF: dict[str, Origin] = {"device": "model", "stored-device": "stored", "parameter-device": "parameter"}
LOSS_MESSAGE = "`.numpy()` on a loss that requires grad raises: use `loss.item()` or `loss.detach().cpu().numpy()`"

# A LightningModule's landmark trainer (mit-han-lab/proxylessnas); the rest of `training_step`, and the other hooks,
# vary.
_LANDMARK_TRAINER = """
        import pytorch_lightning as pl
        import torch
        import torch.nn as nn
        class LandmarkNet(nn.Module):
            def __init__(self, n_points):
                super().__init__()
                self.features = nn.Conv2d(3, 16, 3)
                self.head = nn.Linear(16, n_points * 2)
            def forward(self, img):
                features = self.features(img).mean((2, 3))
                return features, self.head(features)
        class TrainModel(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.backbone = LandmarkNet(98)
            def training_step(self, batch, batch_idx):
                img, landmark_gt = batch
                _, landmarks = self.backbone(img)%s"""


# A detector whose RPN returns its anchors beside its outputs, made from numpy (bubbliiiing/faster-rcnn-pytorch): a
# trainer of the model its construction hands in, and a script, each convert one of the two; `%(name)s` is which.
_DETECTOR = """
        import numpy as np
        import torch
        from torch import nn
        class RegionProposals(nn.Module):
            def __init__(self):
                super().__init__()
                self.loc = nn.Conv2d(8, 36, 1)
            def forward(self, x):
                locs = self.loc(x)
                anchor = torch.from_numpy(np.zeros((405, 4))).unsqueeze(0).float().to(x.device)
                return locs, anchor
        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.rpn = RegionProposals()
            def forward(self, x, mode="rpn"):
                if mode == "rpn":
                    locs, anchor = self.rpn.forward(x)
                    return locs, anchor
                return self.rpn.loc(x)
        class DetectorTrainer(nn.Module):
            def __init__(self, model_train):
                super().__init__()
                self.model_train = model_train
            def forward(self, imgs):
                locs, anchor = self.model_train(imgs, mode="rpn")
                targets = %(name)s[0].cpu().numpy() * 2.0
                return (locs.sum() + anchor.sum()) * float(targets.sum())
        trainer = DetectorTrainer(Detector())
        locs, anchor = Detector()(torch.randn(1, 8, 15, 15))
        np.save("out.npy", %(name)s.numpy())
        """


class NumpyOfGraphTensor(Rule):
    code = "SC207"
    name = "numpy-of-graph-tensor"
    severity = "error"  # `.numpy()` raises on a tensor that requires grad or lives on the GPU
    message = ("`.numpy()` on a model output that requires grad raises: use `.detach().cpu().numpy()` or compute "
               "it under `torch.no_grad()`")
    triggers = (".numpy()", "np.mean(", "np.sum(", "np.array(", "np.asarray(", "np.average(", "np.std(", "np.stack(",
                "np.concatenate(", "np.vstack(", "np.hstack(", "np.var(", "np.median(", "np.max(", "np.min(",
                "np.prod(", "np.cumsum(")
    triggered_through_imports = True  # a metrics module's `.numpy()` on what this file hands it (see finish)
    docs = """
        ## What it does
        Finds `.numpy()` called on a model's output or a loss computed with autograd on (outside
        `torch.no_grad()` / `inference_mode()`) with no `.detach()` in between (`.cpu()` keeps the graph), and
        on the result of `.cuda()` / `.to("cuda")` with no `.cpu()` in between. The value is followed through
        local names, tuple unpacking, indexing (the values of `heatmaps.max(0)[0]` or `.max(0).values`, not
        the indices of `.max(1)[1]`), shape-only methods (`.squeeze()`, `.view()`, `.float()`, ...)
        and differentiable ones (`.softmax(dim=1)`, `.sigmoid()`, `.mean()`, ..., or their torch functions:
        `torch.sigmoid(logits)`), through arithmetic (`model(x) * scale`, `(model(x) - y) ** 2`), and through torch's
        joins of a list in the same function (`torch.cat(probs)`
        after `probs.append(model(x).softmax(1))`, `torch.stack`, `torch.vstack`, ...). So are the numpy functions that convert each tensor of a list they are given
        (`np.mean(losses)` after `losses.append(loss)` in the same function, `np.concatenate([encoder(b) for b in
        batches])`, `np.array`, `np.sum`, `np.stack`, ...), where a tensor the list holds is such an output,
        computed with autograd on; the list may be one that a method of the class (called on `self`) or a function
        of the file returns by the name it fills (`np.mean([s.mean() for s in self.scores(batches)])` with
        `out.append(self.model(b))`, `return out`), or the list at one place of the tuple it returns (`counts, losses
        = self.collect()` with `return counts, losses`), and a comprehension's names over a `zip` or `enumerate` of
        lists are those lists' tensors (`np.sum([n * loss for n, loss in zip(counts, losses)])`); a loss summed with
        `+=` over the batches is its terms'. A model is an instance of a
        torch module class of the same file, an `nn` layer, a `torchvision` / `timm` / `torch.hub` model, one
        that a function of the project returns (`model = build_model(cfg)`, as the objects floor follows it), a
        deep copy of one (`best_model = copy.deepcopy(model)`, kept when the loss improves), or
        `self(...)` inside a module; what a method of such a model of the project returns counts as its output
        where every `return` is one or a loss (`raw, probs = ranker.relevance(q, d)` with `return raw,
        torch.sigmoid(raw)` after `raw = self(q, d)`), read in the module defining the class, and so does what a
        learner's or trainer's method returns from its `self.model(x)` when the object it is called on holds a module
        there (`learner = Learner(nn.Sequential(...))`, then `learner.predict(x)`), the object also a loop's over a
        list of one project class (`for client in self.clients: n, loss = client.evaluate()`, the server built with
        `[Client(i, loader, model) for ...]` by every construction, in another module); so does
        what a function of the file defined before the call, or of a project module it imports, returns where every
        `return` is such an output or a loss,
        computed with autograd on, of its own model or of the one the call hands it (`probs = predict_proba(model,
        x)` with `logits = model(x)`, `return torch.softmax(logits, dim=1)`), and what such a function returns from
        the tensor the call hands it, outside a grad-mode block of its own, keeps that tensor's graph
        (`to_pixels(recon).numpy()` with `return (batch * 255).clamp(0, 255)`); a same-file helper's
        parameter counts when every call of the helper, at
        module level or in a plain function such as `main()`, hands it a model; so does a trainer's `self.model`
        stored from a constructor parameter when every construction of the trainer hands it one. A tensor a
        function or method is handed (`def plot(preds): plt.plot(preds.cpu().numpy())`, a meter's
        `update(self, scores)`) is reported when a call in the file (`plot(out)`, `self.meter.update(probs)` with
        `self.meter = Meter()`), or of a plain function in a module importing it, hands it a model's output or a loss
        computed with autograd on (also the output of a step helper's model parameter that every call of the step
        helper hands a model: `heatmaps = head(feats)`, then `show_heatmaps(heatmaps, path)`, or of a trainer's
        `self.head(feats)` that every construction hands a model; also a module's `nn.Parameter`, and a module's
        `forward` handed one by the calls of its instances: `self.conv(adj, self.embedding.weight)`): `no_grad`
        inside the helper does not take the graph off what it was handed.
        So is a method of a class of another module importing the class (`self.train_auc.update(probs, y)` with
        `self.train_auc = RocAucMeter()`); and where that module imports no torch (a numpy metrics module, which
        no torch rule lints), the call handing it the tensor is reported instead. A module's own
        `nn.Parameter` (`model.coeffs` of a project module class whose every assignment of it is one), or the
        `weight` of a layer that always has one (`probe.weight` of `nn.Linear`, `model.fc.weight`), requires grad
        as an output does: `model.coeffs.numpy()`, or a tensor computed from it with autograd on (`fitted =
        powers @ model.coeffs` for a progress snapshot). The output of a
        model moved with `.to(device)` / `.cuda()` is reported under `no_grad` too, and after `.detach()`, `.data`
        or `.argmax()`, which leave the graph but not the GPU.

        Not reported: `.numpy(force=True)`, tensors of unknown origin, an element of the tuple a project model's
        `forward` returns that it makes of data on every `return` of such a tuple (the anchors an RPN returns
        beside its outputs, `torch.from_numpy(anchor).float()`, also through a submodule's tuple; a trainer's
        `self.model(x)`: of every model its constructions hand in), outputs of parameter-free layers
        (`nn.Tanh()(t)`, or an `nn.Module` subclass that reads no attribute of `self`, or whose `forward` reads
        only its buffers), outputs of a model moved
        back by `model.to("cpu")` / `model.cpu()` after its last move to a device, `.data.numpy()` of a model kept on the CPU, outputs computed or
        converted under `no_grad` (also in a function only ever called under `no_grad` in the file, after
        a statement-level `torch.set_grad_enabled(False)`, and in a LightningModule's `validation_step`,
        `test_step` or `predict_step`, which the trainer runs with autograd off), a loss of predictions computed under `no_grad`, outputs
        of a model frozen with
        `requires_grad_(False)` or `p.requires_grad = False` over its parameters, and arrays of other
        frameworks (TensorFlow eager tensors and JAX arrays have a `.numpy()` too).

        ## Why is this bad?
        A tensor that requires grad can't be turned into a numpy array: `.numpy()` raises "Can't call numpy() on
        Tensor that requires grad", and a CUDA tensor raises "can't convert cuda:0 device type tensor to numpy".
        The code works in a CPU-only notebook under `no_grad` and breaks in the training loop or on the GPU box.
        The primer: "x.numpy()  # zero-copy view as numpy array (CPU only)" and "x.detach().cpu().numpy()  # the
        safe incantation: drop autograd, move to CPU, then numpy".

        ## Example
        ```python
        preds = model(images).numpy()
        history.append(loss.numpy())
        arr = x.cuda().numpy()
        ```

        ## Use instead
        ```python
        preds = model(images).detach().cpu().numpy()
        history.append(loss.item())
        with torch.no_grad():
            preds = model(images).cpu().numpy()
        ```

        This rule has no fix: whether to detach, move or restructure under `no_grad` is the author's call.
    """
    VALID = [
        # A spline's knot heights read for a plot: computed under `no_grad`, detached, through `.data`; its buffers
        # and plain tensors, a comparison of its output, and a frozen copy require no grad.
        """
        import torch
        import torch.nn as nn
        class Spline(nn.Module):
            def __init__(self, n_knots):
                super().__init__()
                self.heights = nn.Parameter(torch.zeros(n_knots))
                self.register_buffer("knots", torch.linspace(0, 1, n_knots))
                self.scale = torch.ones(n_knots)
            def forward(self, basis):
                return basis @ self.heights
        def fit(basis, target, steps=100):
            spline = Spline(basis.shape[1])
            opt = torch.optim.Adam(spline.parameters(), lr=0.01)
            for _ in range(steps):
                opt.zero_grad()
                (spline(basis) - target).pow(2).mean().backward()
                opt.step()
            with torch.no_grad():
                fitted = basis @ spline.heights
            curves = [fitted.numpy(), (basis @ spline.heights.detach()).numpy(),
                      (basis @ spline.heights).detach().numpy(), spline.heights.data.numpy()]
            return curves, (spline.knots * 2).numpy(), (spline.scale + 1).numpy(), (spline(basis) > 0).numpy()
        def frozen_curve(basis):
            spline = Spline(4)
            spline.requires_grad_(False)
            return (basis @ spline.heights).numpy()
        def probe_weights(features, labels):
            probe = nn.Linear(features.shape[1], 10)
            opt = torch.optim.Adam(probe.parameters())
            nn.functional.cross_entropy(probe(features), labels).backward()
            opt.step()
            with torch.no_grad():
                snapshot = probe.weight.numpy()
            return snapshot, probe.weight.detach().numpy(), probe.weight.data.numpy()
        """,
        # Lists of numbers, of outputs computed under `no_grad`, of an argmax: nothing numpy converts needs grad.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
        losses, labels = [], []
        for x, y in loader:
            loss = F.cross_entropy(net(x), y)
            loss.backward()
            losses.append(loss.item())
            labels.append(net(x).argmax(1))
        scores = []
        with torch.no_grad():
            for x, _ in val_loader:
                scores.append(net(x).softmax(1))
        print(np.mean(losses), np.concatenate(labels), np.concatenate(scores))
        """,
        # aimagelab/mammoth's RanPAC: a ridge regression's validation losses on fixed features hold no graph.
        """
        import numpy as np
        import torch
        import torch.nn.functional as F
        def optimise_ridge(features, targets, ridges=10.0 ** np.arange(-8, 9)):
            split = int(features.shape[0] * 0.8)
            gram = features[:split].T @ features[:split]
            losses = []
            for ridge in ridges:
                w = torch.linalg.solve(gram + ridge * torch.eye(gram.size(0)), features[:split].T @ targets[:split]).T
                losses.append(F.mse_loss(features[split:] @ w.T, targets[split:]))
            return ridges[np.argmin(np.array(losses))]
        """,
        # Model methods that decode under `no_grad` or hand back detached probabilities.
        """
        import torch
        import torch.nn as nn
        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(128, 9)
            def forward(self, h):
                return self.proj(h)
            @torch.no_grad()
            def decode(self, h):
                return self(h).softmax(-1)
            def probabilities(self, h):
                return self(h).softmax(-1).detach(), self(h).argmax(-1)
        tagger = Tagger()
        tags = tagger.decode(hidden).numpy()
        probs, best = tagger.probabilities(hidden)
        print(probs.cpu().numpy(), best.numpy())
        """,
        # mit-han-lab/proxylessnas's landmark trainer: the Lightning trainer runs `validation_step` with autograd
        # off, so the backbone's output there has no graph.
        _LANDMARK_TRAINER % """
                return torch.mean(torch.sum((landmark_gt - landmarks) ** 2, axis=1))
            def validation_step(self, batch, batch_idx):
                img, landmark_gt = batch
                _, landmarks = self.backbone(img)
                return {"val_nme": compute_nme(landmarks.cpu().numpy(), landmark_gt.cpu().numpy())}
        """,
        # A token classifier's error analysis: the logits come from a forward under no_grad, so the per-token loss
        # computed after the block has no graph.
        """
        import torch
        import torch.nn.functional as F


        def per_token_loss(model, batch, num_tags):
            tokens = batch["input_ids"].to(device)
            tags = batch["labels"].to(device)
            with torch.no_grad():
                out = model(tokens, batch["attention_mask"].to(device))
                pred = out.logits.argmax(-1).cpu().numpy()
            losses = F.cross_entropy(out.logits.view(-1, num_tags), tags.view(-1), reduction="none")
            return losses.view(len(tokens), -1).cpu().numpy(), pred
        """,
        # A factory of the project that returns no module: a plain callable's output carries no graph.
        """
        import torch
        class Standardize:
            def __call__(self, x):
                return (x - x.mean()) / x.std()
        def build_transform():
            return Standardize()
        transform = build_transform()
        print(transform(torch.randn(5)).numpy())
        """,
        # The same helper handed a model left on the CPU.
        """
        import torch
        import torch.nn as nn
        def predict_numpy(model, x):
            with torch.no_grad():
                return model(x).numpy()
        print(predict_numpy(nn.Linear(3, 2), torch.randn(4, 3)))
        """,
        # Out of the graph on the CPU; a trainer handed something that is no model; moved back before `.numpy()`.
        """
        import torch
        import torch.nn as nn
        class Runner:
            def __init__(self, model):
                self.device = torch.device("cuda")
                self.model = model.to(self.device)
            def predict(self, x):
                return self.model(x.to(self.device)).argmax(1).cpu().numpy()
            def raw(self, x):
                return self.model(x).detach().numpy()
        cpu_model = nn.Linear(4, 2)
        probs = cpu_model(torch.randn(3, 4)).detach().numpy()
        labels = cpu_model(torch.randn(3, 4)).argmax(1).numpy()
        Runner(make_predictor()).raw(torch.randn(3, 4))
        """,
        """
        import torch
        model = torch.nn.Linear(1, 1)
        predicted = model(torch.from_numpy(x_train)).detach().numpy()
        """,
        """
        import torch
        model = torch.nn.Linear(1, 1)
        with torch.no_grad():
            out = model(inputs)
        np_out = out.numpy()
        """,
        """
        import torch
        @torch.no_grad()
        def plot_points(model):
            z = model().cpu().numpy()
        """,
        """
        import torch
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        probs = model(x).numpy()
        """,
        """
        import torch
        attention = CosineAttention(normalize=False)
        output = attention(query, keys)
        assert_almost_equal(output.numpy(), expected)
        """,
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                return self.fc(x)
        net = Net()
        def predict(x):
            return net(x).argmax(1).numpy()
        with torch.no_grad():
            labels = predict(batch)
        """,
        """
        import torch
        import torchvision
        backbone = torchvision.models.resnet18(weights="DEFAULT")
        backbone.requires_grad_(False)
        features = backbone(images).numpy()
        """,
        """
        import torch
        import torch.nn as nn
        encoder = nn.Linear(512, 64)
        for p in encoder.parameters():
            p.requires_grad = False
        codes = encoder(batch).numpy()
        """,
        """
        import torch
        import torch.nn as nn
        torch.set_grad_enabled(False)
        net = nn.Conv2d(3, 8, 3)
        heatmap = net(image)[0].numpy()
        """,
        """
        import torch
        model = torch.nn.Linear(4, 2).cuda()
        out = model(x).numpy(force=True)
        pred = model(x).data.cpu().numpy()
        """,
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        model = nn.Linear(4, 2)
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            losses.append(loss.item())
            preds = (model(x) > 0).numpy()
        """,
        # A parameter-free layer: its output requires grad only when its input does.
        """
        import torch
        import torch.nn as nn
        import matplotlib.pyplot as plt
        t = torch.linspace(-4, 4, 200)
        for act in (nn.Tanh(), nn.Sigmoid(), nn.GELU()):
            plt.plot(t.numpy(), act(t).numpy(), label=type(act).__name__)
        """,
        # A plotting helper handed a model only under `no_grad`, and one handed no model.
        """
        import torch
        import torch.nn as nn
        def curve(model, xs):
            return model(xs).squeeze(1).numpy()
        def scaled(f, xs):
            return f(xs).numpy()
        net = nn.Linear(1, 1)
        with torch.no_grad():
            ys = curve(net, torch.linspace(0, 1, 50).unsqueeze(1))
        zs = scaled(torch.sin, torch.linspace(0, 1, 50))
        """,
        # `main()` hands the helper a model, but the helper predicts under `no_grad` and takes an `argmax`, which
        # leaves the graph.
        """
        import torch
        import torch.nn as nn
        def predict(model, loader):
            labels = []
            for x, _ in loader:
                labels.append(model(x).argmax(dim=1).numpy())
                with torch.no_grad():
                    scores = model(x).softmax(dim=1).numpy()
            return labels
        def main():
            model = nn.Linear(5, 3)
            predict(model, loader)
        """,

        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        model = nn.Linear(30, 3)
        def scores(x):
            logits = model(x)
            probs = F.softmax(logits.detach(), dim=1).numpy()
            return probs, torch.sigmoid(logits).detach().numpy()
        """,
        # Brought to the CPU out of the graph, or computed without autograd.
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3)).cuda()
        for x, y in loader:
            out = model(x.cuda())
            probs = out.softmax(1).detach().cpu().numpy()
            top = out.argmax(1).cpu().numpy()
        with torch.no_grad():
            scores = model(x.cuda()).cpu().numpy()
        """,
        # s4's HiPPO visualisation: a recurrence whose matrices are registered buffers (fixed, not trained) run on a
        # signal made from numpy, its coefficients plotted.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class FixedFilterBank(nn.Module):
            def __init__(self, taps):
                super().__init__()
                self.register_buffer("kernel", torch.from_numpy(np.hanning(taps)).float().view(1, 1, -1))

            def forward(self, wave):
                return F.conv1d(wave.view(1, 1, -1), self.kernel, padding=self.kernel.shape[-1] // 2)

        bank = FixedFilterBank(31).to("cuda")
        signal = torch.FloatTensor(np.random.randn(16000)).to("cuda")
        smoothed = bank(signal).cpu().numpy()
        """,
        # A parameter-free activation module plotted on a plain tensor.
        """
        import torch
        import torch.nn as nn
        class Swish(nn.Module):
            def forward(self, x):
                return x * torch.sigmoid(x)
        d = torch.linspace(-10.0, 10.0)
        res = Swish()(d)
        s = Swish()
        plot(d.numpy(), s(d).numpy())
        """,
        # Trained on the GPU, brought back to the CPU for the plots.
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(784, 10), nn.LogSoftmax(dim=1)).to(device)
        model.to("cpu")
        with torch.no_grad():
            ps = torch.exp(model(images[0])).data.numpy()
        """,
        # Helpers handed tensors out of the graph: detached, computed under `no_grad` / `inference_mode`, a batch of
        # data, or `.item()` of the loss.
        """
        import matplotlib.pyplot as plt
        import torch
        import torch.nn as nn
        def show_forecast(history, forecast):
            plt.plot(history.cpu().numpy())
            plt.plot(forecast.cpu().numpy())
        class LossMeter:
            def __init__(self):
                self.values = []
            def update(self, value):
                self.values.append(value.numpy())
        def main():
            net = nn.GRU(1, 16, batch_first=True)
            head = nn.Linear(16, 1)
            meter = LossMeter()
            for window, target in loader:
                out, _ = net(window)
                pred = head(out[:, -1])
                loss = nn.functional.mse_loss(pred, target)
                loss.backward()
                show_forecast(window[0, :, 0], pred.detach()[0])
                meter.update(torch.tensor(loss.item()))
            with torch.inference_mode():
                show_forecast(window[0, :, 0], head(net(window)[0][:, -1])[0])
        """,
        # A LightningModule's validation step hands a plotting helper its output: the trainer runs it with
        # autograd off.
        """
        import lightning.pytorch as pl
        import torch.nn as nn
        def log_mask(logger, mask, step):
            logger.experiment.add_image("mask", mask.sigmoid().cpu().numpy(), step)
        class Segmenter(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = nn.Conv2d(3, 1, 3, padding=1)
            def forward(self, x):
                return self.net(x)
            def validation_step(self, batch, batch_idx):
                img, gt = batch
                logits = self(img)
                log_mask(self.logger, logits[0], self.global_step)
        """,
        # Per-batch embeddings joined with torch: computed under `no_grad`, detached before the join, or after it.
        """
        import torch
        import torch.nn as nn

        class Embedder:
            def __init__(self, dim=64):
                self.encoder = nn.Sequential(nn.Linear(300, dim), nn.LayerNorm(dim))

            def embed(self, batches):
                with torch.no_grad():
                    chunks = [self.encoder(b) for b in batches]
                return torch.stack(chunks).cpu().numpy()

            def embed_detached(self, batches):
                chunks = []
                for b in batches:
                    chunks.append(self.encoder(b).detach())
                return torch.cat(chunks, dim=0).numpy()

            def embed_joined(self, batches):
                chunks = []
                for b in batches:
                    chunks.append(self.encoder(b))
                return torch.cat(chunks).detach().cpu().numpy()
        """,
        # An environment rollout that keeps a window of past observations and actions, grown by joining each step
        # onto the window itself, and detached before the trajectory is written; a helper joining two tensors its
        # callers hand it, called with none.
        """
        import torch

        def rollout(agent, env, history, window):
            frames, moves = history, None
            for _ in range(window):
                frames = torch.cat([frames, torch.as_tensor(env.observe()).unsqueeze(1)], dim=1)
                frames = frames[:, -window:]
                logits = agent(frames)
                step = logits.argmax(-1)[:, -1:]
                moves = step if moves is None else torch.cat([moves, step], dim=1)
                env.record(frames.detach().cpu().numpy(), moves.detach().cpu().numpy())

        def as_array(first, second):
            return torch.cat([first, second]).cpu().numpy()
        """,
        # What a same-file helper returns, out of the graph: computed under `no_grad` (the helper's decorator, or
        # the caller's block around the call), or detached before the `return`; a plotting helper handed the
        # heatmaps of an evaluation pass under `no_grad`.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        @torch.no_grad()
        def predict_proba(model, x):
            return torch.softmax(model(x), dim=1)
        def embed(model, x):
            features = model(x)
            return features.detach()
        def score(model, x):
            with torch.no_grad():
                logits = model(x)
            return torch.sigmoid(logits)
        def show_heatmaps(heatmaps, path):
            np.save(path, heatmaps[0].cpu().numpy())
        def evaluate(head, feats):
            with torch.no_grad():
                heatmaps = head(feats)
            show_heatmaps(heatmaps, "eval.npy")
        def main():
            model = nn.Linear(16, 3)
            x = torch.randn(8, 16)
            np.save("probs.npy", predict_proba(model, x).numpy())
            np.save("features.npy", embed(model, x).numpy())
            np.save("scores.npy", score(model, x).numpy())
            with torch.no_grad():
                probs = torch.softmax(model(x), dim=1)
            later = embed(model, x)
            print(later.numpy(), probs.numpy())
            evaluate(nn.Conv2d(64, 4, 1), torch.randn(2, 64, 8, 8))
        """,
        # A learner's predictions out of the graph: its method runs under `no_grad`, or detaches, or the call does;
        # a learner holding what the code does not show to be a module.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        class Learner:
            def __init__(self, model):
                self.model = model
            @torch.no_grad()
            def predict(self, x):
                return self.model(x)
            def embed(self, x):
                return self.model(x).detach()
            def raw(self, x):
                return self.model(x)
        def main(x, make_model):
            learner = Learner(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
            np.save("preds.npy", learner.predict(x).numpy())
            np.save("embeddings.npy", learner.embed(x).numpy())
            with torch.no_grad():
                raw = learner.raw(x)
            np.save("raw.npy", raw.numpy())
            unknown = Learner(make_model())
            np.save("unknown.npy", unknown.raw(x).numpy())
        """,
        # The anchors a detector's RPN makes from numpy beside its outputs have no graph.
        _DETECTOR % {"name": "anchor"},
    ]
    INVALID = [
        # A linear probe's weights saved for a plot after training: a layer's weight requires grad.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        def fit_probe(features, labels, epochs=20):
            probe = nn.Linear(features.shape[1], 10)
            opt = torch.optim.Adam(probe.parameters())
            for _ in range(epochs):
                opt.zero_grad()
                nn.functional.cross_entropy(probe(features), labels).backward()
                opt.step()
            np.save("probe_weights.npy", probe.weight.numpy())
        """,
        # A learned temperature logged mid-training: computed from the parameter with autograd on.
        """
        import torch
        import torch.nn as nn
        class Calibrator(nn.Module):
            def __init__(self):
                super().__init__()
                self.log_t = nn.Parameter(torch.zeros(1))
            def forward(self, logits):
                return logits / self.log_t.exp()
        def calibrate(logits, labels, epochs, history):
            calib = Calibrator()
            opt = torch.optim.SGD(calib.parameters(), lr=0.01)
            for epoch in range(epochs):
                opt.zero_grad()
                loss = nn.functional.cross_entropy(calib(logits), labels)
                loss.backward()
                opt.step()
                history.append((1.0 / calib.log_t.exp()).numpy())
        """,
        # numpy converts each tensor of a list with `.numpy()`: the GAN's losses kept as tensors, the encoder's
        # outputs of a comprehension.
        Invalid("""
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        D = nn.Sequential(nn.Linear(784, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))
        G = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 784), nn.Tanh())
        opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
        for epoch in range(20):
            d_losses = []
            for real, _ in loader:
                fake = G(torch.randn(real.size(0), 64))
                targets = torch.cat([torch.ones(real.size(0), 1), torch.zeros(real.size(0), 1)])
                d_loss = F.binary_cross_entropy_with_logits(D(torch.cat([real, fake.detach()])), targets)
                opt_d.zero_grad()
                d_loss.backward()
                opt_d.step()
                d_losses.append(d_loss)
            print(epoch, np.mean(d_losses))
        encoder = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        codes = np.concatenate([encoder(batch) for batch in batches])
        """, count=2),
        # A method of the model, not `forward`, returning its output: the graph comes with it.
        """
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.mu = nn.Linear(784, 16)
                self.logvar = nn.Linear(784, 16)
            def forward(self, x):
                return self.mu(x), self.logvar(x)
            def embed(self, x):
                mu, _ = self(x)
                return mu
        encoder = Encoder()
        points = encoder.embed(images.view(-1, 784)).numpy()
        """,
        # The same filter bank with a learned gain: its forward reads a parameter besides the buffer.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class GainedFilterBank(nn.Module):
            def __init__(self, taps):
                super().__init__()
                self.register_buffer("kernel", torch.from_numpy(np.hanning(taps)).float().view(1, 1, -1))
                self.gain = nn.Parameter(torch.ones(1))

            def forward(self, wave):
                return self.gain * F.conv1d(wave.view(1, 1, -1), self.kernel, padding=self.kernel.shape[-1] // 2)

        bank = GainedFilterBank(31)
        signal = torch.FloatTensor(np.random.randn(16000))
        smoothed = bank(signal).numpy()
        """,
        # The same metric in `training_step`, where autograd records.
        _LANDMARK_TRAINER % """
                self.log("nme", compute_nme(landmarks.cpu().numpy(), landmark_gt.cpu().numpy()))
                return torch.mean(torch.sum((landmark_gt - landmarks) ** 2, axis=1))
        """,
        # A model a same-file factory builds.
        """
        import torch
        import torch.nn as nn
        class Regressor(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 1)
            def forward(self, x):
                return self.fc(x)
        def build_model(cfg):
            return Regressor()
        model = build_model({})
        y_hat = model(torch.randn(5, 3))
        print(y_hat.squeeze().numpy())
        """,
        # A helper under no_grad, handed a model moved to the GPU.
        """
        import torch
        import torch.nn as nn
        def predict_numpy(model, x):
            with torch.no_grad():
                return model(x).numpy()
        net = nn.Linear(3, 2).to(torch.device("cuda"))
        print(predict_numpy(net, torch.randn(4, 3).cuda()))
        """,
        # `.detach()` leaves the graph, not the GPU; a trainer's model moved in its constructor.
        Invalid("""
        import torch
        import torch.nn as nn
        model = nn.Linear(4, 1).cuda()
        preds = model(torch.randn(10, 4).cuda()).detach().numpy()
        class Evaluator:
            def __init__(self, model):
                self.device = torch.device("cuda")
                self.model = model.to(self.device)
            @torch.no_grad()
            def predict(self, x):
                return self.model(x.to(self.device)).argmax(1).numpy()
        Evaluator(nn.Linear(5, 2)).predict(torch.randn(4, 5))
        """, count=2),
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, x):
                return self.fc2(self.fc1(x))
        model = Net().to(device)
        output = model(images)
        preds = output.squeeze(1).numpy()
        """,
        """
        import torch
        import torch.nn as nn
        criterion = nn.MSELoss()
        def train_step(model: nn.Module, x, y):
            loss = criterion(model(x), y)
            loss.backward()
            return loss.numpy()
        """,
        """
        import torch
        with torch.no_grad():
            arr = x.to("cuda").numpy()
        """,
        """
        import torch
        import torchvision
        resnet = torchvision.models.resnet18(weights=None)
        logits = resnet(batch)
        top = logits[0].numpy()
        """,
        # On the GPU `no_grad` does not help: the output is still a CUDA tensor.
        """
        import torch
        import torch.nn as nn
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        regressor = nn.Sequential(nn.Linear(1, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
        with torch.no_grad():
            y_hat = regressor(x_test.to(device))
        errors = y_hat.numpy() - y_test.numpy()
        """,
        # A report helper handed the model being trained, with autograd on.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        def r_squared(model, x, y):
            pred = model(x).squeeze(1)
            return 1 - np.var(pred.numpy() - y.numpy()) / np.var(y.numpy())
        net = nn.Linear(5, 1)
        print(r_squared(net, x, y))
        """,
        # A prediction helper that `main()` hands the model; softmax keeps the output in the graph.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        def predict(model, loader):
            model.eval()
            probs = []
            for x, _ in loader:
                logits = model(x)
                probs.append(logits.softmax(dim=1).numpy())
            return np.concatenate(probs)
        def main():
            model = nn.Sequential(nn.Linear(5, 3))
            print(predict(model, loader).shape)
        """,
        # Scores for a metric, with the activation spelled as a torch function.
        """
        import torch
        import torch.nn as nn
        from sklearn.metrics import roc_auc_score
        model = nn.Linear(30, 1)
        def train_epoch(loader, opt):
            scores, labels = [], []
            for x, y in loader:
                logits = model(x).squeeze(-1)
                loss = nn.functional.binary_cross_entropy_with_logits(logits, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                scores.extend(torch.sigmoid(logits).numpy())
                labels.extend(y.numpy())
            return roc_auc_score(labels, scores)
        """,
        # Training-set metrics from the output brought to the CPU, still in the graph.
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3)).cuda()
        for x, y in loader:
            out = model(x.cuda())
            loss = nn.functional.cross_entropy(out, y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            probs = out.softmax(1).cpu().numpy()
        """,
        # A plotting helper that converts what the training loop hands it.
        """
        import matplotlib.pyplot as plt
        import torch.nn as nn
        def plot_reconstruction(original, reconstructed, path):
            fig, axes = plt.subplots(1, 2)
            axes[0].imshow(original.cpu().numpy().squeeze())
            axes[1].imshow(reconstructed.cpu().numpy().squeeze())
            fig.savefig(path)
        def main():
            autoencoder = nn.Sequential(nn.Flatten(), nn.Linear(784, 32), nn.ReLU(), nn.Linear(32, 784))
            for epoch in range(10):
                for images, _ in loader:
                    recon = autoencoder(images).view_as(images)
                    loss = nn.functional.mse_loss(recon, images)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                plot_reconstruction(images[0], recon[0], f"epoch_{epoch}.png")
        """,
        # A helper under `no_grad` does not detach what it is handed: the loss still requires grad.
        """
        import torch
        import torch.nn as nn
        @torch.no_grad()
        def to_numpy(t):
            return t.cpu().numpy()
        def main():
            critic = nn.Linear(8, 1)
            for states, returns in loader:
                value_loss = nn.functional.smooth_l1_loss(critic(states).squeeze(1), returns)
                value_loss.backward()
                history.append(to_numpy(value_loss))
        """,
        # A meter the agent holds, fed its policy's live probabilities.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        class EntropyMeter:
            def __init__(self):
                self.entropies = []
            def update(self, probs):
                p = probs.cpu().numpy()
                self.entropies.append(-(p * np.log(p + 1e-8)).sum(-1).mean())
        class Agent:
            def __init__(self, n_obs, n_actions):
                self.policy = nn.Sequential(nn.Linear(n_obs, 64), nn.Tanh(), nn.Linear(64, n_actions))
                self.entropy = EntropyMeter()
            def act(self, obs):
                probs = torch.softmax(self.policy(obs), dim=-1)
                self.entropy.update(probs)
                return torch.multinomial(probs, 1)
        """,
        # Per-batch outputs joined with torch keep each batch's graph: a dataset scorer's `score` loop, and a
        # comprehension's join.
        Invalid("""
        import torch
        import torch.nn as nn

        class Scorer:
            def __init__(self, net, batch_size=256):
                self.net = net
                self.batch_size = batch_size

            def score(self, features):
                self.net.eval()
                scores = []
                for start in range(0, len(features), self.batch_size):
                    out = self.net(features[start:start + self.batch_size])
                    scores.append(torch.sigmoid(out).squeeze(-1))
                return torch.cat(scores).cpu().numpy()

        head = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
        ranked = Scorer(head).score(torch.randn(1000, 32)).argsort()
        codes = torch.vstack([head(chunk) for chunk in torch.randn(4, 8, 32)]).numpy()
        """, count=2),
        # A generated sequence grown by the model one step at a time, printed as it grows: the join holds the
        # model's outputs whatever the caller starts it from.
        Invalid("""
        import torch
        import torch.nn as nn

        decoder = nn.GRUCell(16, 16)

        def generate(seed, length):
            tokens = seed
            for _ in range(length):
                tokens = torch.cat([tokens, decoder(tokens[-1:])], dim=0)
                print(tokens.cpu().numpy())
        """),
        # Probabilities a same-file helper derives from the model it is handed, saved outside `no_grad`.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(16, 3)
            def forward(self, x):
                return self.fc(x)
        def predict_proba(model, x):
            logits = model(x)
            return torch.softmax(logits, dim=1)
        def main():
            probs = predict_proba(Classifier(), torch.randn(8, 16))
            np.save("probs.npy", probs.numpy())
        """,
        # A detection head's heatmaps, computed in a step helper every call hands the head, handed to a plotting
        # helper mid-training.
        """
        import matplotlib.pyplot as plt
        import torch
        import torch.nn as nn
        def show_heatmaps(heatmaps, path):
            plt.imshow(heatmaps[0].cpu().numpy().max(0))
            plt.savefig(path)
        def train_step(head, feats, targets, optimizer, step):
            heatmaps = torch.sigmoid(head(feats))
            loss = nn.functional.binary_cross_entropy(heatmaps, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 100 == 0:
                show_heatmaps(heatmaps, f"hm_{step}.png")
        def main():
            head = nn.Conv2d(64, 4, 1)
            opt = torch.optim.Adam(head.parameters())
            for step in range(1000):
                train_step(head, torch.randn(2, 64, 32, 32), torch.rand(2, 4, 32, 32), opt, step)
        """,
        # A learner's predictions after training: its method returns its module's output with autograd on.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        class Learner:
            def __init__(self, model, lr=1e-3):
                self.model = model
                self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
            def step(self, x, y):
                self.optimizer.zero_grad()
                loss = nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                self.optimizer.step()
            def predict(self, x):
                return self.model(x)
        def main(x, y):
            learner = Learner(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
            for _ in range(10):
                learner.step(x, y)
            np.savetxt("preds.txt", learner.predict(x).numpy())
        """,
        # The detector's locations beside its anchors are its output: converted with autograd on, they raise.
        Invalid(_DETECTOR % {"name": "locs"}, count=2),
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # (the `.numpy()` or numpy call, origin, the call the tensor comes from, the function, the message if not
        # the origin's)
        self.pending: list[tuple[cst.Call, Origin, cst.Call, cst.FunctionDef | None, str | None]] = []
        self.frozen: set[str] = set()  # models whose parameters are frozen, as spelled: their outputs need no grad
        # `self.model(x)` calls -> the class, `__init__` and parameter stored in the attribute
        self.stored: dict[cst.Call, tuple[cst.ClassDef, cst.FunctionDef, str]] = {}
        self.grad_off = False  # a statement-level `torch.set_grad_enabled(False)`, as inference scripts start
        self._method_depth = 0  # model methods followed into (`score` calling `self.logits(x)`), against recursion
        self._handed_depth = 0  # helpers' callers followed out (`to_numpy(heatmaps)` in `save_heatmaps(heatmaps)`)
        # a helper's parameter read with another one (`X @ w`, both handed in) -> that other parameter's read
        self._other_arguments: dict[int, cst.BaseExpression] = {}
        self._joining: set[cst.BaseExpression] = set()  # the joins' lists being followed, against recursion
        self._no_grad_reads: set[int] = set()  # attributes read with autograd off (`fitted = x @ model.coeffs`)
        # a comprehension's target as its element reads it, by node: what the comprehension iterates
        self._comprehended: dict[int, cst.BaseExpression] = {}
        # the last trainer attribute's call followed, and the position of its tuple unpacked (`rois, anchor =
        # self.model(x)`): `.numpy()` calls by node -> that position, judged with the constructions in `finish`
        self._unpacked_stored: tuple[cst.Call, int | None] | None = None
        self._stored_index: dict[int, int] = {}
        # a helper's call that hands it a parameter of the function making the call as its model (`probs =
        # run_model(model, batch)` in `validate(model, batches)`): by node, that parameter's name, for the callers
        # of the function to say what the model is
        self._handed_parameter: dict[int, str] = {}

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.ctx.grad_disabled:
            self._no_grad_reads.add(id(node))

    def visit_Name(self, node: cst.Name) -> None:  # `fitted = X @ weights` of a local `nn.Parameter`
        if self.ctx.grad_disabled:
            self._no_grad_reads.add(id(node))

    def visit_Expr(self, node: cst.Expr) -> None:
        if (frozen := frozen_module(self.ctx, node)) is not None:
            self.frozen.add(frozen)
            return
        call = node.value
        if type(call) is cst.Call and len(call.args) == 1 and is_false(call.args[0].value) \
                and self.ctx.qualname(call.func) in SET_GRAD_ENABLED:
            self.grad_off = True

    def visit_Assign(self, node: cst.Assign) -> None:
        if (frozen := frozen_module(self.ctx, node)) is not None:
            self.frozen.add(frozen)

    def leave_Call(self, node: cst.Call) -> None:  # leave: the calls inside the chain are recorded by now
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value != "numpy" or node.args:
            self._note_converted_list(node)
            return
        self._unpacked_stored = None
        found = self._origin(func.value)
        if found is None:
            return
        origin, call = found
        if self._unpacked_stored is not None and self._unpacked_stored[0] is call \
                and self._unpacked_stored[1] is not None:
            self._stored_index[id(node)] = self._unpacked_stored[1]
        if origin == "argument":  # `no_grad` here or not: the graph comes with what the callers pass
            self.pending.append((node, origin, call, self.ctx.function, None))
        elif origin == "weights":
            if not self._grad_disabled_at(call) and not self._lightning_hook():
                self.pending.append((node, origin, call, self.ctx.function, _weights_message(self.ctx, call)))
        elif origin == "cuda":
            self.report(node, "`.numpy()` on a CUDA tensor raises: use `.cpu().numpy()`")
        elif origin == "device":
            self.report(node, f"`.numpy()` on the output of `{self.ctx.code(call.func)}`, a model moved to a device: "
                              "on a GPU it raises, `no_grad` or not; use `.cpu().numpy()` (`.detach().cpu()` with "
                              "autograd on)")
        elif origin == "stored-device" or origin == "parameter-device" \
                or not self.ctx.grad_disabled and not self._grad_disabled_at(call) and not self._lightning_hook():
            self.pending.append((node, origin, call, self.ctx.function, None))  # no_grad or not: a moved model's output
        elif origin == "parameter":
            self.pending.append((node, "parameter-device", call, self.ctx.function, None))

    def _note_converted_list(self, node: cst.Call) -> None:
        """`np.mean(losses)` after `losses.append(loss)`, `np.sum([layer(h) for layer in self.layers], 0)`: numpy
        converts each tensor of the list with `.numpy()`, which raises on one that requires grad; the first such
        tensor the list holds is noted as `.numpy()` on it would be, with the message of the conversion."""
        if last_name(node.func) not in _CONVERTING_NAMES or not node.args or node.args[0].keyword is not None \
                or node.args[0].star or self.ctx.qualname(node.func) not in _CONVERTING:
            return
        listed = node.args[0].value
        hook = self._lightning_hook()
        for element, before, point in self._listed(listed):
            with self.ctx.at(point) if point is not None else nullcontext():
                found = self._origin(element, before=before)
                if found is None or found[0] == "cuda" or point is not None and found[0] == "argument":
                    continue  # a parameter of the function returning the list: not this one's
                origin, call = _GRAPH_OF.get(found[0], found[0]), found[1]
                if origin != "argument" and (self._grad_disabled_at(call) or hook) \
                        or origin == "loss" and not self._loss_of_outputs(call, before):
                    continue
            spelled = self.ctx.code(listed) if type(listed) is cst.Name else "the list"
            self.pending.append((node, origin, call, self.ctx.function,
                                 f"`{self.ctx.code(node.func)}` converts each tensor of {spelled} with `.numpy()`, "
                                 f"and `{self.ctx.code(element)}` requires grad: it raises; append `.item()` or "
                                 "`.detach()`, or join the tensors with torch"))
            return

    def _loss_of_outputs(self, loss: cst.Call, before: int | None) -> bool:
        """The loss's input is a model's output, or a tensor a caller hands in: a loss of plain tensors (a ridge
        regression's validation error on features) has no graph to keep."""
        args = positional(loss)
        found = self._origin(args[0].value, before=before) if args else None
        return found is not None and found[0] != "cuda"

    def _listed(self, expr: cst.BaseExpression) -> list[tuple[cst.BaseExpression, int | None, Point | None]]:
        """What a list holds here, each with the bindings to read its names at (None: the latest) and the point in
        another function to read them in (None: here): the elements of the literal or the comprehension it is, or
        is bound to in this function, and what `.append(...)` added to it since that binding, before this point;
        or the list a method of this class or a function of this file returns (`_returned_list`)."""
        if type(expr) is cst.List or type(expr) is cst.Tuple:
            return [(element.value, None, None) for element in expr.elements if type(element) is cst.Element]
        if type(expr) is cst.ListComp:
            comprehension = expr.for_in
            if comprehension.inner_for_in is None:
                # `[s.mean() for s in self.scores(batches)]`: the target, read in the element, is a tensor of the
                # iterable (the comprehension's scope is closed where the list is read); `[n * loss for n, loss in
                # zip(counts, losses)]`: each name of the target a tensor of the list zipped at its place
                for name, iterated in _comprehension_sources(self.ctx, comprehension):
                    for node in self.ctx.walk(expr.elt):
                        if type(node) is cst.Name and node.value == name:
                            self._comprehended[id(node)] = iterated
            return [(expr.elt, None, None)]
        if type(expr) is cst.Call:
            return self._returned_list(expr)
        if type(expr) is not cst.Name:
            return []
        binding = self.ctx.binding(expr)
        bound = binding.value if binding is not None and binding.kind == "assign" else None
        if binding is not None and binding.kind == "unpack" and binding.index is not None and not binding.starred:
            if type(binding.value) is cst.Tuple:  # `names, losses = [], []`
                elements = binding.value.elements
                bound = elements[binding.index].value if binding.index < len(elements) else None
            elif type(binding.value) is cst.Call:  # `counts, losses = self.test()` of `return counts, losses`
                return self._returned_list(binding.value, binding.index)
        if type(bound) is cst.Call:  # `probs = self.predict(x)` of `return probs`
            return self._returned_list(bound)
        if binding is None or type(bound) not in (cst.List, cst.ListComp):
            return []
        found = [(value, binding.seq, None) for value, _, _ in self._listed(bound)]  # type: ignore[arg-type]
        for site in self.ctx.calls_to("append"):
            func, args = site.node.func, site.node.args
            if site.function is self.ctx.function and site.seq > binding.seq and type(func) is cst.Attribute \
                    and type(func.value) is cst.Name and func.value.value == expr.value \
                    and len(args) == 1 and args[0].keyword is None and not args[0].star:
                found.append((args[0].value, site.seq + 1, None))
        return found

    def _returned_list(self, call: cst.Call, index: int | None = None
                       ) -> list[tuple[cst.BaseExpression, int | None, Point | None]]:
        """`self.scores(batches)`, `collect(model, batches)`: the list a method of this class (called on `self`) or a
        function of this file defined before returns by the one name it builds (`out = []`, `out.append(...)`,
        `return out`), each element with the point at that function's end to read it at; with `index`, the list
        at that place of the tuple it returns (`return counts, losses`)."""
        func = call.func
        definition = None
        if is_self_attribute(func) and self.ctx.class_def is not None:
            definition = next((statement for statement in self.ctx.class_def.body.body
                               if type(statement) is cst.FunctionDef
                               and statement.name.value == func.attr.value), None)  # type: ignore[attr-defined]
        elif type(func) is cst.Name:
            binding = self.ctx.binding(func)
            definition = binding.statement if binding is not None and binding.kind == "def" else None
        point = self.ctx.point_after(definition) if type(definition) is cst.FunctionDef else None
        if point is None or self._method_depth > 2:
            return []
        returns = [node.value for node in self.ctx.walk(definition.body) if type(node) is cst.Return]  # type: ignore
        if len(returns) == 1 and index is not None and type(returns[0]) is cst.Tuple:
            elements = returns[0].elements
            returns = [elements[index].value] \
                if index < len(elements) and type(elements[index]) is cst.Element else []
        elif index is not None:
            return []
        if len(returns) != 1 or type(returns[0]) is not cst.Name:
            return []
        self._method_depth += 1
        try:
            with self.ctx.at(point):
                return [(element, before, inner or point)
                        for element, before, inner in self._listed(returns[0])]  # type: ignore[arg-type]
        finally:
            self._method_depth -= 1

    def finish(self) -> None:
        if self.grad_off:
            return
        self._report_imported()
        for node, origin, call, function, message in self.pending:
            if origin == "argument":
                parameter = call.value  # type: ignore[attr-defined]  # an argument's origin is the parameter's name
                callers = calls_passing(self.ctx, function, parameter, self._graph_passed) \
                    if function is not None else []
                if callers:
                    call_site = callers[0].ctx.code(callers[0].site.node)
                    self.report(node, message or f"`.numpy()` on `{parameter}`, which `{call_site}` hands a tensor "
                                      "that requires grad: it raises; use `.detach().cpu().numpy()`, or detach it "
                                      "before the call")
                continue
            if self._frozen(origin, call):
                continue
            if origin == "stored" or origin == "stored-device":
                index = self._stored_index.get(id(node))
                if index is not None and every_construction_passes(self.ctx, *self.stored[call], lambda reader, passed:
                                                                   self._element_of_data(project_class(reader, passed),
                                                                                         index)):
                    continue  # `anchor` of `rois, anchor = self.model(x)`: made of data by every model handed in
                if self._handed_models_at_construction(call):
                    self.report(node, f"`.numpy()` on the output of `{self.ctx.code(call.func)}`, a model moved to a "
                                      "device: on a GPU it raises, `no_grad` or not; use `.cpu().numpy()` "
                                      "(`.detach().cpu()` with autograd on)" if origin == "stored-device" else message)
                continue
            if origin == "parameter-device":
                if function is not None and self._handed_models(call, function, moved=True):
                    self.report(node, f"`.numpy()` on the output of `{self.ctx.code(call.func)}`, a model every call "
                                      "hands in moved to a device: on a GPU it raises, `no_grad` or not; use "
                                      "`.cpu().numpy()`")
                continue
            if function is not None:
                sites = self.ctx.calls_of(function)
                if sites and all(site.grad_disabled for site in sites):
                    continue  # a helper only ever called under no_grad
                if origin == "parameter" and not self._handed_models(call, function):
                    continue
            self.report(node, message or (LOSS_MESSAGE if origin == "loss" else None))

    def _report_imported(self) -> None:
        """A function or a meter's method of a project module that no torch rule lints (a metrics module of numpy
        code, importing no torch) calls `.numpy()` on a parameter: reported at this file's calls that hand it a
        tensor that requires grad (`self.train_auc.update(probs, y)`), since that module's lint cannot see them."""
        for name, definition, other in imported_functions(self.ctx):
            if other is self.ctx or _linted_as_torch(other):
                continue
            for parameter in self._numpy_parameters(definition, other):
                for site, point in imported_calls(self.ctx, name, definition, other):
                    passed = passed_argument(definition, site.node, parameter)
                    with self.ctx.at(point):
                        graph = passed is not None and self._graph_passed(self.ctx, passed)
                    if graph:
                        module = Path(other.filename).name
                        self.report(site.node, f"`{name}` ({module}) calls `.numpy()` on `{parameter}`, and this "
                                               "call hands it a tensor that requires grad: it raises; pass "
                                               f"`{self.ctx.code(passed)}.detach()`")  # type: ignore[arg-type]

    def _numpy_parameters(self, definition: cst.FunctionDef, other: Context, depth: int = 0) -> list[str]:
        """The parameters of `definition` (of the module of `other`) that it calls `.numpy()` on, undetached, itself
        or through a plain function of its module it hands them to (`hm = to_numpy(heatmaps.sigmoid())`)."""
        point = other.point_after(definition)
        if point is None:
            return []
        found = []
        with other.at(point):
            for node in other.walk(definition.body):
                if type(node) is not cst.Call:
                    continue
                if type(node.func) is cst.Attribute and node.func.attr.value == "numpy" and not node.args:
                    origin = self._origin(node.func.value, other)
                    if origin is not None and origin[0] == "argument" and origin[1].value not in found:  # type: ignore
                        found.append(origin[1].value)  # type: ignore[attr-defined]  # the parameter's Name
                elif type(node.func) is cst.Name and depth < 2:
                    helpers = other.functions.get(node.func.value, [])
                    if len(helpers) != 1 or helpers[0] is definition or other.class_of_method(helpers[0]) is not None:
                        continue
                    for parameter in self._numpy_parameters(helpers[0], other, depth + 1):
                        passed = passed_argument(helpers[0], node, parameter)
                        origin = self._origin(passed, other) if passed is not None else None
                        argument = origin is not None and origin[0] == "argument"
                        name = origin[1].value if argument else None  # type: ignore[index,union-attr]
                        if name is not None and name not in found:
                            found.append(name)
        return found

    def _origin(self, expr: cst.BaseExpression, ctx: Context | None = None, before: int | None = None,
                arguments: bool = False) -> tuple[Origin, cst.Call] | None:
        """Where the tensor `.numpy()` is called on comes from, following names, unpacking, indexing and
        graph-preserving methods back to a `.cuda()` / `.to("cuda")`, a model call or a loss, or to a parameter of
        the function (an "argument": what its callers pass). Past `.cpu()` only the graph counts: `out.cpu().numpy()`
        raises when `out` requires grad. `ctx`: the context to read it in (a caller's), this file's by default;
        `before`: the bindings its names resolve to (those made before a call that took it), the latest by default;
        `arguments`: arithmetic of a parameter (`x * 0.5 + 0.5`) is the parameter's, as a helper's return is read."""
        ctx = ctx or self.ctx
        detached = False  # only a device origin counts past `.detach()`, `.data`, `.argmax()`
        on_cpu = False
        index: int | None = None  # the position a name was unpacked from (`logits, probs = model.score(x)`)
        for _ in range(16):
            kind = type(expr)
            unpacked, index = index, None
            if kind is cst.Attribute and module_parameter(ctx, expr, before):  # type: ignore[arg-type]
                return None if detached else ("weights", expr)  # type: ignore[return-value]
            if kind is cst.Name or kind is cst.Attribute:
                value, seq = ctx.value_of(expr, before)
                if (kind is cst.Name or is_self_attribute(expr)) and type(value) is cst.Call \
                        and _leaf_requiring_grad(ctx, value):
                    # `weights = nn.Parameter(torch.zeros(4))`, `w = torch.randn(3, requires_grad=True)`: the read
                    return None if detached else ("weights", expr)  # type: ignore[return-value]
                if value is not expr:
                    expr, before = value, seq
                elif kind is cst.Name:
                    binding = ctx.binding(expr, before)
                    if binding is not None and binding.kind == "param" and binding.statement is ctx.function \
                            and expr.value != "self":
                        return None if detached else ("argument", expr)  # type: ignore[return-value]
                    if binding is not None and binding.kind == "aug" \
                            and type(binding.statement.operator) is cst.AddAssign:  # type: ignore[attr-defined]
                        # `loss += criterion(output, y)` over a test loader: the sum keeps each term's graph
                        expr, before = binding.statement.value, binding.seq  # type: ignore[attr-defined]
                        continue
                    iterated = self._comprehended.get(id(expr))
                    if binding is not None and binding.kind in ("for", "comp") and binding.index is None \
                            and binding.value is not None:
                        iterated, before = binding.value, binding.seq
                    elif binding is not None and binding.kind in ("for", "comp") and binding.value is not None \
                            and (taken := _taken_apart(ctx, binding.value, binding.index)) is not None:
                        iterated, before = taken, binding.seq  # `for i, hm in enumerate(heatmaps):`
                    if iterated is not None and (ctx is self.ctx or binding is not None
                                                 and binding.value is not None):
                        # `for s in scores:`, `[s.mean() for s in self.scores(batches)]`: a tensor of the list; or a
                        # row of a tensor (`for i, hm in enumerate(heatmaps):` of `heatmaps, sizes = model(x)`), in a
                        # caller's file too
                        joined = self._joined_origin(iterated, before) if ctx is self.ctx else None
                        if joined is None:
                            joined = self._origin(iterated, ctx, before)
                        return self._past(joined, detached, on_cpu, ctx)
                    if binding is None or binding.kind != "unpack" or binding.value is None:
                        return None
                    expr, before = binding.value, binding.seq
                    index = None if binding.starred else binding.index
                elif expr.attr.value == "data" and ctx.qualname(expr) is None:
                    expr, detached = expr.value, True
                elif expr.attr.value in LEAVES_GRAPH or ctx.qualname(expr) is not None:
                    return None
                else:
                    # `outputs.logits`: a field of a model's output; `probs.max(-1).values`: the maximum's values
                    expr = _reduction_picked(ctx, expr) or expr.value  # type: ignore[arg-type]
            elif kind is cst.Subscript:
                picked = _reduction_picked(ctx, expr)  # type: ignore[arg-type]
                if picked is False:
                    return None  # the indices of `scores.max(1)[1]`: integers, out of the graph
                expr = picked if picked is not None else expr.value  # type: ignore[assignment]
            elif kind is cst.BinaryOperation and type(expr.operator) in _DIFFERENTIABLE_OPERATORS:
                # `powers @ model.coeffs`, `model(x) * scale`: an operand's origin in this function (a parameter's,
                # what the callers hand in, is left to a `.numpy()` of the parameter itself, but for `arguments`)
                sides = [found for found in (self._origin(side, ctx, before, arguments)
                                             for side in (expr.left, expr.right)) if found is not None]
                found = next((found for found in sides if found[0] != "argument"),
                             sides[0] if sides and arguments else None)
                if arguments and len(sides) > 1 and found is sides[0]:  # `X @ w`: both the helper's parameters
                    self._other_arguments[id(sides[0][1])] = sides[1][1]
                return self._graph_only(found, detached, ctx) if on_cpu else found if not detached or found is None \
                    or found[0] in ("cuda", "device", "stored-device") else None
            elif kind is cst.Call:
                func = expr.func
                if type(func) is cst.Attribute and func.attr.value in GRAPH_PRESERVING and ctx.qualname(func) is None:
                    expr = func.value
                elif type(func) is cst.Attribute and func.attr.value in LEAVES_GRAPH_NOT_DEVICE \
                        and ctx.qualname(func) is None:
                    expr, detached = func.value, True
                elif type(func) is cst.Attribute and func.attr.value == "cpu" and not expr.args \
                        and ctx.qualname(func) is None:
                    expr, on_cpu = func.value, True
                elif _graph_preserving_function(ctx, expr):
                    expr = expr.args[0].value  # `torch.sigmoid(logits)`, `F.softmax(out, dim=1)`
                else:
                    # `torch.cat(probs)` after `probs.append(model(x).softmax(1))`: the join keeps each part's graph
                    joined = ctx is self.ctx and ctx.qualname(func) in _JOINING and bool(expr.args) \
                        and expr.args[0].keyword is None
                    found = self._joined_origin(expr.args[0].value, before) if joined \
                        else self._call_origin(expr, before, ctx, unpacked)
                    return self._past(found, detached, on_cpu, ctx)
            else:
                return None
        return None

    def _past(self, found: tuple[Origin, cst.Call] | None, detached: bool, on_cpu: bool, ctx: Context
              ) -> tuple[Origin, cst.Call] | None:
        """The origin `found` of a tensor seen past a `.detach()` (or `.data`, `.argmax()`) and a `.cpu()` on the
        way to the `.numpy()`."""
        if on_cpu:
            return self._graph_only(found, detached, ctx)
        if detached and found is not None and found[0] == "parameter":
            return "parameter-device", found[1]
        if detached and found is not None and found[0] not in ("cuda", "device", "stored-device"):
            return None
        return found

    def _joined_origin(self, listed: cst.BaseExpression, before: int | None) -> tuple[Origin, cst.Call] | None:
        """The origin of the first tensor of the list a torch join is handed that has one (whether autograd was on
        where it was computed is the caller's to ask, as for a single tensor), a parameter's only where no other
        tensor has one: `torch.cat([states, policy(s)])` holds the policy's graph whatever the callers pass as
        `states`. `before`: the bindings the join's own names resolve to. A join that grows its own result in a
        loop (`obs = torch.cat([obs, new])`) reaches itself again through that name: the repeated join adds
        nothing, so it is left out."""
        if listed in self._joining:
            return None
        self._joining.add(listed)
        try:
            found = []
            for element, at, point in self._listed(listed):
                with self.ctx.at(point) if point is not None else nullcontext():
                    origin = self._origin(element, before=before if at is None else at)
                if origin is not None and (point is None or origin[0] != "argument"):
                    found.append(origin)
        finally:
            self._joining.discard(listed)
        return next((origin for origin in found if origin[0] != "argument"), found[0] if found else None)

    def _graph_only(self, found: tuple[Origin, cst.Call] | None, detached: bool, ctx: Context
                    ) -> tuple[Origin, cst.Call] | None:
        """The origin of a tensor brought to the CPU: its graph, when autograd was on where it was computed."""
        if found is None or detached:
            return None
        if found[0] == "argument":  # a join of the parameters: the graph comes with what the callers pass
            return found
        if ctx.grad_disabled or self._grad_disabled_at(found[1], ctx):
            return None
        graph = _GRAPH_OF.get(found[0], found[0])
        return None if graph == "cuda" else (graph, found[1])

    def _call_origin(self, call: cst.Call, before: int | None, ctx: Context, index: int | None = None
                     ) -> tuple[Origin, cst.Call] | None:
        """The origin of what `call` returns; `index`: the position of the tuple it returns that was unpacked."""
        func = call.func
        if type(func) is cst.Attribute and ctx.qualname(func) is None:
            if func.attr.value == "cuda" or func.attr.value == "to" and _to_cuda(ctx, call):
                return None if is_foreign_value(ctx, func.value) else ("cuda", call)
        if self._is_loss(call, before, ctx):
            return None if self._predictions_without_graph(call, before, ctx) else ("loss", call)
        if self._is_model(func, before, ctx):
            if index is not None and self._element_of_data(project_class(ctx, func, before), index):
                return None
            return ("device", call) if self._moved(func, before, ctx) else ("model", call)
        stored = stored_parameter(ctx, func) if type(func) is cst.Attribute else None
        if stored is not None:
            self._unpacked_stored = (call, index)
            self.stored[call] = stored
            return ("stored-device", call) if self._moved(func, before, ctx) else ("stored", call)
        if type(func) is cst.Name and ctx.function is not None:
            binding = ctx.binding(func, before)
            if binding is not None and binding.kind == "param" and binding.statement is ctx.function:
                return "parameter", call  # a helper's `model(x)`: its callers say what the model is
        if type(func) is cst.Attribute and ctx.qualname(func) is None:
            return self._method_origin(call, func, before, ctx, index)
        if type(func) is cst.Name or type(func) is cst.Attribute:  # `postprocess.confidences(logits)` of a module
            return self._helper_origin(call, func, before, ctx, index)
        return None

    def _helper_origin(self, call: cst.Call, func: cst.Name | cst.Attribute, before: int | None, ctx: Context,
                       index: int | None) -> tuple[Origin, cst.Call] | None:
        """`probs = predict_proba(model, x)`: a function of the file defined before the call, or of a project
        module it imports (`from utils import predict_proba`), whose every `return` (at `index` of the tuple it
        returns) is a model's output or a loss computed with autograd on, as read at the function's end: its own
        model's, or the one this call hands its model parameter (`logits = model(x)`, `return
        torch.softmax(logits, dim=1)`). What it returns carries that graph. Also a function of an imported project
        module called through it (`postprocess.confidences(logits)`)."""
        binding = ctx.binding(func, before) if type(func) is cst.Name else None
        if type(func) is cst.Attribute and self._method_depth <= 2:
            imported = evaluator(ctx).value(func, before)
            if not isinstance(imported, FunctionValue) or imported.closure is not None or imported.bound is not None:
                return None
            definition, where = imported.node, imported.ctx
        elif binding is None or self._method_depth > 2:
            return None
        elif binding.kind == "def" and type(binding.statement) is cst.FunctionDef:
            definition, where = binding.statement, ctx
        elif binding.kind == "import":
            imported = evaluator(ctx).value(func, before)
            if not isinstance(imported, FunctionValue) or imported.closure is not None or imported.bound is not None:
                return None
            definition, where = imported.node, imported.ctx
        else:
            return None
        point = where.point_after(definition)
        returns = [node.value for node in where.walk(definition.body) if type(node) is cst.Return]
        if point is None or not returns or any(type(node) in (cst.FunctionDef, cst.Lambda, cst.Yield)
                                               for node in where.walk(definition.body)):
            return None
        moved = False
        handed: tuple[Origin, cst.Call] | None = None  # the origin of a tensor this call hands the helper
        through: str | None = None  # a parameter of the calling function handed on as the helper's model
        self._method_depth += 1
        try:
            for value in returns:
                if type(value) is cst.Tuple:
                    if index is None or index >= len(value.elements) or type(value.elements[index]) is not cst.Element:
                        return None
                    value = value.elements[index].value
                elif value is None or index is not None:
                    return None
                with where.at(point):
                    found = self._origin(value, where, arguments=True)
                    derived = found is not None and found[0] == "argument" \
                        and not _under_grad_mode(where, definition, value)
                if derived:
                    # `def denorm(x): return (x * 0.5 + 0.5).clamp(0, 1)`: what it returns keeps the graph of the
                    # tensor this call hands it
                    handed = self._handed_origin(definition, call, found[1], ctx, before)  # type: ignore[index]
                    # a parameter of a helper being read handed on to this one (`probs = probabilities(logits)` in
                    # `def confidences(logits)`): the outer helper's callers say what it is
                    if handed is None or handed[0] == "argument" and self._method_depth <= 1:
                        return None
                    continue
                with where.at(point):
                    if found is None or found[0] not in ("model", "device", "loss", "parameter", "weights") \
                            or where.grad_disabled or self._grad_disabled_at(found[1], where):
                        return None
                    if found[0] == "parameter":  # the model this call hands the helper
                        passed = passed_argument(definition, call, self._handed_parameter.get(id(found[1]))
                                                 or where.code(found[1].func))
                        if passed is None:
                            return None
                    else:
                        passed = None
                if passed is not None:
                    parameter = self._own_parameter(passed, before, ctx)
                    if parameter is not None and through in (None, parameter):
                        through = parameter  # the callers of the calling function say what the model is
                        continue
                    if not self._is_model(passed, before, ctx):
                        return None
                    moved = moved or self._moved(passed, before, ctx)
                moved = moved or found[0] == "device"
        finally:
            self._method_depth -= 1
        if handed is not None and len(returns) == 1:
            return handed
        if handed is not None:
            return None  # one return hands back the argument's graph, another something else: not followed
        if through is not None:
            if moved:
                return None
            self._handed_parameter[id(call)] = through
            return "parameter", call
        return ("device", call) if moved else ("model", call)

    def _own_parameter(self, passed: cst.BaseExpression, before: int | None, ctx: Context) -> str | None:
        """The name of the parameter of the function being read that `passed` is, not rebound (`model` of
        `validate(model, batches)` handed on to `run_model(model, batch)`, or of a helper handing it on in turn),
        unless annotated; else None."""
        if type(passed) is not cst.Name or ctx.function is None:
            return None
        binding = ctx.binding(passed, before)
        if binding is None or binding.kind != "param" or binding.statement is not ctx.function \
                or param_annotation(ctx.function, passed.value) is not None:
            return None
        return passed.value

    def _handed_origin(self, definition: cst.FunctionDef, call: cst.Call, parameter: cst.Name, ctx: Context,
                       before: int | None) -> tuple[Origin, cst.Call] | None:
        """The origin of what `call` hands `definition`'s `parameter` (read in the caller's `ctx`), or of what it
        hands the other parameter the helper computes with (`w` of `return X @ w`) where the first has none."""
        found = []
        for name in (parameter, self._other_arguments.get(id(parameter))):
            if type(name) is not cst.Name:
                continue
            passed = passed_argument(definition, call, name.value)
            origin = self._origin(passed, ctx, before) if passed is not None else None
            if origin is not None:
                found.append(origin)
        return next((origin for origin in found if origin[0] != "argument"), found[0] if found else None)

    def _method_origin(self, call: cst.Call, func: cst.Attribute, before: int | None, ctx: Context,
                       index: int | None) -> tuple[Origin, cst.Call] | None:
        """`logits, probs = self.model.score(x)`: a method of a model class of the project whose every `return`
        (at `index` of the tuple it returns) is the model's own output or a loss, computed with autograd on, as
        read where the class is defined: what it returns carries the graph as `forward`'s output does."""
        owner = project_class(ctx, func.value, before)
        # `for user in self.users: user.test()`: the objects of one class the list holds
        elements = element_instances(ctx, func.value, before) if owner is None else None
        if elements is not None and len({id(element.cls.node) for element in elements}) == 1:
            owner = elements[0].cls
        if owner is None or self._method_depth > 2:
            return None
        # a learner or trainer (not a module): its `self.model(x)` is a model's output when the object it is
        # called on holds a module there (`learner = Learner(nn.Sequential(...))`, then `learner.predict(x)`)
        helds = [] if is_torch_module_class(owner.ctx, owner.node) \
            else elements or [evaluator(ctx).value(func.value, before)]
        # what the object holds is only asked of a model it runs: a post-processing method of it may still hand back
        # the graph of the tensor this call hands it
        unknown = any(not isinstance(held, Instance) or held.tainted or held.generic for held in helds)
        returns = forward_returns(owner.ctx).of_method(owner.node, func.attr.value)
        if not returns:
            return None
        definition = next((statement for statement in owner.node.body.body if type(statement) is cst.FunctionDef
                           and statement.name.value == func.attr.value), None)
        handed: tuple[Origin, cst.Call] | None = None  # the origin of a tensor this call hands the method
        # `loss, preds = self.train_step(batch)` in the trainer's own class: the model its constructor stored, as
        # its constructions say (`preds = self.model(batch["image"])`, `return loss.item(), preds`)
        own = type(func.value) is cst.Name and func.value.value == "self" and owner.ctx is ctx \
            and owner.node is ctx.class_def
        kept: list[tuple[Origin, cst.Call]] = []
        self._method_depth += 1
        try:
            for returned in returns:
                value = returned.value
                if not returned.settled:  # a name a branch binds again: which binding it returns is not known
                    return None
                if type(value) is cst.Tuple:
                    if index is None or index >= len(value.elements) or type(value.elements[index]) is not cst.Element:
                        return None
                    value = value.elements[index].value
                with owner.ctx.at(returned.point):
                    found = None if owner.ctx.grad_disabled else self._origin(value, owner.ctx, arguments=True)
                    derived = found is not None and found[0] == "argument" and definition is not None \
                        and not _under_grad_mode(owner.ctx, definition, value)
                if derived:
                    # `def confidences(self, logits): return self.probabilities(logits).max(-1).values`: what it
                    # returns keeps the graph of the tensor this call hands it (a parameter of the caller's own,
                    # where the caller is a method of the class handing its parameter on)
                    handed = self._handed_origin(definition, call, found[1], ctx, before)  # type: ignore
                    if handed is None or handed[0] == "argument" and self._method_depth <= 1:
                        return None
                    continue
                if own and found is not None and found[0] in ("stored", "stored-device") \
                        and not self._grad_disabled_at(found[1], owner.ctx):
                    kept.append(found)
                    continue
                if unknown:
                    return None
                with owner.ctx.at(returned.point):
                    if found is not None and found[0] in ("stored", "stored-device") and helds:
                        attribute = found[1].func  # `self.model` of `self.model(x)`
                        modules = [held.attrs.get(attribute.attr.value) for held in helds] \
                            if type(attribute) is cst.Attribute and is_self_attribute(attribute) else [None]
                        found = ("model", found[1]) if all(is_module(module) and not (
                            isinstance(module, Instance) and _parameter_free(module.cls.ctx, module.cls.node))
                            for module in modules) else None  # type: ignore[arg-type]
                    if found is None or found[0] not in ("model", "device", "loss", "weights") \
                            or self._grad_disabled_at(found[1], owner.ctx):
                        return None
        finally:
            self._method_depth -= 1
        if handed is not None:
            # one return hands back the argument's graph, another something else: not followed
            return handed if len(returns) == 1 else None
        if kept:
            return kept[0] if len(kept) == len(returns) else None
        return "model", call

    def _element_of_data(self, owner: ClassValue | None, index: int) -> bool:
        """The element at `index` of the tuples the module class `owner` returns from `forward` is made of data,
        with no graph, on every such `return`: the anchors an RPN returns beside its outputs (`anchor =
        torch.from_numpy(anchor).float().to(x.device)`), also through a submodule's own tuple (`rois, anchor =
        self.rpn.forward(x)`, `return rois, anchor`). A `return` of no tuple is another mode's: a tuple is what
        the caller unpacks."""
        if owner is None or self._method_depth > 2:
            return False
        returns = [returned for returned in forward_returns(owner.ctx).of(owner.node)
                   if type(returned.value) is cst.Tuple and len(returned.value.elements) > index]
        self._method_depth += 1
        try:
            for returned in returns:
                element = returned.value.elements[index]  # type: ignore[attr-defined]
                with owner.ctx.at(returned.point):
                    if type(element) is not cst.Element or not returned.settled \
                            or not self._made_from_data(element.value, owner.ctx):
                        return False
        finally:
            self._method_depth -= 1
        return bool(returns)

    def _made_from_data(self, expr: cst.BaseExpression, ctx: Context) -> bool:
        """`expr` is a tensor a torch function made of data (`torch.from_numpy(a).unsqueeze(0).float()`), or the
        element of a submodule's tuple that is one, with no graph."""
        before: int | None = None
        for _ in range(8):
            if type(expr) is cst.Name:
                value, seq = ctx.value_of(expr, before)
                binding = ctx.binding(expr, before) if value is expr else None
                if binding is not None and binding.kind == "unpack" and binding.index is not None \
                        and not binding.starred and type(binding.value) is cst.Call:
                    module = binding.value.func
                    if type(module) is cst.Attribute and module.attr.value == "forward":
                        module = module.value  # `self.rpn.forward(x)`: the submodule's own `forward`
                    return self._element_of_data(project_class(ctx, module, binding.seq), binding.index)
                if value is expr:
                    return False
                expr, before = value, seq
            elif type(expr) is cst.Call:
                func = expr.func
                if ctx.qualname(func) in _MADE_FROM_DATA:
                    return not any(arg.keyword is not None and arg.keyword.value == "requires_grad" for arg in expr.args)
                if type(func) is not cst.Attribute or ctx.qualname(func) is not None \
                        or func.attr.value not in GRAPH_PRESERVING | KEEPS_DEVICE | {"type_as"}:
                    return False
                expr = func.value
            else:
                return False
        return False

    def _moved(self, module: cst.BaseExpression, before: int | None, ctx: Context | None = None) -> bool:
        """The module was moved off the CPU: built with `.to(device)` / `.cuda()` on it, or moved by a statement
        `model.to(device)` in the same function. Its outputs are on the GPU wherever there is one, `no_grad` or
        not. `ctx`: the context to read it in (another module's, for a caller there), this file's by default."""
        ctx = ctx or self.ctx
        spelled = dotted_name(module)
        # the last statement before the call that moves the module decides: `model.to("cpu")` for inference after
        # training on the GPU brings it back
        called = next((site.order for site in ctx.calls_to(last_name(module) or "") if site.node.func is module), None)
        moves = [site for name in ("to", "cuda", "cpu") for site in ctx.calls_to(name)
                 if spelled is not None and site.function is ctx.function
                 and dotted_name(site.node.func.value) == spelled  # type: ignore[attr-defined]
                 and (called is None or site.order < called)
                 and (moves_to_device(ctx, site.node) or moves_to_cpu(ctx, site.node))]
        if moves:
            return moves_to_device(ctx, max(moves, key=lambda site: site.order).node)
        expr = module
        for _ in range(8):
            expr, before = ctx.value_of(expr, before)
            if type(expr) is not cst.Call or type(expr.func) is not cst.Attribute:
                break
            if moves_to_device(ctx, expr):
                return True
            if expr.func.attr.value not in KEEPS_DEVICE:
                break
            expr = expr.func.value
        return False

    def _is_model(self, func: cst.BaseExpression, before: int | None, ctx: Context | None = None) -> bool:
        ctx = ctx or self.ctx
        class_def = instance_class(ctx, func, before)
        if class_def is not None:
            return is_torch_module_class(ctx, class_def) and not _parameter_free(ctx, class_def)
        construction, seq = construction_of(ctx, func, before)
        if construction is not None:
            qualname = ctx.qualname(construction.func)
            if qualname is not None and (qualname.startswith(MODEL_FACTORIES) or _is_nn_class(qualname)):
                return qualname.startswith(MODEL_FACTORIES) or _has_parameters(qualname)
            # a function of the file, or a class or factory a project module defines (`from model import Net`)
            return self._built_by_project(ctx, construction, seq)
        if type(func) is cst.Name:
            binding = ctx.binding(func, before)
            if binding is not None and binding.kind == "param" and type(binding.statement) is cst.FunctionDef:
                return _annotated_module(ctx, binding.statement, func.value)
            if binding is not None and binding.kind == "unpack":
                # `best_model, history = train(MaskNet())`: the module a training helper hands back in its tuple,
                # as the objects floor runs the call
                held = evaluator(ctx).value(func, before)
                return isinstance(held, Instance) and not held.tainted and is_module(held) \
                    and not _parameter_free(held.cls.ctx, held.cls.node)
        elif type(func) is cst.Attribute and not is_self_attribute(func):
            # a submodule of a model (`model.encoder(x)`, `net.head(feats)`), as the objects floor reads its attributes
            held = evaluator(ctx).value(func, before)
            if isinstance(held, Instance):
                return not held.tainted and is_module(held) and not _parameter_free(held.cls.ctx, held.cls.node)
            return isinstance(held, TorchObject) and _is_nn_class(held.qualname) and _has_parameters(held.qualname)
        return False

    def _built_by_project(self, ctx: Context, construction: cst.Call, before: int | None) -> bool:
        """`model = build_model(cfg)`: a function of the project that returns a module with weights, as the
        objects floor follows it (a `torch.nn` layer or a project module class that reads its attributes)."""
        func = construction.func
        if type(func) is cst.Attribute:
            # a class's own factory (`MaskNet.from_checkpoint(path)`, a classmethod returning `cls(**kwargs)`)
            if not isinstance(evaluator(ctx).value(func.value, before), ClassValue):
                return False
        elif type(func) is not cst.Name:
            return False
        else:
            binding = ctx.binding(func, before)
            if binding is None or binding.kind not in ("def", "import"):
                return False
        built = evaluator(ctx).value(construction, before)
        if isinstance(built, Instance):
            return is_module(built) and not _parameter_free(built.cls.ctx, built.cls.node)  # type: ignore[arg-type]
        return isinstance(built, TorchObject) and (
            built.qualname.startswith(MODEL_FACTORIES) or _is_nn_class(built.qualname) and _has_parameters(built.qualname))

    def _graph_passed(self, reader: Context, passed: cst.BaseExpression) -> bool:
        """A caller passes a model's output or a loss computed with autograd on (read in `reader`, the caller's
        context), not detached on the way."""
        found = self._origin(passed, reader)
        if found is not None and found[0] == "argument" and reader.function is not None and self._handed_depth < 2:
            # a helper handing its own parameter on (`save_heatmaps(heatmaps)` calling `to_numpy(heatmaps)`): what
            # its callers hand it
            self._handed_depth += 1
            try:
                return bool(calls_passing(reader, reader.function, found[1].value,  # type: ignore[attr-defined]
                                          self._graph_passed))
            finally:
                self._handed_depth -= 1
        if found is not None and found[0] == "parameter" and reader is self.ctx and reader.function is not None \
                and self._handed_models(found[1], reader.function):
            found = "model", found[1]  # `heatmaps = head(feats)` in a step helper every call hands a model
        elif found is not None and found[0] in ("stored", "stored-device") and found[1] in self.stored \
                and self._handed_models_at_construction(found[1], reader):
            found = "model", found[1]  # `heatmaps = self.head(feats)` of a trainer every construction hands a model
        if found is None or found[0] not in ("model", "device", "loss", "weights") \
                or self._grad_disabled_at(found[1], reader) or self._lightning_hook(reader):
            return False
        return reader is not self.ctx or not self._frozen(*found)

    def _frozen(self, origin: Origin, call: cst.BaseExpression) -> bool:
        """The output of a model this file freezes, or a parameter of one (`model.fc.weight` of a frozen `model`)."""
        if origin == "model":
            return self.ctx.code(call.func) in self.frozen  # type: ignore[attr-defined]
        if origin != "weights" or type(call) is not cst.Attribute:  # a local `nn.Parameter`'s read: not a model's
            return False
        return any((self.ctx.code(call.value) + ".").startswith(frozen + ".") for frozen in self.frozen)

    def _handed_models(self, call: cst.Call, function: cst.FunctionDef, moved: bool = False) -> bool:
        """Every call of the helper hands it a model as the parameter `call` runs (`fit_report(model, x, y)` with
        `model = nn.Linear(3, 1)`), with `moved` one moved to a device (`net = nn.Linear(3, 2).to(device)`)."""
        parameter = self._handed_parameter.get(id(call)) or self.ctx.code(call.func)
        return every_call_passes(self.ctx, function, parameter, lambda reader, passed: self._is_model(
            passed, None, reader) and (not moved or self._moved(passed, None, reader)))

    def _handed_models_at_construction(self, call: cst.Call, ctx: Context | None = None) -> bool:
        """Every construction of the trainer hands it a model for the attribute `call` runs (`Evaluator(Net())`
        for `self.model(x)` with `self.model = model.to(device)`); `ctx`: the module of `call`, this file by
        default."""
        return every_construction_passes(ctx or self.ctx, *self.stored[call],
                                         lambda reader, passed: self._is_model(passed, None, reader))

    def _is_loss(self, call: cst.Call, before: int | None, ctx: Context) -> bool:
        qualname = ctx.qualname(call.func)
        if qualname is not None:
            if not qualname.startswith("torch.nn.functional."):
                return False
            name = qualname.rsplit(".", 1)[1]
            return name.endswith("_loss") or name in LOSS_FUNCTIONS
        construction, _ = construction_of(ctx, call.func, before)
        if construction is None:
            return False
        qualname = ctx.qualname(construction.func)
        return qualname is not None and qualname.startswith("torch.nn.") and qualname.endswith("Loss")

    def _predictions_without_graph(self, loss: cst.Call, before: int | None, ctx: Context) -> bool:
        """The loss's first argument was computed under `no_grad` (`with torch.no_grad(): output = model(x)`, then
        `cross_entropy(output.logits.view(-1, n), labels)` after the block): with no input that requires grad, the
        loss requires none either."""
        args = positional(loss)
        expr: cst.BaseExpression | None = args[0].value if args else None
        for _ in range(16):
            if type(expr) is cst.Name or type(expr) is cst.Attribute:
                value, seq = ctx.value_of(expr, before)
                if value is not expr:
                    expr, before = value, seq
                    continue
            if type(expr) is cst.Call:
                key = last_name(expr.func) or ""
                if any(site.node is expr and site.grad_disabled for site in ctx.calls_to(key)):
                    return True
                method = type(expr.func) is cst.Attribute and ctx.qualname(expr.func) is None
                expr = expr.func.value if method else None  # `output.logits.view(-1, n)`: its receiver
            else:  # `output.logits`, `logits[mask]`: what they are read from
                expr = expr.value if type(expr) is cst.Attribute or type(expr) is cst.Subscript else None
            if expr is None:
                return False
        return False

    def _lightning_hook(self, ctx: Context | None = None) -> bool:
        """The function being visited (in `ctx`, a caller's context, or this file's) is a LightningModule's
        `validation_step`, `test_step` or `predict_step`, which the trainer runs with autograd off."""
        ctx = ctx or self.ctx
        function = ctx.function
        return function is not None and function.name.value in LIGHTNING_HOOKS and lightning_module(ctx)

    def _grad_disabled_at(self, call: cst.BaseExpression, ctx: Context | None = None) -> bool:
        """Autograd was off where `call` (or a parameter read, for a "weights" origin) ran."""
        ctx = ctx or self.ctx
        if type(call) is not cst.Call:
            return id(call) in self._no_grad_reads if ctx is self.ctx else ctx.grad_disabled
        key = last_name(call.func)
        for site in ctx.calls_to(key) if key else ():
            if site.node is call:
                return site.grad_disabled
        return ctx.grad_disabled


# Tensor methods that, given a dim, return the pair (values, indices): the values keep the graph, the indices don't.
_VALUES_AND_INDICES = frozenset({"max", "min", "median", "mode", "kthvalue", "topk", "sort", "cummax", "cummin"})


def _reduction_picked(ctx: Context, expr: cst.Subscript | cst.Attribute) -> cst.BaseExpression | Literal[False] | None:
    """For `heatmaps.max(0)[0]` or `probs.max(-1).values` (a method returning values and indices, read by a stated
    place or name): the tensor the values come from; False for the indices (`scores.max(1)[1]`); None for any
    other subscript or attribute."""
    call = expr.value
    if type(call) is not cst.Call or type(call.func) is not cst.Attribute \
            or call.func.attr.value not in _VALUES_AND_INDICES or ctx.qualname(call.func) is not None:
        return None
    if type(expr) is cst.Attribute:
        return call.func.value if expr.attr.value == "values" else None
    if len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
        return None
    index = expr.slice[0].slice.value
    if type(index) is not cst.Integer:
        return False  # which of the two is read is not stated: the indices may be
    return call.func.value if index.value == "0" else False


def _taken_apart(ctx: Context, iterated: cst.BaseExpression, index: int | None) -> cst.BaseExpression | None:
    """What the element a loop target unpacks at `index` is an element of, where the loop iterates the builtin
    `enumerate(xs)` (index 1) or `zip(xs, ys)` (the list at `index`): `xs` for `for i, x in enumerate(xs):`."""
    if index is None or type(iterated) is not cst.Call or type(iterated.func) is not cst.Name \
            or ctx.binding(iterated.func.value) is not None:
        return None
    listed = [arg.value for arg in iterated.args if arg.keyword is None and not arg.star]
    if iterated.func.value == "enumerate" and index == 1 and listed:
        return listed[0]
    if iterated.func.value == "zip" and len(listed) == len(iterated.args) and index < len(listed):
        return listed[index]
    return None


def _comprehension_sources(ctx: Context, comprehension: cst.CompFor) -> list[tuple[str, cst.BaseExpression]]:
    """The names a comprehension's target binds to an element of a list, each with that list: the iterable for a
    plain name, the list zipped or enumerated at the name's place (`for n, loss in zip(counts, losses)`)."""
    target = comprehension.target
    if type(target) is cst.Name:
        return [(target.value, comprehension.iter)]
    if type(target) is not cst.Tuple:
        return []
    found = []
    for index, element in enumerate(target.elements):
        listed = zipped_list(ctx, comprehension.iter, index, len(target.elements))
        if type(element) is cst.Element and type(element.value) is cst.Name and listed is not None:
            found.append((element.value.value, listed))
    return found


def _under_grad_mode(ctx: Context, definition: cst.FunctionDef, node: cst.CSTNode) -> bool:
    """`node` of `definition` runs under a grad-mode manager of torch (a decorator of the function, or a `with`
    around it: `no_grad`, `inference_mode`, `enable_grad`, `set_grad_enabled`): whether what it computes keeps a
    graph is not the caller's alone to say."""
    managers = [decorator.decorator for decorator in definition.decorators]
    managers += [item.item for block in ctx.walk(definition.body) if type(block) is cst.With
                 and any(inner is node for inner in ctx.walk(block.body)) for item in block.items]
    return any((ctx.qualname(manager.func if type(manager) is cst.Call else manager) or "").startswith("torch.")
               for manager in managers)


def _leaf_requiring_grad(ctx: Context, construction: cst.Call) -> bool:
    """`nn.Parameter(torch.zeros(4))` (unless `requires_grad=False`), `torch.randn(3, requires_grad=True)`: a leaf
    tensor that requires grad, made where it is named."""
    qualname = ctx.qualname(construction.func)
    if qualname in _PARAMETER_CLASSES:
        return not any(arg.keyword is not None and arg.keyword.value == "requires_grad" and not is_true(arg.value)
                       for arg in construction.args) and not any(arg.keyword is None and index == 1
                                                                 and not is_true(arg.value)
                                                                 for index, arg in enumerate(construction.args))
    return qualname is not None and (qualname in _MADE_FROM_DATA or qualname in _RANDOM) and any(
        arg.keyword is not None and arg.keyword.value == "requires_grad" and is_true(arg.value)
        for arg in construction.args)


# Torch functions of random data: a leaf that requires grad where `requires_grad=True` says so.
_RANDOM = frozenset({"torch.randn", "torch.rand", "torch.normal", "torch.zeros_like", "torch.ones_like",
                     "torch.randn_like", "torch.rand_like", "torch.empty_like", "torch.full_like", "torch.eye"})
_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def _weights_message(ctx: Context, parameter: cst.BaseExpression) -> str:
    return (f"`.numpy()` on a tensor computed from `{ctx.code(parameter)}`, a parameter that requires grad: it "
            "raises; use `.detach().numpy()`, or compute it under `torch.no_grad()`")


def _linted_as_torch(ctx: Context) -> bool:
    """The module of `ctx` is linted by this rule: it imports torch, or is torch training code without the import
    (`shapecheck.engine.torch_code`). Its own lint reports what its helpers are handed."""
    summary = PROJECT.summary(Path(ctx.filename))
    text = "\n".join(summary.lines) if summary is not None else ""
    return imports_torch(text) or implicit_torch_training(text)


def _parameter_free(ctx: Context, class_def: cst.ClassDef) -> bool:
    """`class Swish(nn.Module): def forward(self, x): return x * torch.sigmoid(x)`: a plain `nn.Module` subclass
    that reads no attribute of `self` holds no parameters; its output needs grad only when its input does. So is
    one whose `forward` reads only its buffers (s4's HiPPO: `register_buffer('dA', torch.Tensor(dA))`, then
    `F.linear(c, self.dA)`): buffers are not trained."""
    if not class_def.bases or any(ctx.qualname(base.value) != "torch.nn.Module" for base in class_def.bases):
        return False
    if not any(_self_use(node) for node in ctx.walk(class_def.body)):
        return True
    forward = next((statement for statement in class_def.body.body
                    if type(statement) is cst.FunctionDef and statement.name.value == "forward"), None)
    if forward is None:
        return False
    buffers = _buffers(ctx, class_def)
    reads = [node for node in ctx.walk(forward.body) if _self_use(node)]
    # each `self` of the body is the object of one of those reads, not handed on (`helper(self)`, `self(x)`)
    handed = sum(1 for node in ctx.walk(forward.body) if type(node) is cst.Name and node.value == "self") - len(reads)
    return not handed and all(node.attr.value in buffers for node in reads)  # type: ignore[attr-defined]


def _self_use(node: cst.CSTNode) -> bool:
    return type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == "self"


def _buffers(ctx: Context, class_def: cst.ClassDef) -> set[str]:
    """The names the class registers as buffers (`self.register_buffer("mask", m)`) and assigns nowhere else."""
    registered = {name for node in ctx.walk(class_def.body)
                  if type(node) is cst.Call and type(node.func) is cst.Attribute and _self_use(node.func)
                  and node.func.attr.value == "register_buffer" and node.args
                  and (name := string_value(node.args[0].value)) is not None}
    assigned = {node.target.attr.value for node in ctx.walk(class_def.body)
                if type(node) in (cst.AssignTarget, cst.AnnAssign, cst.AugAssign) and _self_use(node.target)}
    return registered - assigned


def _graph_preserving_function(ctx: Context, call: cst.Call) -> bool:
    """`torch.sigmoid(t)`, `F.softmax(t, dim=1)`: the function spelling of a graph-preserving method, its tensor
    first."""
    qualname = ctx.qualname(call.func) or ""
    module, _, name = qualname.rpartition(".")
    return module in ("torch", "torch.nn.functional") and name in GRAPH_PRESERVING and bool(call.args) \
        and call.args[0].keyword is None and not call.args[0].star


def _to_cuda(ctx: Context, call: cst.Call) -> bool:
    """`.to("cuda")`, `.to("cuda:0")`, `.to(device="cuda")`, `.to(torch.device("cuda"))`, through a local name."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value != "device":
            continue
        value, _ = ctx.value_of(arg.value)
        if type(value) is cst.Call and ctx.qualname(value.func) == "torch.device" and value.args:
            value = value.args[0].value
        return type(value) is cst.SimpleString and value.raw_value.startswith("cuda")
    return False


def _annotated_module(ctx: Context, function: cst.FunctionDef, name: str) -> bool:
    """The parameter `name` of `function` is annotated as a torch module (`model: nn.Module`)."""
    annotation = param_annotation(function, name)
    qualname = ctx.qualname(annotation) if annotation is not None else None
    if qualname is None and type(annotation) in (cst.Name, cst.Attribute):
        # `model: Classifier`, a module class of the project with weights
        annotated = evaluator(ctx).value(annotation)
        return isinstance(annotated, ClassValue) and type(annotated.node) is cst.ClassDef \
            and is_torch_module_class(annotated.ctx, annotated.node, imported=True) \
            and not _parameter_free(annotated.ctx, annotated.node)
    return qualname is not None and _is_nn_class(qualname)


def _is_nn_class(qualname: str) -> bool:
    """`torch.nn.Linear`, `torch.nn.Module`: a class of `torch.nn`, not a function of `torch.nn.functional`."""
    return qualname.startswith("torch.nn.") and qualname.rsplit(".", 1)[1][:1].isupper()


def _has_parameters(qualname: str) -> bool:
    """A `torch.nn` layer with parameters: the output of `nn.Tanh()(t)` requires grad only when `t` does."""
    return qualname.rsplit(".", 1)[1] not in PARAMETER_FREE
