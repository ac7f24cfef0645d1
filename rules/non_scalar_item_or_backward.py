"""SC107 non-scalar-item-or-backward: `.item()`, `float(t)`, `int(t)` or a bare `.backward()` on a tensor with more
than one element."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Rule
from shapecheck.shapes.messages import quoted
from shapecheck.engine.syntax import keyword_arg
from shapecheck.engine.walker import walk_statements
from shapecheck.objects.dims import Dim, opaque_operands
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.broadcast import broadcast, either_sides
from shapecheck.shapes.elementwise import is_number, may_be_tensor_comparison
from shapecheck.shapes.views import unsolved
from shapecheck.objects.values import Imported
from shapecheck.shapes import runs
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator

CONVERSIONS = frozenset({"float", "int", "bool", "complex"})
BACKWARD_FUNCTIONS = frozenset({"torch.autograd.backward"})

_TOKEN_LOSSES = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Tagger(nn.Module):
            def __init__(self, vocab: int = 1000, n_tags: int = 9):
                super().__init__()
                self.embed = nn.Embedding(vocab, 64)
                self.out = nn.Linear(64, n_tags)

            def forward(self, tokens):
                return self.out(self.embed(tokens))

        def token_losses(logits, tags):
            return F.cross_entropy(logits.flatten(0, 1), tags.flatten(), reduction="none")

        def train_step(model, optimizer, tokens, tags, history):
            losses = token_losses(model(tokens), tags)
            history.append(losses%s.item())
            optimizer.zero_grad()
            losses.mean().backward()
            optimizer.step()

        def fit(read_tags):
            model = Tagger()
            optimizer = torch.optim.Adam(model.parameters())
            tokens = torch.randint(0, 1000, (16, 40))
            train_step(model, optimizer, tokens, read_tags(tokens), [])
"""


_OPTION_LABELS = """
        import argparse

        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        def per_label_bce(logits, targets):
            return F.binary_cross_entropy_with_logits(logits, targets, reduction="none").mean(dim=0)

        def parse_args():
            parser = argparse.ArgumentParser()
            parser.add_argument("--labels", type=int, default=6)
            parser.add_argument("--features", type=int, default=40)
            return parser.parse_args()

        def main():
            args = parse_args()
            model = nn.Linear(args.features, args.labels)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(100):
                x = torch.randn(32, args.features)
                y = torch.randint(0, 2, (32, args.labels)).float()
                losses = per_label_bce(model(x), y)
                optimizer.zero_grad()
                losses.mean().backward()
                optimizer.step()
                print("step %%d loss %%.4f" %% (step, losses%s.item()))
"""

_PAIR_LOSS = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, TensorDataset

        class SiameseEncoder(nn.Module):
            def __init__(self, in_dim: int = 32, emb: int = 16, margin: float = 0.5):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, emb))
                self.margin = margin

            def forward(self, a, b, same):
                dist = F.pairwise_distance(self.net(a), self.net(b))
                return (same * dist.pow(2) + (1 - same) * F.relu(self.margin - dist).pow(2))%s

        def fit(epochs: int = 3):
            pairs = TensorDataset(torch.randn(256, 32), torch.randn(256, 32), torch.randint(0, 2, (256,)).float())
            model = SiameseEncoder()
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(epochs):
                for xa, xb, y in DataLoader(pairs, batch_size=32, shuffle=True):
                    loss = model(xa, xb, y)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
"""

_DICE_MODULE = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, TensorDataset

        class SoftDiceLoss(nn.Module):
            def __init__(self, num_classes: int, smooth: float = 1e-5):
                super().__init__()
                self.num_classes = num_classes
                self.smooth = smooth

            def forward(self, logits, target):
                probs = F.softmax(logits, dim=1)
                onehot = F.one_hot(target, self.num_classes).permute(0, 3, 1, 2).float()
                dims = (0, 2, 3)
                inter = torch.sum(probs * onehot, dims)
                card = torch.sum(probs + onehot, dims)
                return (1.0 - (2.0 * inter + self.smooth) / (card + self.smooth))%s

        def train(model, loader, criterion, optimizer, epochs=3):
            for epoch in range(epochs):
                for images, masks in loader:
                    loss = criterion(model(images), masks)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()

        model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 5, 1))
        data = TensorDataset(torch.randn(32, 3, 64, 64), torch.randint(0, 5, (32, 64, 64)))
        train(model, DataLoader(data, batch_size=8), SoftDiceLoss(5), torch.optim.Adam(model.parameters()))
"""

class NonScalarItemOrBackward(Rule):
    code = "SC107"
    name = "non-scalar-item-or-backward"
    raises = True  # not reported where a test expects the error
    message = "`.item()` on a tensor with more than one element"
    triggers = (".item(", "float(", "int(", "bool(", "complex(", "backward(", "if ", "while ", "assert ", " and ",
                " or ", "not ", ":.")
    triggered_through_imports = True  # reports at a call what a first-party module does (see Rule)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds `.item()`, `float(t)`, `int(t)` (and `bool(t)`, `complex(t)`) on a tensor that keeps a dim whose
        size is not known to be 1 (an unreduced per-sample loss from `reduction="none"`, a batch of predictions
        compared with a batch of labels, a row of a matrix), `.backward()` or `torch.autograd.backward(t)` without
        `gradient=` on such a tensor, and such a tensor's truth asked for: `if pred == y:`, `while t:`, `assert t`,
        `a if t else b`, `t and u`, `not t`, the last operand of a tested `and`/`or` (`if ok and t:`), and the
        first link of a chained comparison (`0 <= t < n`); and a format spec applied to a tensor that keeps a dim
        (`f"loss {losses:.4f}"`, even of shape (1,)). Shapes come from the shape analysis; a tensor whose shape is not
        known, or (but for a format spec) whose dims are all 1, is never reported.

        ## Why is this bad?
        The primer: "Pitfall: .item() raises if the tensor has more than one element. For a scalar use .item();
        for a vector you wanted the sum/mean of, reduce first", and "backward() only works on a scalar by default.
        If you want gradients of a vector output, either reduce it (.sum(), .mean()) before calling .backward(),
        or pass an explicit gradient= of the same shape." All three raise `RuntimeError` ("a Tensor with 32
        elements cannot be converted to Scalar", "grad can be implicitly created only for scalar outputs",
        "Boolean value of Tensor with more than one value is ambiguous"), often at the end of the first epoch,
        after the slow part has run; a batch of size 1 in a smoke test hides it. `Tensor.__format__` applies a
        format spec only to a 0-d tensor: any other raises `TypeError` ("unsupported format string passed to
        Tensor.__format__"), typically in the log line after the first epoch.

        ## Example
        ```python
        losses = F.cross_entropy(logits, y, reduction="none")  # (N,)
        total += losses.item()
        losses.backward()
        ```

        ## Use instead
        ```python
        total += losses.sum().item()
        losses.mean().backward()
        ```
    """
    VALID = [
        # a reduced loss and an accuracy formatted, a tensor printed whole, its shape formatted
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(32, 10)
        y = torch.randint(0, 10, (32,))
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(1) == y).float().mean()
        print(f"loss {loss:.4f} acc {acc:.2%} logits {logits} {logits.shape} {loss.item():.3f}")
        """,
        # FCOS-Pytorch-Implementation's inference: a detection row's score and class unpacked, 0-d each
        """
        import torch
        pred = torch.rand(5, 6)
        for bb in pred:
            x1, y1, x2, y2 = [int(c) for c in bb[:4]]
            cls_prob, cls_id = bb[4:]
            print(f"box {x1},{y1},{x2},{y2} class {int(cls_id)} prob {cls_prob:.4f} {bb[4]:.3f}")
        """,
        # ShannonAI/mrc-for-flat-nested-ner's inference: a loader of one sample a batch over a dataset read from a
        # file; each batch's `label_idx` is (1, 1), one element
        """
        import json
        import torch
        from torch.utils.data import DataLoader, Dataset
        class MRCNERDataset(Dataset):
            def __init__(self, json_path):
                self.all_data = json.load(open(json_path, encoding="utf-8"))
            def __len__(self):
                return len(self.all_data)
            def __getitem__(self, item):
                sample_idx, label_idx = self.all_data[item]["qas_id"].split(".")
                return [torch.LongTensor([int(sample_idx)]), torch.LongTensor([int(label_idx)])]
        def main(path, query2label_dict):
            data_loader = DataLoader(dataset=MRCNERDataset(path), batch_size=1, shuffle=False)
            for batch in data_loader:
                sample_idx, label_idx = batch
                print(query2label_dict[label_idx.item()], sample_idx.item())
        """,
        # A parametrized test's shapes (ignite's metric tests): an item of a list of shapes may be `()`, a 0-dim tensor
        """
        import torch
        def get_data(shapes, gt_as_scalar=False):
            return [torch.rand(shapes[1]).item() if gt_as_scalar else torch.rand(shapes[1]) for _ in range(3)]
        def check(shapes):
            if len(shapes[1]) == 0:
                get_data(shapes, gt_as_scalar=True)
        check([(10,), ()])
        """,
        # pytorch/examples mnist: a summed comparison and a mean loss
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        fc = nn.Linear(128, 10)
        data = torch.randn(64, 128)
        target = torch.randint(0, 10, (64,))
        output = F.log_softmax(fc(data), dim=1)
        loss = F.nll_loss(output, target)
        pred = output.argmax(dim=1, keepdim=True)
        correct = pred.eq(target.view_as(pred)).sum().item()
        loss.backward()
        print(loss.item())
        """,
        # a per-sample loss reduced before it leaves the graph
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(32, 10, requires_grad=True)
        y = torch.randint(0, 10, (32,))
        losses = F.cross_entropy(logits, y, reduction="none")
        losses.mean().backward()
        worst = losses.max().item()
        """,
        # nanoGPT-style sampling: one token, (1,) from a (V,) distribution
        """
        import torch
        probs = torch.softmax(torch.randn(50257), dim=-1)
        next_id = torch.multinomial(probs, num_samples=1).item()
        """,
        # the primer: a vector output with an explicit gradient
        """
        import torch
        x = torch.randn(3, requires_grad=True)
        y = x * 2
        y.backward(gradient=torch.ones_like(y))
        torch.autograd.backward(y, grad_tensors=torch.ones_like(y))
        """,
        # sizes, not tensors
        """
        import torch
        x = torch.randn(8, 3)
        n = int(x.shape[0])
        scale = float(x.size(1)) ** -0.5
        """,
        # the primer: `(x * x).sum()` is a scalar
        """
        import torch
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        """,
        # a tensor of unknown size flattened: it may hold one element
        """
        def as_float(t):
            return t.reshape(-1).item()
        """,
        # pytorch/examples-style accuracy: the comparison reduced before its truth is asked
        """
        import torch
        def evaluate(model, x, y, best):
            pred = model(x).argmax(dim=1)
            if (pred == y).all() or pred.shape != y.shape:
                return 1.0
            loss = torch.nn.functional.cross_entropy(model(x), y)
            return 0.0 if loss > best else float(loss)
        """,
        # a NaN guard on the mean loss: a scalar, whose truth is its value
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(10, 1)
        criterion = nn.MSELoss()
        loss = criterion(model(torch.randn(16, 10)), torch.randn(16, 1))
        if torch.isnan(loss) or not torch.isfinite(loss):
            raise RuntimeError("loss diverged")
        """,
        # a collate helper's checks, each a bool: one element reduced over all, a comparison of whole tensors
        """
        import torch

        def drop_empty(batch, mask, reference):
            if mask.any() and torch.allclose(batch.sum(), reference.sum()):
                return batch[mask.any(dim=1)]
            if torch.equal(batch, reference):
                return reference
            return batch

        mask = torch.rand(8, 5) > 0.5
        kept = drop_empty(torch.randn(8, 5, 3), mask, torch.randn(8, 5, 3))
        """,
        # early stopping on a mean validation loss against a best kept as a float, and a mask tested for None
        """
        import torch
        import torch.nn.functional as F


        class Trainer:
            def __init__(self, model):
                self.model = model
                self.best = float("inf")

            def validate(self, x, y, mask=None):
                val_loss = F.mse_loss(self.model(x), y)
                if val_loss < self.best:
                    self.best = val_loss.item()
                if mask != None:
                    val_loss = val_loss * mask.float().mean()
                return val_loss
        """,
        # torchvision-style input checks: each operand of the tested `and`/`or` reduced, or a plain bool
        """
        import torch


        def check_image(img, strict=False):
            if img.min() >= 0 and img.max() <= 1:
                return img
            if strict or not torch.isfinite(img).all():
                raise ValueError("image out of range")
            ok = img.dim() == 4 and img
            return img.clamp(0, 1)


        check_image(torch.rand(2, 3, 32, 32))
        """,
        # the same weights defaulted by a test for None
        """
        import torch
        import torch.nn.functional as F
        from collections import Counter

        def class_weights(labels, num_classes):
            counts = Counter(labels)
            freq = torch.tensor([counts.get(c, 1) for c in range(num_classes)], dtype=torch.float)
            return freq.sum() / (num_classes * freq)

        def weighted_ce(logits, target, num_classes, weights=None):
            weights = weights if weights is not None else torch.ones(num_classes)
            return F.cross_entropy(logits, target, weight=weights)

        labels = [0] * 50 + [1] * 10 + [2] * 5
        loss = weighted_ce(torch.randn(65, 3), torch.tensor(labels), 3, class_weights(labels, 3))
        """,
        # a tolerance loop on a scalar norm the loop shrinks
        """
        import torch

        grad = torch.randn(10)
        norm = grad.norm()
        while norm > 1e-3:
            grad = grad * 0.5
            norm = grad.norm()
        """,
        # a dataset whose constructor checks reduced tensors: `.any()` asks of all of them
        """
        import torch
        from torch.utils.data import Dataset
        class Labelled(Dataset):
            def __init__(self, images, targets, num_classes):
                self.images, self.targets = images, targets
                if (targets < 0).any() or (targets >= num_classes).any():
                    raise ValueError("target out of range")
                assert ((images >= 0) & (images <= 1)).all()
        ds = Labelled(torch.rand(10, 3, 8, 8), torch.randint(0, 5, (10,)), 5)
        """,
        # a script's main block: each frame's truth tests ask reduced tensors, on every pass of the loop
        """
        import torch
        import torch.nn as nn
        class Cell(nn.Module):
            def __init__(self, first=False):
                super().__init__()
                self.first = first
                self.conv = nn.Conv2d(3, 3, 3, padding=1)
            def forward(self, x, state):
                projection = x if self.first else self.conv(x)
                if not torch.isfinite(projection).all():
                    raise FloatingPointError("non-finite activations")
                return projection - state
        if __name__ == "__main__":
            cell = Cell(first=True)
            video = torch.rand(5, 2, 3, 16, 16)
            state = torch.zeros(2, 3, 16, 16)
            for t in range(video.size(0)):
                error = cell(video[t], state)
                if error.abs().mean() < 1e-3 and error.numel():
                    break
        """,
        # a sampler's noise window from a settings dict, tested on one noise level (a 0-d tensor)
        """
        import torch
        settings = {"sigma_start": 0.9, "sigma_end": 0.2}
        def guidance_scale(sigma):
            if settings["sigma_start"] >= sigma >= settings["sigma_end"]:
                return 7.5
            return 1.0
        sigmas = torch.linspace(1.0, 0.0, 10)
        scales = [guidance_scale(sigmas[i]) for i in range(len(sigmas))]
        """,
        # the same per-token losses averaged before they are logged
        _TOKEN_LOSSES % ".mean()",
        # the same per-label losses averaged before they are logged
        _OPTION_LABELS % ".mean()",
        # the same contrastive loss averaged over the pairs in `forward`
        _PAIR_LOSS % ".mean()",
        # the same Dice loss averaged over the classes
        _DICE_MODULE % ".mean()",
        # speechbrain's pooling test: a wrapper picks the pooling layer from its arguments, and a (1, 2, 3) input
        # pooled by a (2, 3) kernel is one element; the pooled sizes the analysis does not work out may be 1
        """
        import torch
        import torch.nn as nn

        class Pooling2d(nn.Module):
            def __init__(self, pool_type, kernel_size, stride=None):
                super().__init__()
                if pool_type == "max":
                    self.pool = nn.MaxPool2d(kernel_size, stride=stride)
                else:
                    self.pool = nn.AvgPool2d(kernel_size, stride=stride)

            def forward(self, x):
                return self.pool(x)

        def test_pooling2d():
            inp = torch.tensor([1, 2, 3, 4, 5, 6], dtype=torch.float).view(1, 2, 3)
            pool = Pooling2d("max", (2, 3))
            assert pool(inp) == 6
            assert Pooling2d("avg", (2, 3))(inp).item() == 3.5
        """,
        # A DQN agent acting on one frame stack: `state[None, ...]` into a Conv2d of 4 input channels can only be a
        # batch of one (unbatched, its first dim would be the channels), so the greedy action is one element.
        """
        import torch
        import torch.nn as nn


        class QNetwork(nn.Module):
            def __init__(self, n_actions: int) -> None:
                super().__init__()
                self.features = nn.Sequential(nn.Conv2d(4, 32, 8, stride=4), nn.ReLU())
                self.head = nn.Linear(32 * 20 * 20, n_actions)

            def forward(self, x):
                h = self.features(x)
                return self.head(h.view(h.size(0), -1))


        class Agent:
            def __init__(self, n_actions: int) -> None:
                self.online = QNetwork(n_actions)

            def greedy(self, state):
                obs = torch.as_tensor(state[None, ...], dtype=torch.float32) / 255.0
                with torch.no_grad():
                    action = self.online(obs).argmax(dim=1, keepdim=True)
                return action.item()
        """,
        # The same agent whose channels come from the environment (`Conv2d(obs_shape[0], ...)`): whether the first
        # dim is the batch can't be told, and the `x.size(0)` a flatten names is the analysis's name, not the code's
        """
        import torch
        import torch.nn as nn


        class Flatten(nn.Module):
            def forward(self, x):
                return x.view(x.size(0), -1)


        class PolicyNet(nn.Module):
            def __init__(self, obs_shape, n_actions: int) -> None:
                super().__init__()
                self.body = nn.Sequential(nn.Conv2d(obs_shape[0], 16, 8, stride=4), nn.ReLU(), Flatten())
                self.head = nn.Linear(16 * 20 * 20, n_actions)

            def act(self, obs):
                return self.head(self.body(obs)).argmax(dim=1, keepdim=True)


        class Player:
            def __init__(self, env) -> None:
                self.policy = PolicyNet(env.observation_space.shape, env.action_space.n)

            def play(self, frame):
                obs = torch.from_numpy(frame).float().unsqueeze(0) / 255.0
                with torch.no_grad():
                    return self.policy.act(obs).item()
        """,
        # A distributional dueling head with noisy layers acting on one frame: the encoder's flat size depends on
        # the configured encoder, so the value and advantage streams are each viewed with a `-1` the analysis can't
        # solve; the greedy action's batch dim, their broadcast, may be 1, and is.
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class NoisyLinear(nn.Module):
            def __init__(self, in_features, out_features, sigma=0.5):
                super().__init__()
                self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
                self.weight_sigma = nn.Parameter(torch.full((out_features, in_features), sigma))
                self.register_buffer("weight_eps", torch.zeros(out_features, in_features))

            def forward(self, x):
                if self.training:
                    return F.linear(x, self.weight_mu + self.weight_sigma * self.weight_eps)
                return F.linear(x, self.weight_mu)


        class DistributionalQ(nn.Module):
            def __init__(self, args, n_actions):
                super().__init__()
                self.n_actions, self.atoms = n_actions, args.atoms
                if args.encoder == "nature":
                    self.encoder = nn.Sequential(nn.Conv2d(args.frames, 32, 8, stride=4), nn.ReLU(),
                                                 nn.Conv2d(32, 64, 4, stride=2), nn.ReLU())
                    self.flat = 5184
                else:
                    self.encoder = nn.Sequential(nn.Conv2d(args.frames, 32, 5, stride=5), nn.ReLU())
                    self.flat = 3872
                self.value_hidden = NoisyLinear(self.flat, args.hidden)
                self.value_out = NoisyLinear(args.hidden, self.atoms)
                self.advantage_hidden = NoisyLinear(self.flat, args.hidden)
                self.advantage_out = NoisyLinear(args.hidden, n_actions * self.atoms)

            def forward(self, obs):
                h = self.encoder(obs).view(-1, self.flat)
                value = self.value_out(F.relu(self.value_hidden(h))).view(-1, 1, self.atoms)
                advantage = self.advantage_out(F.relu(self.advantage_hidden(h))).view(-1, self.n_actions, self.atoms)
                return F.softmax(value + advantage - advantage.mean(1, keepdim=True), dim=2)


        class Learner:
            def __init__(self, args, n_actions):
                self.q = DistributionalQ(args, n_actions)
                self.atoms = args.atoms
                self.support = torch.linspace(args.v_min, args.v_max, self.atoms)

            def greedy(self, frame):
                with torch.no_grad():
                    return (self.q(frame.unsqueeze(0)) * self.support).sum(2).argmax(1).item()
        """,
        # The same head with its flat size a parameter: the `-1` is the conv's output over that parameter, a
        # quotient of sizes the analysis could not work out (the conv of a frame nothing sizes).
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class DuelingHead(nn.Module):
            def __init__(self, features, actions, atoms):
                super().__init__()
                self.features, self.actions, self.atoms = features, actions, atoms
                self.convs = nn.Sequential(nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(), nn.Conv2d(32, 64, 4, stride=2), nn.ReLU())
                self.value = nn.Linear(features, atoms)
                self.advantage = nn.Linear(features, actions * atoms)

            def forward(self, x):
                x = self.convs(x).view(-1, self.features)
                v = self.value(x).view(-1, 1, self.atoms)
                a = self.advantage(x).view(-1, self.actions, self.atoms)
                return F.softmax(v + a - a.mean(1, keepdim=True), dim=2)


        class Agent:
            def __init__(self, features, actions, atoms):
                self.net = DuelingHead(features, actions, atoms)
                self.support = torch.linspace(-10, 10, atoms)

            def act(self, state):
                with torch.no_grad():
                    return (self.net(state.unsqueeze(0)) * self.support).sum(2).argmax(1).item()
        """,
    ]
    INVALID = [
        # an unreduced loss logged with a format spec: `Tensor.__format__` raises TypeError
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(32, 10)
        y = torch.randint(0, 10, (32,))
        losses = F.cross_entropy(logits, y, reduction="none")
        print(f"loss {losses:.4f}")
        """,
        # the old `cond and a or b` idiom asks `a`'s truth; run from a script's main block, on each batch
        """
        import torch
        def project(use_raw, x, proj):
            return use_raw and x or proj(x)
        if __name__ == "__main__":
            proj = torch.nn.Linear(8, 8)
            batches = torch.randn(4, 16, 8)
            for i in range(len(batches)):
                out = project(True, batches[i], proj)
        """,
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(32, 10)
        y = torch.randint(0, 10, (32,))
        losses = F.cross_entropy(logits, y, reduction="none")
        total = losses.item()
        """,
        """
        import torch
        import torch.nn.functional as F
        pred = torch.randn(16, 1, requires_grad=True)
        target = torch.randn(16, 1)
        loss = F.mse_loss(pred, target, reduction="none")
        loss.backward()
        """,
        # a formula reader's per-image confidence: its classifier's classes are its charset's length
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        CHARS = "0123456789+-*/=()"
        class FormulaReader(nn.Module):
            def __init__(self, width=128):
                super().__init__()
                self.classifier = nn.Linear(width, len(CHARS) + 1)
            def forward(self, feats):
                return self.classifier(feats)
        reader = FormulaReader()
        probs = reader(torch.randn(8, 32, 128)).softmax(dim=-1)
        confidence = probs.max(dim=-1).values.mean(dim=1)
        print(f"confidence {confidence.item():.3f}")
        """,
        # a batch comparison: (N,) booleans
        """
        import torch
        logits = torch.randn(64, 10)
        labels = torch.randint(0, 10, (64,))
        accuracy = float((logits.argmax(dim=1) == labels).float())
        """,
        # annotated per-sample losses
        """
        from jaxtyping import Float
        from torch import Tensor
        def log_loss(per_sample: Float[Tensor, "B"]) -> float:
            return per_sample.item()
        """,
        """
        import torch
        x = torch.randn(3, requires_grad=True)
        y = x * 2
        torch.autograd.backward(y)
        """,
        """
        import torch
        counts = torch.zeros(4, 5)
        total = counts.reshape(-1).item()
        """,
        # a batch of predictions compared with a batch of labels, as a condition
        """
        import torch
        import torch.nn as nn

        def evaluate(model, x, y):
            correct = 0
            pred = model(x).argmax(dim=1)
            if pred == y:
                correct += 1
            return correct

        model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
        print(evaluate(model, torch.randn(8, 10), torch.randint(0, 3, (8,))))
        """,
        # a range check written as Python chains it
        """
        import torch
        labels = torch.randint(0, 10, (64,))
        assert 0 <= labels < 10
        """,
        # a NaN guard on per-sample losses: (16, 1) booleans as a condition
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(10, 1)
        criterion = nn.MSELoss(reduction="none")
        loss = criterion(model(torch.randn(16, 10)), torch.randn(16, 1))
        if torch.isnan(loss):
            raise RuntimeError("loss diverged")
        """,
        # a collate helper testing a per-row reduction: (8,) booleans
        """
        import torch

        def drop_empty(batch, mask):
            if mask.any(dim=1):
                return batch[mask.any(dim=1)]
            return batch

        mask = torch.rand(8, 5) > 0.5
        kept = drop_empty(torch.randn(8, 5, 3), mask)
        """,
        # early stopping on per-output validation losses: `reduction="none"` then a mean over the batch only
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Trainer:
            def __init__(self):
                self.best = float("inf")
                self.model = nn.Linear(3, 2)

            def fit(self):
                x, y = torch.randn(16, 3), torch.randn(16, 2)
                val_loss = F.mse_loss(self.model(x), y, reduction="none").mean(0)
                if val_loss < self.best:
                    self.best = val_loss
        """,
        # a validation helper: the `and` hands `probs <= 1`, (N, C) booleans, to the `if`
        """
        import torch
        import torch.nn as nn


        def check_probabilities(probs):
            if probs.dim() != 2:
                raise ValueError("expected (N, C) probabilities")
            if probs.min() >= 0 and probs <= 1:
                return True
            return False


        @torch.no_grad()
        def evaluate(model, x):
            probs = torch.softmax(model(x), dim=-1)
            assert check_probabilities(probs)


        evaluate(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5)), torch.randn(200, 20))
        """,
        # class weights from label counts, defaulted with `or`: the weights' truth is asked
        """
        import torch
        import torch.nn.functional as F
        from collections import Counter

        def class_weights(labels, num_classes):
            counts = Counter(labels)
            freq = torch.tensor([counts.get(c, 1) for c in range(num_classes)], dtype=torch.float)
            return freq.sum() / (num_classes * freq)

        def weighted_ce(logits, target, num_classes, weights=None):
            weights = weights or torch.ones(num_classes)
            return F.cross_entropy(logits, target, weight=weights)

        labels = [0] * 50 + [1] * 10 + [2] * 5
        loss = weighted_ce(torch.randn(65, 3), torch.tensor(labels), 3, class_weights(labels, 3))
        """,
        # a tolerance loop on per-parameter norms the loop rebinds: the first test already raises
        """
        import torch

        def shrink():
            grad_norm = torch.ones(5)
            while grad_norm > 1e-3:
                grad_norm = grad_norm * 0.1
        """,
        # a dataset's constructor asks the truth of what each construction passes: reported there, via the call
        """
        import torch
        from torch.utils.data import Dataset
        class Labelled(Dataset):
            def __init__(self, images, targets, num_classes):
                self.images, self.targets = images, targets
                if (targets < 0).any() or targets >= num_classes:
                    raise ValueError("target out of range")
        ds = Labelled(torch.rand(10, 3, 8, 8), torch.randint(0, 5, (10,)), 5)
        """,
        # rewards clipped only outside a window a hyperparameter dict states: the window test asks a batch's truth
        """
        import torch
        hparams = {"clip_min": -1.0, "clip_max": 1.0, "gamma": 0.99}
        def clip_rewards(rewards):
            if hparams["clip_min"] <= rewards <= hparams["clip_max"]:
                return rewards
            return rewards.clamp(hparams["clip_min"], hparams["clip_max"])
        returns = clip_rewards(torch.randn(32)) * hparams["gamma"]
        """,
        # per-token losses of a tagger, from a helper, logged with `.item()`: the tags come from a reader the
        # analysis doesn't know, but an unreduced cross entropy keeps the logits' rows whatever its target is
        _TOKEN_LOSSES % "",
        # a multi-label model sized by the command line's options, its per-label losses (a mean over the batch only)
        # logged with `.item()`: `--labels` may be set to anything, but its default, 6, states a size over 1
        _OPTION_LABELS % "",
        # a siamese model's `forward` returns its contrastive loss per pair (`F.pairwise_distance` is one distance
        # per row): `backward()` on the (32,) losses of a batch
        _PAIR_LOSS % "",
        # a Dice loss module that sums over the batch and the pixels (axes named once, `dims = (0, 2, 3)`) keeps a
        # value per class: `backward()` on the (5,) losses, in a training helper the module is handed to
        _DICE_MODULE % "",
        # a pooled map whose sizes the analysis works out: (1, 4, 6) by a 2 x 2 kernel is (1, 2, 3)
        """
        import torch
        import torch.nn as nn

        def test_downsample():
            feature = torch.arange(24, dtype=torch.float).view(1, 4, 6)
            pooled = nn.AvgPool2d(2)(feature)
            assert pooled == feature.mean()
        """,
        # The same head acting on a batch of 32 frames whose size the code states: the greedy actions are 32.
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class DistributionalQ(nn.Module):
            def __init__(self, n_actions, n_atoms):
                super().__init__()
                self.n_actions, self.n_atoms = n_actions, n_atoms
                self.encoder = nn.Sequential(nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(),
                                             nn.Conv2d(32, 64, 4, stride=2), nn.ReLU())
                self.value_head = nn.Linear(5184, n_atoms)
                self.advantage_head = nn.Linear(5184, n_actions * n_atoms)

            def forward(self, obs):
                h = self.encoder(obs).view(-1, 5184)
                value = self.value_head(h).view(-1, 1, self.n_atoms)
                advantage = self.advantage_head(h).view(-1, self.n_actions, self.n_atoms)
                return F.softmax(value + advantage - advantage.mean(1, keepdim=True), dim=2)

        class Learner:
            def __init__(self, n_actions):
                self.q = DistributionalQ(n_actions, 51)
                self.atoms = torch.linspace(-10, 10, 51)

            def greedy(self):
                with torch.no_grad():
                    return (self.q(torch.rand(32, 4, 84, 84)) * self.atoms).sum(-1).argmax(-1).item()
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ev = evaluator(self.ctx)
        found = _found_here(ev, node)
        if found is not None:
            self.report(node, found)
        else:  # in a called function or forward
            where = runs.found_at_call(ev, node, _finding)
            if where is not None:
                self.report(*where)

    def _truth(self, node: cst.CSTNode) -> None:
        ev = evaluator(self.ctx)
        found = _found_here(ev, node)
        if found is not None:
            self.report(getattr(node, "test", node), found)

    visit_If = visit_While = visit_Assert = visit_IfExp = visit_BooleanOperation = _truth
    visit_UnaryOperation = visit_Comparison = _truth

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        if node.format_spec:
            found = _found_here(evaluator(self.ctx), node)
            if found is not None:
                self.report(node, found)


def _found_here(ev: ShapeEvaluator, node: cst.CSTNode) -> str | None:
    """The finding at the node being visited: as the bindings say, else in a pass of its function's run that
    certainly reached it, where a name a loop rebinds has its value (`while grad_norm > tol: grad_norm = ...`)."""
    found = _finding(ev, node, ev.now())
    if found is None and _may_need_one_element(ev, node):
        for version in ev.certain_runs(node):
            found = _finding(ev, node, version)
            if found is not None:
                break
    return found


def _may_need_one_element(ev: ShapeEvaluator, node: cst.CSTNode) -> bool:
    """Whether `node`, whatever its operands' shapes, is a conversion or a truth test `_finding` judges on an operand
    that may be a tensor: only then is a run of its function worth making (most calls and operations of a file are
    neither, and most tests are `x is None`, `k in d` or `not flag`)."""
    kind = type(node)
    if kind in (cst.If, cst.While):
        return False  # their tests are visited on their own
    if kind is cst.FormattedStringExpression:
        return True
    if kind is cst.Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is cst.Attribute and (func.attr.value in ("item", "backward")
                                            or ev.ctx.qualname(func) in BACKWARD_FUNCTIONS):
            return True
        if type(func) is cst.Name and func.value in CONVERSIONS:
            return True
    elif kind is cst.Comparison and len(node.comparisons) > 1:  # type: ignore[attr-defined]
        return True  # a chain's first link
    ancestors = ev.ctx.ancestors
    parent = ancestors[-2] if len(ancestors) > 1 and ancestors[-1] is node else None
    tested = _tested(node)
    if tested is None and type(parent) in (cst.If, cst.While) and parent.test is node:  # type: ignore[union-attr]
        tested = node  # type: ignore[assignment]
    if tested is None:
        return False
    tested = _last_operand(tested)
    if type(tested) is cst.UnaryOperation:
        return False  # reported where that operation tests its own operand
    return type(tested) is not cst.Comparison or may_be_tensor_comparison(tested)  # type: ignore[arg-type]


def _finding(ev: ShapeEvaluator, node: cst.CSTNode, before: int) -> str | None:
    """A conversion that needs one element, or a truth test, on a tensor that keeps a dim, as of `before`. A call
    can be both: a called function's `if mask.any(dim=1):` is a truth test whose node is the call."""
    if type(node) is cst.FormattedStringExpression:
        return _formatted(ev, node, before)  # type: ignore[arg-type]
    found = _converted(ev, node, before) if type(node) is cst.Call else None
    return found if found is not None else _truth_tested(ev, node, before)


def _formatted(ev: ShapeEvaluator, node: cst.FormattedStringExpression, before: int) -> str | None:
    """`f"{losses:.4f}"`: `Tensor.__format__` applies a format spec only to a 0-d tensor, so one of any known dims
    raises, (1,) too."""
    tensor = node.expression
    if not node.format_spec or before >= 0 and ev.ctx.is_foreign(tensor):
        return None
    shape = ev.shape_of(tensor, before)
    if shape is None or shape.variadic is not None or not shape.dims:
        return None
    return f"a format spec applied to {quoted(ev.ctx, tensor)}, a {shape.render()} tensor, raises TypeError (a tensor " \
           f"takes one only when it is 0-d): format `.item()` of it reduced (`.mean().item()`)"


def _converted(ev: ShapeEvaluator, node: cst.Call, before: int) -> str | None:
    """`.item()`, `float(t)` or a bare `.backward()` on a tensor that keeps a dim, as of `before`."""
    ctx = ev.ctx
    func = node.func
    tensor: cst.BaseExpression | None = None
    what = ""
    if type(func) is cst.Attribute and ctx.qualname(func) is None:
        method = func.attr.value
        if method == "item" and not node.args:
            tensor, what = func.value, "`.item()`"
        elif method == "backward" and _no_gradient(node, 0, "gradient"):
            tensor, what = func.value, "`.backward()` without `gradient=`"
    elif type(func) is cst.Name and func.value in CONVERSIONS and len(node.args) == 1 \
            and ev.object(func, before) == Imported("builtins." + func.value) and not node.args[0].star \
            and node.args[0].keyword is None:
        tensor, what = node.args[0].value, f"`{func.value}(...)`"
    elif ctx.qualname(func) in BACKWARD_FUNCTIONS and node.args and _no_gradient(node, 1, "grad_tensors"):
        tensor, what = node.args[0].value, "`torch.autograd.backward` without `grad_tensors=`"
    if tensor is None or before >= 0 and ctx.is_foreign(tensor):
        return None
    shape = ev.shape_of(tensor, before)
    if shape is None or not _several(shape):
        return None
    return f"{what} needs a one-element tensor, but {quoted(ctx, tensor)} is {shape.render()}: reduce it first " \
           f"(`.sum()`, `.mean()`)"


def _truth_tested(ev: ShapeEvaluator, node: cst.CSTNode, before: int) -> str | None:
    """`if t:`, `while t:`, `assert t`, `a if t else b`, `t and u`, `not t` and the first link of `0 <= t < n` ask
    a tensor for its truth, which only a one-element tensor has; so does `if ok and t:` of its last operand."""
    ctx = ev.ctx
    if type(node) is cst.Comparison and len(node.comparisons) > 1:  # type: ignore[attr-defined]
        first = node.comparisons[0]  # type: ignore[attr-defined]
        shape = _compared(ev, node.left, first.comparator, before)  # type: ignore[attr-defined]
        if shape is None or not _several(shape):
            return None
        link = f"{ctx.code(node.left)}{ctx.code(first.operator)}{ctx.code(first.comparator)}"  # type: ignore[attr-defined]
        return f"`{' '.join(link.split())}` in a chained comparison is a {shape.render()} tensor, whose truth Python " \
               f"asks for: use `&` between the two comparisons"
    tested = _tested(node)
    if tested is None:
        if not (before < 0 and id(node) in _tests(ev)):
            return None
        tested = node  # a called function's `if`, as its run's trace holds it: the test
    tested = _last_operand(tested)
    if type(tested) is cst.UnaryOperation or before >= 0 and ctx.is_foreign(tested):
        return None  # reported where that operation tests its own operand
    shape = ev.shape_of(tested, before)
    if shape is None or not _several(shape):
        return None
    return f"{quoted(ctx, tested)} is a {shape.render()} tensor: its truth is ambiguous (it raises); reduce it with " \
           f"`.all()` or `.any()`, or compare with `torch.equal`"


def _tested(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The operand whose truth `node` asks (not a chained comparison's, nor an `if`'s test's own): an `if`'s,
    `assert`'s or conditional's test, the left of `and`/`or`, the operand of `not`."""
    kind = type(node)
    if kind in (cst.If, cst.While, cst.Assert, cst.IfExp):
        return node.test  # type: ignore[attr-defined]
    if kind is cst.BooleanOperation:
        return node.left  # type: ignore[attr-defined]
    if kind is cst.UnaryOperation and type(node.operator) is cst.Not:  # type: ignore[attr-defined]
        return node.expression  # type: ignore[attr-defined]
    return None


def _tests(ev: ShapeEvaluator) -> frozenset[int]:
    """The tests of the file's `if` and `while` statements (the last operand of an `and`/`or` test)."""
    return ev.ctx.module_fact("SC107 tests", _tests_in)


def _tests_in(statement: cst.CSTNode) -> frozenset[int]:
    return frozenset(id(_last_operand(node.test)) for node in walk_statements(statement)
                     if type(node) in (cst.If, cst.While))


def _last_operand(test: cst.BaseExpression) -> cst.BaseExpression:
    """What a test asks the truth of besides the operands its `and`/`or` test themselves: `if ok and t:` asks `ok`
    (where the `and` is visited), then `t`."""
    while type(test) is cst.BooleanOperation:
        test = test.right  # type: ignore[attr-defined]
    return test


def _compared(ev: ShapeEvaluator, left: cst.BaseExpression, right: cst.BaseExpression, before: int) -> Shape | None:
    """The shape of `left < right` where one side is a tensor, the other a tensor or a number."""
    shapes = [ev.shape_of(side, before) for side in (left, right)]
    if shapes[0] is not None and shapes[1] is not None:
        return broadcast(shapes[0], shapes[1]).shape
    for shape, other in ((shapes[0], right), (shapes[1], left)):
        if shape is not None and is_number(ev, other, before):
            return shape
    return None


def _several(shape: Shape) -> bool:
    """The shape keeps a dim whose size is not known to be 1: of known rank, a size the code names or states, not
    one the analysis could not work out (what a `-1` leaves of a tensor of unknown size: `t.reshape(-1)` of a
    scalar is (1,); a pooled size of a kernel it does not know), nor one it named after a tensor whose rows nothing
    states (`x.size(0)` in a flatten of a followed call); of unknown rank, only a size the code states,
    more than 1 (`(..., 2)`, a (2,) loss compared with a value of unknown shape)."""
    if shape.rank is None:
        return any(dim.literal is not None and dim.literal > 1 for dim in shape.dims)
    return not all(_may_be_one(dim) for dim in shape.dims)


def _may_be_one(dim: Dim) -> bool:
    """1, or a size nothing states: one the analysis could not work out or named itself, a broadcast's size known
    only to be one of two such (`v + a` of two views' `-1`s, in a dueling head's `(v + a).argmax(1)`), or a
    quotient with such a size in it (a `-1` solved as `(16 * H_out * W_out) // self.features` after a conv of
    an input nothing sizes)."""
    if dim.literal == 1 or unsolved(dim) or _unnamed(dim):
        return True
    sides = either_sides(dim)
    if sides is not None:
        return all(_may_be_one(side) for side in sides)
    return any(operands is not None and any(_may_be_one(side) for side in operands)
               for operands in map(opaque_operands, dim.atoms))


def _unnamed(dim: Dim) -> bool:
    """A size the analysis named after the tensor it measures (`x.size(0)` of a tensor of unknown shape), which no
    name or literal of the code states: whatever it is, 1 included."""
    return any(atom.placeholder for atom in dim.atoms)


def _no_gradient(call: cst.Call, index: int, keyword: str) -> bool:
    if keyword_arg(call, keyword) is not None or any(arg.star for arg in call.args):
        return False
    return sum(1 for arg in call.args if arg.keyword is None) <= index
