"""SC208 graph-kept-alive: a loss (or model output) that carries its graph accumulated across iterations."""

from __future__ import annotations

from contextlib import nullcontext

import libcst as cst

from shapecheck.engine import Binding, Context, Invalid, Rule
from shapecheck.engine.records import record
from shapecheck.engine import flow
from shapecheck.engine.syntax import dotted_name, last_name
from shapecheck.engine.walker import walk
from shapecheck.loops.training_loop import Event, TrainingLoop, called_module, names_in, related, training_loop
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.values import Instance
from shapecheck.loops.surroundings import in_test, is_test_file, lightning_module
from shapecheck.shapes.evaluator import evaluator

# Calls that give a value without the graph: `loss.item()`, `float(loss)`, `loss.detach()`, `loss.tolist()`.
_VALUE_METHODS = frozenset({"item", "detach", "detach_", "tolist", "numpy", "data"})
_VALUE_FUNCTIONS = frozenset({"float", "int", "bool", "round", "abs"})
# Methods and attributes that read a tensor's sizes, not its values: `pred.numel()`, `x.size(0)` are Python ints.
_SIZE_READS = frozenset({"size", "numel", "nelement", "dim", "ndimension", "ndim", "shape", "element_size"})
_NO_GRAPH = _VALUE_METHODS | _SIZE_READS
# how many assignments back a backward pass's loss is followed to the names it was computed from
_COMPUTED_DEPTH = 4


# Detectron's training stats: the stats object hands each loss on to a smoothed value; `%s` is what the smoothed
# value does with it before it keeps it.
_TRAINING_STATS = """
        from collections import deque
        import torch
        class SmoothedValue:
            def __init__(self, window_size=20):
                self.deque = deque(maxlen=window_size)
            def add_value(self, value):%s
                self.deque.append(value)
        class TrainingStats:
            def __init__(self, window=20):
                self.smoothed_total_loss = SmoothedValue(window)
            def update_stats(self, total_loss):
                self.smoothed_total_loss.add_value(total_loss)
        def train(model, loader, optimizer):
            stats = TrainingStats()
            for images, targets in loader:
                total_loss = sum(model(images, targets).values())
                optimizer.zero_grad()
                total_loss.backward()
                optimizer.step()
                stats.update_stats(total_loss)
        """


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class _Bound:
    """What `finish` reads of a binding: the syntax it was made of (the binding itself is the lint's)."""

    kind: str
    value: cst.BaseExpression | None
    loop: cst.CSTNode | None
    statement: cst.CSTNode | None  # the statement that binds it: whether a step method makes its list anew

    @classmethod
    def of(cls, binding: Binding) -> _Bound:
        return cls(binding.kind, binding.value, binding.loop, binding.statement)


@record(slots=True, unsafe_hash=True)
class _Accumulation:
    node: cst.CSTNode
    accumulator: str
    init: _Bound | None  # the accumulator's binding before any `+=` / `append`
    graph_names: tuple[tuple[str, _Bound], ...]  # names in the accumulated value that may carry a graph
    # `samples.append(G(z))`: the module whose output is kept; `samples.append(fake)`: the modules called where
    # the names were bound (`fake = G(z)`), kept when called with autograd on (`finish` asks the file's calls)
    module: str | None
    value: cst.BaseExpression  # what is accumulated: `finish` asks whether the call of `module` returns a number
    outputs: tuple[tuple[str, cst.Call], ...]
    function: cst.FunctionDef | None
    loops: tuple[cst.CSTNode, ...]  # none: a method that adds to an attribute of its object on each call
    lightning_step: bool  # in a LightningModule's `training_step`, whose returned loss the trainer backpropagates


# Written once for a VALID look-alike and its INVALID twin: a translation GAN's pool of generated images shown to the
# discriminator (the Hands-On GANs CycleGAN's ImageBuffer); `%s` is the pool's `swap` body.
_FAKE_POOL = """
        import itertools
        import random

        import torch
        import torch.nn.functional as F

        class FakePool:
            def __init__(self, size=50):
                self.size = size
                self.images = []

            def swap(self, image):%s

        class Translator:
            def __init__(self, netG, netD):
                self.netG = netG
                self.netD = netD
                self.opt_g = torch.optim.Adam(itertools.chain(self.netG.parameters()), lr=2e-4)
                self.opt_d = torch.optim.Adam(self.netD.parameters(), lr=2e-4)

            def fit(self, loader, epochs):
                pool = FakePool()
                for epoch in range(epochs):
                    for real_a, real_b in loader:
                        self.opt_g.zero_grad()
                        fake_b = self.netG(real_a)
                        g_loss = F.mse_loss(self.netD(fake_b), torch.ones(real_a.size(0), 1)) + F.l1_loss(fake_b, real_b)
                        g_loss.backward()
                        self.opt_g.step()
                        self.opt_d.zero_grad()
                        fake_b = pool.swap(fake_b)
                        d_loss = F.mse_loss(self.netD(fake_b.detach()), torch.zeros(real_a.size(0), 1))
                        d_loss.backward()
                        self.opt_d.step()
        """
_BOUNDED_SWAP = """
                if len(self.images) < self.size:
                    self.images.append(image)
                    return image
                slot = random.randrange(self.size)
                old = self.images[slot]
                self.images[slot] = image
                return old"""
_GROWING_SWAP = """
                self.images.append(image)
                return random.choice(self.images)"""


# A detector's training loop whose criterion returns a dict of losses, one of them the total it backpropagates; `%s`
# is how the loop logs the dict.
_LOSS_DICT_LOOP = """
        from collections import defaultdict
        import torch
        def train(detector, criterion, loader, optimizer, epochs):
            running = defaultdict(list)
            for epoch in range(epochs):
                for images, targets in loader:
                    loss_dict = criterion(detector(images), targets)
                    optimizer.zero_grad()
                    loss_dict["total"].backward()
                    optimizer.step()%s
                print(epoch, {name: sum(values) / len(values) for name, values in running.items()})
        """


class GraphKeptAlive(Rule):
    code = "SC208"
    name = "graph-kept-alive"
    message = "a tensor that carries the autograd graph is accumulated across iterations: accumulate `.item()`"
    triggers = ("backward", "training_step")
    # The visits gather the accumulations in loops, and in methods that add to an attribute of their object (a
    # step called once per batch); `finish` decides with the whole file which keep a graph.
    scope = "statement"
    gathered = ("_found",)
    docs = """
        ## What it does
        Finds a training loop that accumulates, across its iterations, a tensor that carries the autograd graph
        when only its value is used later: `total_loss += loss`, `epoch_loss += loss / n`, `history.append(loss)`
        or `history["loss"].append(loss)` (also `state.losses.append(loss)` into an object made outside the
        loop, and `stats.setdefault("loss", []).append(loss)`) where `loss.backward()` runs in the same loop
        (or in a same-file step method that returns it: `loss = self.train_step(x, y)` after `loss.backward(); return loss`), or
        `samples.append(G(z))` where the loop steps an optimizer holding `G`'s parameters, or
        `losses.update(loss, n)` of a project class whose method adds what it is given to an attribute (not a pool
        that appends only while `len(self.images)` is under its depth and then replaces an element)
        (an `AverageMeter` with `self.sum += val * n`) or hands to a method of an object its `__init__` made that
        does (a stats logger's `self.smoothed_total_loss.add_value(total_loss)`), unless it makes a number of it
        first (`value = float(value)`). A method called once per step accumulates across its
        calls: `self.cost_his.append(loss)` after `loss.backward()` in the method, into an attribute made
        elsewhere (`__init__`), or a LightningModule's `training_step` keeping the loss it returns (the trainer
        backpropagates it). A dict of losses whose item the loop backpropagates (`loss_dict["total"].backward()`)
        keeps its graph in each part: an item read by key (`running["total"].append(loss_dict["total"])`) or a
        value of a loop over its `items()` / `values()` (`for name, value in loss_dict.items():
        running[name].append(value)`). The accumulator must be created outside the loop (a sum of the parts of one
        iteration's loss is not accumulation across iterations).

        Not reported: `loss.item()`, `float(loss)`, `loss.detach()`, `loss.data`, `loss.tolist()`, sizes
        (`pred.numel()`, `pred.size(0)`: Python ints), what a function of the file returns when every `return`
        gives a Python number (`.item()`, `float(...)`, `math.log(...)` sums; what reaches the `return`: a step
        method's `loss = loss.item()` before `return loss`), a dict whose
        loss item is replaced by its value (`output["loss"] = output["loss"].detach()`); code under
        `torch.no_grad()` / `inference_mode()`; an accumulator that is itself backpropagated later
        (`total.backward()`, `torch.stack(losses).mean().backward()`, or a loss computed from it first:
        `meta_loss = torch.stack(task_losses).mean()` then `meta_loss.backward()`; gradient accumulation or a
        meta-batch on purpose); a sum made anew for each optimizer step (per batch over its micro-batches, or in a
        step function that steps once per call); lists built in `forward()` (no backward runs there); and tests.

        ## Why is this bad?
        Every `total += loss` links this iteration's graph into `total`, so no iteration's graph can be freed:
        memory grows every step until the process runs out. The PyTorch FAQ ("My model reports 'cuda runtime
        error(2): out of memory'"): "Don't accumulate history across your training loop. By default, computations
        involving variables that require gradients will keep history. ... `total_loss += loss` Here, total_loss
        is accumulating history across your training loop, since loss is a differentiable variable with autograd
        history. You can fix this by writing total_loss += float(loss) instead." The primer's loops do the same:
        "running_loss += loss.item()".

        ## Example
        ```python
        total_loss = 0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss
        ```

        ## Use instead
        ```python
        total_loss = 0.0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        ```

        This rule has no fix: `.item()` synchronises with the GPU every step; `.detach()` does not. Which one
        fits is the author's call.
    """
    VALID = [
        # a pool that keeps at most `size` images, replacing one once full: the generator's graphs of 50 steps, which
        # their backward passes already freed, not one per step
        _FAKE_POOL % _BOUNDED_SWAP,
        # TRI-ML/packnet-sfm after its fix: the loss in the step's output dict replaced by its detached value.
        """
        import torch
        def train(dataloader, module, optimizer):
            outputs = []
            for i, batch in enumerate(dataloader):
                optimizer.zero_grad()
                output = module.training_step(batch, i)
                output["loss"].backward()
                optimizer.step()
                output["loss"] = output["loss"].detach()
                outputs.append(output)
            return outputs
        """,
        # A step method that starts its list anew on each call; a LightningModule keeping the detached loss.
        """
        import torch
        import lightning.pytorch as pl
        class Agent:
            def __init__(self, net):
                self.opt = torch.optim.Adam(net.parameters())
                self.net = net
            def learn(self, x, y):
                self.losses = []
                loss = torch.nn.functional.mse_loss(self.net(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.losses.append(loss)
        class Model(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(4, 2)
                self.training_step_outputs = []
            def training_step(self, batch, batch_idx):
                x, y = batch
                loss = torch.nn.functional.cross_entropy(self.layer(x), y)
                self.training_step_outputs.append(loss.detach())
                return loss
        """,
        # The sum spelled out, of the value only; and a sum of a loss with a regulariser inside one step.
        """
        import torch
        for epoch in range(epochs):
            epoch_loss = 0.0
            for x, y in data:
                opt.zero_grad()
                loss = F.l1_loss(model(x), y)
                loss = loss + 0.01 * reg
                loss.backward()
                opt.step()
                epoch_loss = epoch_loss + loss.item()
        """,
        # hysts/pytorch_image_classification: a batch split into chunks; the list of chunk losses is made anew for
        # each optimizer step.
        """
        import torch
        for step, (data, targets) in enumerate(train_loader):
            optimizer.zero_grad()
            losses = []
            for data_chunk, target_chunk in zip(data.chunk(4), targets.chunk(4)):
                loss = loss_func(model(data_chunk), target_chunk)
                losses.append(loss)
                loss.backward()
            optimizer.step()
            loss = sum(losses)
        """,
        # The primer's loop: the value only.
        """
        import torch
        running_loss = 0.0
        for images, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item() * labels.size(0)
        """,
        # A normalizing flow's inverse pass: each flow's own `backward(z)` returns the inverse and its log-det
        # (autograd's returns None), so the loop keeps the intermediate samples, it does not train.
        """
        import torch
        import torch.nn as nn


        class FlowStack(nn.Module):
            def __init__(self, flows):
                super().__init__()
                self.flows = nn.ModuleList(flows)

            def inverse(self, z):
                log_det = torch.zeros(z.size(0))
                xs = [z]
                for flow in self.flows[::-1]:
                    z, ld = flow.backward(z)
                    log_det += ld
                    xs.append(z)
                return xs, log_det
        """,
        # A link predictor's epoch: the count of examples is read off the prediction's sizes, a Python int.
        """
        import torch
        import torch.nn.functional as F
        model = LinkPredictor(hidden_channels=32).to(device)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
        def train():
            model.train()
            total_loss = total_examples = 0
            for batch in train_loader:
                optimizer.zero_grad()
                pred = model(batch.x, batch.edge_index, batch.edge_label_index)
                loss = F.binary_cross_entropy_with_logits(pred, batch.edge_label)
                loss.backward()
                optimizer.step()
                total_loss += float(loss) * pred.size(0)
                total_examples += pred.numel()
            return total_loss / total_examples
        """,
        # Cross-validation folds: the fold's score comes from a helper of the file that returns a Python float,
        # though the training above reused the name `loss` for the criterion's output.
        """
        import math
        import torch
        import torch.nn as nn
        def log_loss(probs, labels):
            total = 0.0
            for p, y in zip(probs, labels):
                total += math.log(max(1e-15, p[y]))
            return -total / len(probs)
        def top1(probs, labels):
            return (probs.argmax(1) == labels).float().mean().item()
        total_loss = 0
        for fold, (train_idx, test_idx) in enumerate(folds):
            model = build_model()
            optimizer = torch.optim.Adam(model.parameters())
            for epoch in range(10):
                optimizer.zero_grad()
                loss = nn.CrossEntropyLoss()(model(x[train_idx]), y[train_idx])
                loss.backward()
                optimizer.step()
            probs = model(x[test_idx]).softmax(1).tolist()
            loss = log_loss(probs, y[test_idx])
            total_loss += loss
            accuracy = top1(model(x[test_idx]), y[test_idx])
            total_loss += accuracy
        """,
        # nanoGPT-style: a detached copy, and a float.
        """
        import torch
        losses = []
        total = 0.0
        for step, (x, y) in enumerate(loader):
            logits, loss = model(x, y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            losses.append(loss.detach())
            total += float(loss)
        """,
        # Gradient accumulation: the sum is backpropagated.
        """
        import torch
        for batch in loader:
            total = 0
            for chunk in batch.split(4):
                part = criterion(model(chunk), target)
                part.backward(retain_graph=True)
                total += part
            total.backward()
            optimizer.step()
            optimizer.zero_grad()
        """,
        # oscarknagg/few-shot's MAML: each task's loss is kept for the meta-batch's backward pass, through a name.
        """
        import torch
        import torch.nn.functional as F
        def meta_step(model, optimiser, tasks, inner_lr):
            task_losses = []
            for x_train, y_train, x_val, y_val in tasks:
                weights = dict(model.named_parameters())
                loss = F.cross_entropy(model.functional_forward(x_train, weights), y_train)
                grads = torch.autograd.grad(loss, weights.values(), create_graph=True)
                weights = {name: w - inner_lr * g for (name, w), g in zip(weights.items(), grads)}
                loss = F.cross_entropy(model.functional_forward(x_val, weights), y_val)
                loss.backward(retain_graph=True)
                task_losses.append(loss)
            optimiser.zero_grad()
            meta_loss = torch.stack(task_losses).mean()
            meta_loss.backward()
            optimiser.step()
        """,
        # Several losses summed within one iteration, then backpropagated.
        """
        import torch
        for x, y in loader:
            loss = 0
            for head in heads:
                loss += criterion(head(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        """,
        # Validation under no_grad keeps no graph.
        """
        import torch
        val_loss = 0
        with torch.no_grad():
            for x, y in val_loader:
                loss = criterion(model(x), y)
                val_loss += loss
        for x, y in train_loader:
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        """,
        # A forward() collecting its layers' outputs.
        """
        import torch
        class Net(torch.nn.Module):
            def forward(self, x):
                outs = []
                for layer in self.layers:
                    x = layer(x)
                    outs.append(x)
                return torch.cat(outs, 1)
        """,
        # practical-pytorch char-rnn: the helper backpropagates its own `loss` and returns the value.
        """
        import torch
        def train(category_tensor, line_tensor):
            optimizer.zero_grad()
            output = rnn(line_tensor)
            loss = criterion(output, category_tensor)
            loss.backward()
            optimizer.step()
            return output, loss.item()
        current_loss = 0
        for epoch in range(1, n_epochs + 1):
            output, loss = train(category_tensor, line_tensor)
            current_loss += loss
        """,
        # yihong-chen/neural-collaborative-filtering's engine: the step method rebinds its loss to the value before
        # returning it, so the epoch sums floats.
        """
        import torch
        class Engine:
            def __init__(self, model, config):
                self.model = model
                self.opt = torch.optim.Adam(model.parameters(), lr=config["lr"])
                self.crit = torch.nn.BCELoss()
            def train_single_batch(self, users, items, ratings):
                self.opt.zero_grad()
                ratings_pred = self.model(users, items)
                loss = self.crit(ratings_pred.view(-1), ratings)
                loss.backward()
                self.opt.step()
                loss = loss.item()
                return loss
            def train_an_epoch(self, train_loader, epoch_id):
                self.model.train()
                total_loss = 0
                for batch_id, (user, item, rating) in enumerate(train_loader):
                    loss = self.train_single_batch(user, item, rating.float())
                    total_loss += loss
                return total_loss
        """,
        # Losses kept to backpropagate their sum once.
        """
        import torch
        losses = []
        for x, y in zip(xs, ys):
            loss = criterion(model(x), y)
            loss.backward(retain_graph=True)
            losses.append(loss)
        torch.stack(losses).sum().backward()
        """,
        # The generator's samples are kept under no_grad.
        """
        import torch
        samples = []
        for epoch in range(epochs):
            g_loss = criterion(D(G(z)), valid)
            optimizer_G.zero_grad()
            g_loss.backward()
            optimizer_G.step()
            with torch.no_grad():
                samples.append(G(fixed_z))
        """,
        # A Keras-style history dict of plain numbers.
        """
        import torch
        from collections import defaultdict
        history = defaultdict(list)
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                history["loss"].append(loss.item())
                history["lr"].append(optimizer.param_groups[0]["lr"])
        """,
        # The same state and stats logs holding numbers and detached copies.
        """
        import torch
        from dataclasses import dataclass, field
        @dataclass
        class TrainState:
            losses: list = field(default_factory=list)
            outputs: list = field(default_factory=list)
        def train(model, loader, optimizer, criterion, stats, epochs):
            state = TrainState()
            for epoch in range(epochs):
                for x, y in loader:
                    optimizer.zero_grad()
                    out = model(x)
                    loss = criterion(out, y)
                    loss.backward()
                    optimizer.step()
                    state.losses.append(float(loss))
                    state.outputs.append(out.detach().cpu())
                    stats.setdefault("loss", []).append(loss.item())
                    stats.setdefault("out", []).append(out.detach().cpu())
            return state
        """,
        # xbresson/CE7454's GatedGCN lab: the model's own accuracy method returns `.item()`, a number.
        """
        import torch
        import torch.nn as nn
        class GatedGCNNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 3)
            def forward(self, x):
                return self.fc(x)
            def accuracy(self, scores, targets):
                scores = scores.detach().argmax(dim=1)
                acc = (scores == targets).float().sum().item()
                return acc
        net = GatedGCNNet()
        optimizer = torch.optim.Adam(net.parameters())
        def train_one_epoch(net, loader):
            epoch_train_acc = 0
            for x, y in loader:
                scores = net.forward(x)
                loss = torch.nn.functional.cross_entropy(scores, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                epoch_train_acc += net.accuracy(scores, y)
            return epoch_train_acc
        """,
        # Step methods that return the loss's value, or a loss they never backpropagate (an evaluation).
        """
        import torch
        class Trainer:
            def train_step(self, x, y):
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                return loss.detach()
            def eval_step(self, x, y):
                with torch.no_grad():
                    loss = torch.nn.functional.mse_loss(self.model(x), y)
                return loss
            def fit(self, loader):
                losses, val_losses = [], []
                for x, y in loader:
                    loss = self.train_step(x, y)
                    losses.append(loss)
                    val_loss = self.eval_step(x, y)
                    val_losses.append(val_loss)
        """,
        # A meter that keeps the last value only, and one handed the number.
        """
        import torch
        class LastValue:
            def update(self, val):
                self.val = val
        def train(model, loader, optimizer, criterion, meter):
            last = LastValue()
            for images, target in loader:
                loss = criterion(model(images), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                last.update(loss)
                meter.update(loss.item(), images.size(0))
        """,
        # A GAN epoch's running totals seeded on the first batch, of the losses' values.
        """
        import torch
        def train_epoch(netD, netG, loader, optD, optG, criterion, nz):
            d_total = g_total = None
            for real in loader:
                fake = netG(torch.randn(real.size(0), nz))
                d_loss = criterion(netD(real), torch.ones(real.size(0))) + \
                    criterion(netD(fake.detach()), torch.zeros(real.size(0)))
                optD.zero_grad()
                d_loss.backward()
                optD.step()
                g_loss = criterion(netD(fake), torch.ones(real.size(0)))
                optG.zero_grad()
                g_loss.backward()
                optG.step()
                d_total = d_loss.item() if d_total is None else d_total + d_loss.item()
                g_total = g_loss.detach() if g_total is None else g_total + g_loss.detach()
            return d_total, g_total
        """,
        # sentence-transformers' MatryoshkaLoss: the weighted loss of each truncation summed within one call, and the
        # truncations backpropagated with the weights as their gradients; the weights are numbers.
        """
        import torch
        def matryoshka_loss(fn, reps, dims, weights, shrink):
            loss = 0.0
            for idx in range(len(dims)):
                weight = weights[idx]
                truncated = [shrink(r, dims[idx]) for r in reps]
                detached = [r.detach().requires_grad_() for r in truncated]
                loss += weight * fn(detached)
                for t, d in zip(truncated, detached):
                    t.backward(weight * d.grad)
            return loss
        """,
        # Detectron's stats object whose smoothed values turn what they are given into a number first.
        _TRAINING_STATS % "\n                value = float(value)",
        # deep-daze's train_step: one optimizer step per call over micro-batches, their losses summed for the log.
        # The sum is made on each call and the caller reads it with `.item()`: the graphs go at the next step.
        """
        import torch
        import torch.nn.functional as F

        class ChunkedTrainer:
            def __init__(self, model, accumulate=4):
                self.model = model
                self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
                self.scaler = torch.cuda.amp.GradScaler()
                self.accumulate = accumulate

            def update(self, batch, target):
                running = 0.0
                for part, goal in zip(batch.chunk(self.accumulate), target.chunk(self.accumulate)):
                    loss = F.mse_loss(self.model(part), goal) / self.accumulate
                    self.scaler.scale(loss).backward()
                    running += loss
                self.scaler.step(self.opt)
                self.scaler.update()
                self.opt.zero_grad()
                return running

            def fit(self, loader):
                for batch, target in loader:
                    print(self.update(batch, target).item())
        """,
        # The dict's parts logged as numbers, detached, or through a dict of numbers made each step.
        _LOSS_DICT_LOOP % """
                    for name, value in loss_dict.items():
                        running[name].append(value.item())
                    for value in loss_dict.values():
                        running["sum"].append(value.detach())
                    scalars = {name: float(value) for name, value in loss_dict.items()}
                    running["total"].append(scalars["total"])
                    loss_dict = {name: value.detach() for name, value in loss_dict.items()}
                    for name, value in loss_dict.items():
                        running[name].append(value)""",
    ]
    INVALID = [
        # the same pool growing by one image per step
        _FAKE_POOL % _GROWING_SWAP,
        # The function makes the sum once and steps once per epoch: the sum outlives every step, and keeps every
        # epoch's graphs.
        """
        import torch.nn.functional as F

        def fit(model, opt, loader, epochs):
            history = 0
            for epoch in range(epochs):
                opt.zero_grad()
                for x, y in loader:
                    loss = F.mse_loss(model(x), y)
                    loss.backward()
                    history += loss
                opt.step()
            return history
        """,
        # The same running totals of the loss tensors, seeded on the first batch (a RecBole trainer before its fix,
        # the loss aliased under another name for the backward pass): every batch's graph lives until the epoch ends.
        """
        import torch
        def train_epoch(netD, netG, loader, optD, optG, criterion, nz):
            d_total = None
            for real in loader:
                fake = netG(torch.randn(real.size(0), nz))
                losses = criterion(netD(real), torch.ones(real.size(0))) + \
                    criterion(netD(fake.detach()), torch.zeros(real.size(0)))
                d_loss = losses
                optD.zero_grad()
                d_loss.backward()
                optD.step()
                d_total = losses if d_total is None else d_total + losses
            return d_total
        """,
        # TRI-ML/packnet-sfm before its fix: the step's output dict, whose "loss" was backpropagated, kept per batch.
        """
        import torch
        def train(dataloader, module, optimizer):
            outputs = []
            for i, batch in enumerate(dataloader):
                optimizer.zero_grad()
                output = module.training_step(batch, i)
                output["loss"].backward()
                optimizer.step()
                outputs.append(output)
            return outputs
        """,
        # MorvanZhou's DQN ported to PyTorch: `learn()` runs once per environment step and keeps each loss.
        """
        import torch
        class DeepQNetwork:
            def __init__(self, net):
                self.eval_net = net
                self.optimizer = torch.optim.RMSprop(net.parameters(), lr=0.01)
                self.cost_his = []
            def learn(self, x, q_target):
                loss = torch.nn.functional.mse_loss(self.eval_net(x), q_target)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.cost_his.append(loss)
        """,
        # A LightningModule keeping each step's loss for the epoch's end: the trainer backpropagates what
        # training_step returns, and the list keeps every step's graph until the epoch ends.
        """
        import torch
        import lightning.pytorch as pl
        class Model(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(4, 2)
                self.training_step_outputs = []
            def training_step(self, batch, batch_idx):
                x, y = batch
                loss = torch.nn.functional.cross_entropy(self.layer(x), y)
                self.training_step_outputs.append(loss)
                return loss
            def on_train_epoch_end(self):
                self.log("epoch_mean", torch.stack(self.training_step_outputs).mean())
                self.training_step_outputs.clear()
        """,
        # The sum spelled out.
        """
        import torch
        for epoch in range(epochs):
            epoch_loss = 0
            for x, y in data:
                opt.zero_grad()
                loss = F.l1_loss(model(x), y)
                loss.backward()
                opt.step()
                epoch_loss = epoch_loss + loss
        """,
        """
        import torch
        total_loss = 0
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss
        """,
        """
        import torch
        def train(model, loader, optimizer):
            epoch_loss = 0
            for x, y in loader:
                loss = criterion(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                epoch_loss += loss / len(loader)
            return epoch_loss
        """,
        """
        import torch
        history = []
        for epoch in range(epochs):
            for x, y in loader:
                loss = criterion(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            history.append(loss)
        """,
        # The PyTorch-GAN / DCGAN notebooks: samples kept with the generator's graph.
        """
        import torch
        optimizer_G = torch.optim.Adam(G.parameters(), lr=2e-4)
        samples = []
        for epoch in range(epochs):
            for real in loader:
                g_loss = criterion(D(G(torch.randn(64, 100))), valid)
                optimizer_G.zero_grad()
                g_loss.backward()
                optimizer_G.step()
            samples.append(G(fixed_z))
        """,
        # The udacity GAN notebooks: a sample generated in eval mode with autograd on, kept every epoch.
        """
        import torch
        g_optimizer = torch.optim.Adam(G.parameters(), lr=2e-4)
        samples = []
        for epoch in range(num_epochs):
            for real_images, _ in train_loader:
                g_optimizer.zero_grad()
                g_loss = real_loss(D(G(torch.randn(64, 100))))
                g_loss.backward()
                g_optimizer.step()
            G.eval()
            samples_z = G(fixed_z)
            samples.append(samples_z)
            G.train()
        """,
        # The same history dict fed the loss tensor itself.
        """
        import torch
        history = {"train_loss": [], "val_loss": []}
        for epoch in range(epochs):
            for x, y in loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                history["train_loss"].append(loss)
        """,
        # A trainer's state dataclass, and a stats dict filled through `setdefault`, that log the loss tensor.
        Invalid(
            """
            import torch
            from dataclasses import dataclass, field
            @dataclass
            class TrainState:
                losses: list = field(default_factory=list)
                step: int = 0
            def train(model, loader, optimizer, criterion, stats):
                state = TrainState()
                for x, y in loader:
                    optimizer.zero_grad()
                    loss = criterion(model(x), y)
                    loss.backward()
                    optimizer.step()
                    state.step += 1
                    state.losses.append(loss)
                    stats.setdefault("loss", []).append(loss)
                return state
            """,
            count=2,
        ),
        # A trainer's step method backpropagates and returns the loss tensor, which the epoch loop keeps.
        """
        import torch
        class Trainer:
            def __init__(self, model, optimizer):
                self.model, self.optimizer = model, optimizer
                self.history = []
            def train_step(self, x, y):
                self.optimizer.zero_grad()
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                return loss
            def fit(self, loader, epochs):
                for epoch in range(epochs):
                    for x, y in loader:
                        loss = self.train_step(x, y)
                        self.history.append(loss)
        """,
        # The step method takes the loss's value only on logging steps and returns the tensor on the others.
        """
        import torch
        class Trainer:
            def __init__(self, model, optimizer, log_every=50):
                self.model, self.optimizer, self.log_every = model, optimizer, log_every
                self.step = 0
            def train_step(self, x, y):
                self.optimizer.zero_grad()
                loss = torch.nn.functional.cross_entropy(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                self.step += 1
                if self.step % self.log_every == 0:
                    loss = loss.item()
                    print(self.step, loss)
                return loss
            def fit(self, loader):
                running = 0.0
                for x, y in loader:
                    loss = self.train_step(x, y)
                    running += loss
                return running
        """,
        # The ImageNet example's meter handed the loss itself.
        """
        import torch
        import torch.nn as nn
        class AverageMeter:
            def __init__(self):
                self.val, self.sum, self.count = 0, 0, 0
            def update(self, val, n=1):
                self.val = val
                self.sum += val * n
                self.count += n
        def train(model, loader, optimizer, criterion):
            losses = AverageMeter()
            for images, target in loader:
                loss = criterion(model(images), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                losses.update(loss, images.size(0))
        """,
        # Detectron's training stats keeping every iteration's loss in a window.
        _TRAINING_STATS % "",
        # Each part of the dict, the backpropagated total among them, kept with its graph until the epoch ends; or
        # the total read by its key.
        Invalid(_LOSS_DICT_LOOP % """
                    for name, value in loss_dict.items():
                        running[name].append(value)""", count=1),
        _LOSS_DICT_LOOP % """
                    running["total"].append(loss_dict["total"])""",
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._found: list[_Accumulation] = []

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if type(node.operator) is cst.AddAssign:
            self._accumulate(node, node.target, node.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        added = _added_to_itself(node)  # `total = total + loss`, as `total += loss`
        if added is not None:
            self._accumulate(node, node.targets[0].target, added)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is not cst.Attribute:
            return
        if func.attr.value == "append" and len(node.args) == 1:
            self._accumulate(node, func.value, node.args[0].value)
        elif node.args and self.ctx.loops and not self.ctx.grad_disabled and dotted_name(func.value) is not None \
                and self.ctx.qualname(func) is None:
            # `losses.update(loss, n)` of an AverageMeter summing what it is given
            for accumulated in self._kept_by_method(node, func):
                if self._accumulate(node, func.value, accumulated):
                    break

    def _kept_by_method(self, call: cst.Call, func: cst.Attribute) -> list[cst.BaseExpression]:
        """The arguments of `meter.update(loss, n)` that the project class's method adds to an attribute of its
        object (`self.sum += val * n`, `self.history.append(val)`): the object accumulates them as a list would."""
        receiver = evaluator(self.ctx).value(func.value)
        if not isinstance(receiver, Instance):
            return []
        method = _method(receiver, func.attr.value)
        if method is None:
            return []
        passed = (passed_argument(method, call, name) for name in _parameters_kept(method, receiver))
        return [arg for arg in passed if arg is not None]

    def _accumulate(self, node: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """Gather the accumulation of `value` into `target` when it may keep a graph; whether it did."""
        ctx = self.ctx
        if ctx.grad_disabled:
            return False
        # `history["loss"].append(loss)`, `logs[k] += loss`, `stats.setdefault("loss", []).append(loss)`: the
        # container keeps the graph as a list would.
        target = _container(target)
        accumulator = dotted_name(target)
        # `for key, value in losses.items(): history[key].append(value)`: each part of the step's dict of losses is
        # kept as the dict would be; the loop over its parts repeats nothing across steps
        bound = [(name, ctx.binding(name)) for name in _graph_names(value)]
        parts = [(name, binding) for name, binding in bound if binding is not None and _dict_part(binding) is not None]
        over_parts = [binding.statement for _, binding in parts]
        bound = [entry for entry in bound if entry not in parts] + [
            (name, ctx.binding(name, binding.seq)) for _, binding in parts
            for name in _graph_names(_dict_part(binding))]  # type: ignore[arg-type]  # not None in `parts`
        loops = tuple(loop for loop in ctx.loops if loop not in over_parts)
        # Outside a loop, a method adding to an attribute of its object accumulates across its calls: a step
        # method called once per batch (`self.cost_his.append(loss)`).
        if accumulator is None or not loops and (ctx.class_def is None or not accumulator.startswith("self.")):
            return False
        names = tuple((name, binding) for name, binding in bound if binding is not None and _may_carry_graph(binding))
        if not names and type(value) is not cst.Call or in_test(ctx):
            return False
        outputs = tuple((module, binding.value) for _, binding in names if binding.kind == "assign"
                        and type(binding.value) is cst.Call and (module := called_module(binding.value)) is not None)
        initial = self._initial(target)
        lightning_step = ctx.function is not None and ctx.function.name.value == "training_step" \
            and lightning_module(ctx)
        self._found.append(_Accumulation(
            node, accumulator, _Bound.of(initial) if initial is not None else None,
            tuple((name, _Bound.of(binding)) for name, binding in names),
            called_module(value) if type(value) is cst.Call else None, value, outputs, ctx.function, loops,
            lightning_step))
        return True

    def _modules(self, found: _Accumulation) -> list[str]:
        """The modules whose outputs the accumulated value keeps, the names' only when called with autograd on."""
        # `net.accuracy(scores, y)` of a method returning `.item()` runs no module: its number keeps no graph
        modules = [found.module] if found.module is not None and not _returns_number(self.ctx, found.value) else []
        for module, call in found.outputs:
            sites = self.ctx.calls_to(last_name(call.func))
            if any(site.node is call and not site.grad_disabled for site in sites):
                modules.append(module)
        return modules

    def _initial(self, target: cst.BaseExpression) -> Binding | None:
        """The binding that created the accumulator, before any `+=` to it. For an attribute of an object other than
        `self` (`state.losses`, whose assignments the bindings do not follow), the object's binding: the list lives
        as long as the object, unless a statement of the loop sets the attribute anew."""
        binding = self.ctx.binding(target)
        if binding is None and type(target) is cst.Attribute and self.ctx.loops and not self._attribute_set(target):
            root = target
            while type(root) is cst.Attribute:
                root = root.value
            if type(root) is cst.Name and root.value != "self":
                binding = self.ctx.binding(root)
        for _ in range(64):
            if binding is None or binding.kind != "aug" and _added_to_itself(binding.statement) is None \
                    and not _updated_once_seeded(binding.statement, dotted_name(target)):
                return binding
            binding = self.ctx.binding(target, binding.seq)
        return None

    def _attribute_set(self, target: cst.Attribute) -> bool:
        """A statement of the outermost loop assigns `target` or an object on its way: `state.losses = []` per
        epoch, which may let the earlier graphs go."""
        name = dotted_name(target)
        return name is not None and any(
            type(node) in (cst.AssignTarget, cst.AnnAssign, cst.AugAssign)
            and (assigned := dotted_name(node.target)) is not None and "." in assigned
            and (name == assigned or name.startswith(assigned + "."))
            for node in self.ctx.walk(self.ctx.loops[0]))

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        training = training_loop(self.ctx)
        backpropagated = {name for event in training.events if event.kind == "backward"
                          for name in names_in(event.node)}
        computed: set[str] | None = None  # worked out only for an accumulation the names above do not clear
        for found in self._found:
            if found.accumulator.split(".", 1)[0] in backpropagated or found.accumulator in backpropagated:
                continue
            if computed is None:
                computed = self._computed_into_backward(training)
            if found.accumulator in computed:
                continue
            if not found.loops:
                self._per_call(found)
            for loop in reversed(found.loops):
                if not self._created_outside(found, loop):
                    continue
                if self._made_each_step(found, loop):
                    break
                # The loop's own events: a helper's `loss` is not the caller's, even when spelled the same.
                carried = self._carried(found, list(training.in_loop(loop)), loop)
                if carried is not None:
                    self._report(found, carried, "iteration")
                break

    def _computed_into_backward(self, training: TrainingLoop) -> set[str]:
        """The names the losses of the file's backward passes were computed from before them, a few assignments
        deep: `task_losses` of `meta_loss = torch.stack(task_losses).mean()` before `meta_loss.backward()` (MAML's
        meta-batch keeps each task's loss for that backward pass on purpose)."""
        names: set[str] = set()
        for event in training.events:
            if event.kind != "backward":
                continue
            frontier = [(name, event.seq + 1) for name in names_in(event.node) if "." not in name]
            # the end of the event's function: `point_within` of its node without indexing every function's nodes
            # (a tenth of an edit's CPU in the editor)
            point = self.ctx.point_after(event.function) if event.function is not None else None
            with self.ctx.at(point) if point is not None else nullcontext():
                for _ in range(_COMPUTED_DEPTH):
                    bindings = [self.ctx.binding(name, before) for name, before in frontier]
                    frontier = [(name, binding.seq) for binding in bindings
                                if binding is not None and binding.kind == "assign" and binding.value is not None
                                for name in names_in(binding.value) if name not in names]
                    names.update(name for name, _ in frontier)
                    frontier = [(name, before) for name, before in frontier if "." not in name]
        return names

    def _report(self, found: _Accumulation, carried: str, repeated: str) -> None:
        # `running[name].append(value)` of `for name, value in losses.items()`: the part kept is what to detach
        kept = self.ctx.code(found.value) if type(found.value) in (cst.Name, cst.Subscript) else carried
        self.report(found.node, f"`{self.ctx.code(found.node).strip()}` keeps the autograd graph of every {repeated} "
                                f"alive through `{found.accumulator}`: `{carried}` carries its graph, so memory grows "
                                f"each step; accumulate `{kept}.item()` (or `.detach()`) when only the value is "
                                "needed")

    def _per_call(self, found: _Accumulation) -> None:
        """A method that adds to an attribute its object made elsewhere (`__init__`): the graph of each call's
        loss stays alive in the attribute. The loss is backpropagated in the method, or is what a LightningModule's
        `training_step` returns to the trainer, which backpropagates it."""
        function, init = found.function, found.init
        if function is None or init is None or any(node is init.statement for node in self.ctx.walk(function)):
            return  # made anew on each call, or by no statement of this file
        carried = self._carried(found, training_loop(self.ctx).in_function(function), function)
        if carried is None and found.lightning_step:
            returned = _returned_name(self.ctx, function)
            carried = next((name for name, _ in found.graph_names if name == returned), None)
        if carried is not None:
            self._report(found, carried, "call")

    def _created_outside(self, found: _Accumulation, loop: cst.CSTNode) -> bool:
        init = found.init
        if init is None:
            return found.accumulator.startswith("self.")
        return init.loop is None or loop not in training_loop(self.ctx).enclosing(init.loop)

    def _made_each_step(self, found: _Accumulation, loop: cst.CSTNode) -> bool:
        """The accumulator is made anew in each pass of a loop that steps an optimizer outside `loop`: it holds the
        chunks or micro-batches of one step (`losses = []` per batch, appended per chunk), and lets them go at the
        next. So it is when a function makes it and steps once, outside any loop of its own (deep-daze's
        `train_step`: `total_loss = 0`, `gradient_accumulate_every` backward passes adding to it, one
        `scaler.step`): each call is one step, and the caller's next call lets the graphs go."""
        init = found.init
        if init is None:
            return False
        if init.loop is not None:
            return any(event.kind == "step" and loop not in event.loops
                       for event in training_loop(self.ctx).in_loop(init.loop))
        function = found.function
        return function is not None and any(node is init.statement for node in self.ctx.walk(function)) and any(
            event.kind == "step" and not event.loops for event in training_loop(self.ctx).in_function(function))

    def _carried(self, found: _Accumulation, events: list[Event], body: cst.CSTNode) -> str | None:
        """What in the accumulated value carries the graph of `body` (the loop, or the method called per step): a
        name backpropagated there, or the output of a module its optimizers train. Not a name whose graph-carrying
        item is replaced there by its value (`output["loss"] = output["loss"].detach()`)."""
        backward = {name for event in events if event.kind == "backward" for name in _backpropagated(event.node)}
        backward |= self.ctx.aliased_names(backward, body, found.function)
        for name, binding in found.graph_names:
            if (binding.loop is not None or not found.loops) and not _item_detached(self.ctx, body, name) \
                    and not _returns_number(self.ctx, binding.value) \
                    and (name in backward or self._returns_backpropagated(binding)):
                return name
        owners = {owner for event in events if event.kind == "step" for owner in event.owners or ()}
        for module in self._modules(found):
            if any(related(module, owner) for owner in owners):
                return f"{module}(...)"
        return None


    def _returns_backpropagated(self, binding: _Bound) -> bool:
        """The name holds what a same-file helper returns after its own `backward()` on it: `loss =
        self.train_step(x, y)` with `loss.backward(); ...; return loss` in `train_step`."""
        call = binding.value
        if binding.kind != "assign" or type(call) is not cst.Call:
            return False
        training = training_loop(self.ctx)
        definitions = training.definitions_of(call)
        return len(definitions) == 1 and _returned_name(self.ctx, definitions[0]) in {
            name for event in training.in_function(definitions[0]) if event.kind == "backward"
            for name in _backpropagated(event.node)}


def _container(target: cst.BaseExpression) -> cst.BaseExpression:
    """The object an item of which is added to: `history` of `history["loss"]` and of
    `history.setdefault("loss", [])`, which stores the list it returns."""
    while True:
        if type(target) is cst.Subscript:
            target = target.value
        elif type(target) is cst.Call and type(target.func) is cst.Attribute and target.func.attr.value == "setdefault":
            target = target.func.value
        else:
            return target


def _backpropagated(call: cst.CSTNode) -> set[str]:
    """The names whose graph `call` runs backward through: the tensor of `loss.backward(...)`, not the gradient it
    is handed (`t.backward(weight * d.grad)` backpropagates `t`, and `weight` may be a plain number)."""
    if type(call) is cst.Call and type(call.func) is cst.Attribute and call.func.attr.value == "backward" \
            and dotted_name(call.func.value) not in ("torch.autograd", "autograd"):
        return set(names_in(call.func.value))
    return set(names_in(call))


def _item_detached(ctx: Context, body: cst.CSTNode, name: str) -> bool:
    """`body` stores a value without the graph into an item of `name`: `output["loss"] = output["loss"].detach()`."""
    return any(type(node) is cst.Assign and len(node.targets) == 1 and type(target := node.targets[0].target)
               is cst.Subscript and dotted_name(target.value) == name and _graph_names_free(node.value)
               for node in ctx.walk(body))


def _method(instance: Instance, name: str) -> cst.FunctionDef | None:
    return next((m for m in instance.cls.node.body.body if type(m) is cst.FunctionDef and m.name.value == name), None)


def _parameters_kept(method: cst.FunctionDef, instance: Instance, depth: int = 2) -> list[str]:
    """The method's parameters it adds to an attribute of `self`: `val` in `self.sum += val * n`,
    `self.total = self.total + val` or `self.values.append(val)`; also those it hands to a method of an object its
    `__init__` made that keeps them (a stats logger's `self.smoothed_total_loss.add_value(total_loss)`, `depth`
    objects deep). Not a parameter the method turns into a number first (`value = float(value)`)."""
    params = {param.name.value for param in method.params.params[1:]}
    params -= {name for node in walk(method.body) if type(node) is cst.Assign and _graph_names_free(node.value)
               for target in node.targets if type(target.target) is cst.Name and (name := target.target.value)}
    kept = []
    bounded = _bounded_appends(method)
    for node in walk(method.body):
        if depth and type(node) is cst.Call and type(node.func) is cst.Attribute \
                and (held := _attribute_instance(instance, node.func.value)) is not None \
                and (inner := _method(held, node.func.attr.value)) is not None:
            for name in _parameters_kept(inner, held, depth - 1):
                passed = passed_argument(inner, node, name)
                if passed is not None:
                    kept += [name for name in _graph_names(passed) if name in params and name not in kept]
            continue
        if type(node) is cst.AugAssign and type(node.operator) is cst.AddAssign:
            target, value = node.target, node.value
        elif (added := _added_to_itself(node)) is not None:
            target, value = node.targets[0].target, added  # type: ignore[attr-defined]
        elif type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "append" \
                and len(node.args) == 1 and id(node) not in bounded:
            target, value = node.func.value, node.args[0].value
        else:
            continue
        if (dotted_name(target) or "").startswith("self."):
            kept += [name for name in _graph_names(value) if name in params and name not in kept]
    return kept


def _bounded_appends(method: cst.FunctionDef) -> set[int]:
    """The appends to `self.X` under an `if` that tests `len(self.X)`, in a method that also replaces or pops an
    element of it: a pool of a fixed depth (CycleGAN's image buffer appends until it holds `depth` images, then
    replaces one), which keeps that many, not one per call."""
    replaced = {dotted_name(target.target.value) for target in walk(method.body)
                if type(target) is cst.AssignTarget and type(target.target) is cst.Subscript}
    replaced |= {dotted_name(call.func.value) for call in walk(method.body) if type(call) is cst.Call
                 and type(call.func) is cst.Attribute and call.func.attr.value == "pop"}
    bounded: set[int] = set()
    for branch in walk(method.body):
        if type(branch) is not cst.If:
            continue
        measured = {dotted_name(call.args[0].value) for call in walk(branch.test) if type(call) is cst.Call
                    and type(call.func) is cst.Name and call.func.value == "len" and len(call.args) == 1}
        bounded.update(id(node) for node in walk(branch) if type(node) is cst.Call
                       and type(node.func) is cst.Attribute and node.func.attr.value == "append"
                       and dotted_name(node.func.value) in measured & replaced - {None})
    return bounded


def _attribute_instance(instance: Instance, receiver: cst.BaseExpression) -> Instance | None:
    """The object of a project class that `self.name` holds, as the instance's `__init__` set it."""
    if type(receiver) is not cst.Attribute or type(receiver.value) is not cst.Name or receiver.value.value != "self" \
            or instance.tainted:
        return None
    held = instance.attrs.get(receiver.attr.value)
    return held if isinstance(held, Instance) else None


def _added_to_itself(statement: cst.CSTNode) -> cst.BaseExpression | None:
    """What `total = total + loss` adds to the name (or attribute) on the left, the left operand of the sum. Also
    the running total seeded on the first step, `total = loss if total is None else total + loss`: the seed and the
    addend are the same value, so every step's value stays in the total."""
    if type(statement) is not cst.Assign or len(statement.targets) != 1:
        return None
    target = dotted_name(statement.targets[0].target)
    value = statement.value
    if type(value) is cst.IfExp:
        for summed, seed in ((value.body, value.orelse), (value.orelse, value.body)):
            added = _sum_onto(summed, target)
            if added is not None and added.deep_equals(seed):
                return added
        return None
    return _sum_onto(value, target)


def _updated_once_seeded(statement: cst.CSTNode, target: str | None) -> bool:
    """`total = first if total is None else update(total, ...)`: a later step of a running total seeded on the first
    step (another branch may add a tensor to it), not where the total is made."""
    if type(statement) is not cst.Assign or type(statement.value) is not cst.IfExp or target is None:
        return False
    test = statement.value.test
    return type(test) is cst.Comparison and dotted_name(test.left) == target and len(test.comparisons) == 1 \
        and type(test.comparisons[0].operator) in (cst.Is, cst.IsNot) \
        and type(test.comparisons[0].comparator) is cst.Name and test.comparisons[0].comparator.value == "None"


def _sum_onto(value: cst.BaseExpression, target: str | None) -> cst.BaseExpression | None:
    """The right operand of `target + x`."""
    if type(value) is cst.BinaryOperation and type(value.operator) is cst.Add and target is not None \
            and dotted_name(value.left) == target:
        return value.right
    return None


def _returned_name(ctx: Context, function: cst.FunctionDef) -> str | None:
    """The name every `return` of the function returns, when it is one plain name."""
    returned = {dotted_name(node.value) if node.value is not None else None
                for node in ctx.walk(function.body) if type(node) is cst.Return}
    return returned.pop() if len(returned) == 1 else None


def _graph_names(expr: cst.BaseExpression) -> list[str]:
    """The plain names an accumulated value is computed from, arithmetic and tensor methods included, leaving out
    those read through `.item()`, `float(...)`, `.detach()`, `.data`: `loss` in `loss / n` and `loss * x.size(0)`."""
    kind = type(expr)
    if kind is cst.Name:
        return [expr.value]
    if kind is cst.BinaryOperation:
        return _graph_names(expr.left) + _graph_names(expr.right)
    if kind is cst.UnaryOperation:
        return _graph_names(expr.expression)
    if kind is cst.Attribute:
        return [] if expr.attr.value in _NO_GRAPH else _graph_names(expr.value)
    if kind is cst.Subscript:  # `losses["total"]`: an item of what the step computed
        return _graph_names(expr.value)
    if kind is cst.Call:
        func = expr.func
        if type(func) is cst.Attribute:
            return [] if func.attr.value in _NO_GRAPH else _graph_names(func.value)
        return []
    return []


def _dict_part(binding: Binding) -> cst.BaseExpression | None:
    """The dict whose values a loop variable takes (`value` of `for key, value in losses.items()` or of `for value
    in losses.values()`): `losses`."""
    iterated = binding.value
    if binding.kind != "for" or type(iterated) is not cst.Call or iterated.args \
            or type(iterated.func) is not cst.Attribute:
        return None
    method = iterated.func.attr.value
    if method == "values" and binding.index is None or method == "items" and binding.index == 1:
        return iterated.func.value
    return None


def _may_carry_graph(binding: Binding) -> bool:
    """The name was bound to a computed value in the loop, not to `loss.item()`, a number or a loop variable."""
    if binding.kind not in ("assign", "unpack", "aug"):
        return False
    return binding.value is None or not _graph_names_free(binding.value)


def _returns_number(ctx: Context, value: cst.BaseExpression | None) -> bool:
    """`value` calls a function of this file whose every `return` gives a Python number, which has no graph:
    `loss = mlogloss(y, pred)` with `mlogloss` summing `math.log(...)` terms, or returning `loss.item()`."""
    if type(value) is not cst.Call:
        return False
    definitions = training_loop(ctx).definitions_of(value)
    return bool(definitions) and all(
        returns and all(node.value is not None and _number(ctx, definition, node.value, read=node) for node in returns)
        for definition in definitions
        for returns in [[node for node in walk(definition.body) if type(node) is cst.Return]])


def _number(ctx: Context, function: cst.FunctionDef, expr: cst.BaseExpression, depth: int = 0,
            read: cst.CSTNode | None = None) -> bool:
    """`expr` is a Python number in `function`: literals, `len(...)`, `float(...)`, `math.*(...)`, `.item()`, the
    arithmetic of those, and local names every assignment that may reach `read` (the statement reading `expr`; None:
    anywhere) binds to one."""
    kind = type(expr)
    if kind in (cst.Integer, cst.Float):
        return True
    if depth > 6:
        return False
    if kind is cst.UnaryOperation:
        return _number(ctx, function, expr.expression, depth + 1, read)
    if kind is cst.BinaryOperation:
        return _number(ctx, function, expr.left, depth + 1, read) \
            and _number(ctx, function, expr.right, depth + 1, read)
    if kind is cst.Call:
        func = expr.func
        if type(func) is cst.Attribute:
            return func.attr.value == "item" or (ctx.qualname(func) or "").startswith("math.")
        return type(func) is cst.Name and func.value in ("float", "int", "len")
    if kind is cst.Name:
        return _local_number(ctx, function, expr.value, depth, read)
    return False


def _local_number(ctx: Context, function: cst.FunctionDef, name: str, depth: int, read: cst.CSTNode | None) -> bool:
    """Every binding of local `name` in `function` that may reach `read` is a plain assignment of a number (`total =
    0`, `total += math.log(p)`; `loss = loss.item()` before `return loss` hides the tensor bound before it); a
    parameter, a loop target or an unpacked name is not known."""
    if any(param.name.value == name for param in function.params.params):
        return False
    assigned: list[cst.BaseSmallStatement] = []
    before = None  # how many of them come before `read`
    for node in walk(function.body):
        if node is read:
            before = len(assigned)
        if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            for target in targets:
                if type(target) is cst.Name and target.value == name:
                    assigned.append(node)
                elif name in names_in(target):
                    return False
        elif type(node) in (cst.For, cst.CompFor, cst.NamedExpr) and name in names_in(node.target):
            return False
    reaching = _reaching(function, assigned, before, read) if before is not None else assigned
    return bool(reaching) and all(node.value is not None and _number(ctx, function, node.value, depth + 1, node)
                                  for node in reaching)


def _reaching(function: cst.FunctionDef, assigned: list[cst.BaseSmallStatement], before: int, read: cst.CSTNode
              ) -> list[cst.BaseSmallStatement]:
    """The assignments of one name (in source order, the first `before` of them before `read`) that may be what
    `read` sees: back to the latest plain assignment that certainly runs before it. A read in a loop may see any of
    them (the next pass reads what a later one bound)."""
    path = flow.path_to(function, read)
    if path is None or any(type(node) in (cst.For, cst.While) for node in path):
        return assigned
    reaching = []
    for node in reversed(assigned[:before]):
        verdict = flow.reach(flow.path_to(function, node) or (), path)
        if verdict == "never":
            continue
        reaching.append(node)
        if verdict == "always" and type(node) is not cst.AugAssign:
            break
    return reaching


def _graph_names_free(expr: cst.BaseExpression) -> bool:
    kind = type(expr)
    if kind is cst.DictComp:  # `{name: value.detach() for name, value in loss_dict.items()}`
        return _graph_names_free(expr.value)
    if kind is cst.ListComp or kind is cst.GeneratorExp:
        return _graph_names_free(expr.elt)
    if kind is cst.Call:
        func = expr.func
        if type(func) is cst.Attribute and func.attr.value in _NO_GRAPH:
            return True
        return type(func) is cst.Name and func.value in _VALUE_FUNCTIONS
    if kind is cst.Attribute:
        return expr.attr.value in _SIZE_READS
    return kind in (cst.Integer, cst.Float, cst.SimpleString)
