"""SC210 inference-without-eval: a no_grad prediction loop running a model with dropout or batch norm in train mode."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.loops.training_loop import called_module, related, training_loop
from shapecheck.rules._training_loop import in_test, is_test_file

# Layers whose output depends on train/eval mode.
_MODE_LAYERS = ("Dropout", "BatchNorm", "dropout")
# torchvision model builders whose networks hold batch norm or dropout.
_TORCHVISION_FAMILIES = ("resnet", "resnext", "wide_resnet", "densenet", "mobilenet", "efficientnet", "inception",
                         "googlenet", "vgg", "alexnet", "squeezenet", "regnet", "shufflenet", "mnasnet")
# Methods that return the module itself: `Net().to(device)` is the `Net()`.
_SAME_MODULE = frozenset({"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "train", "requires_grad_"})


class InferenceWithoutEval(Rule):
    code = "SC210"
    name = "inference-without-eval"
    message = "a model with dropout or batch norm predicts under `no_grad` without `eval()`"
    triggers = ("no_grad", "inference_mode")
    docs = """
        ## What it does
        Finds a validation or prediction loop under `torch.no_grad()` / `torch.inference_mode()` (a loop in the
        `with` block, or the block in a loop) that runs a model whose dropout or batch norm layers are in view
        and uses what it returns, when the file never switches that model to eval mode: no `model.eval()` /
        `model.train(False)` on the model, and none in a helper it could be handed to. The model's layers are in
        view when it is built in the file from a class of the same file with `nn.Dropout*` / `nn.BatchNorm*` /
        `F.dropout` in it, from an `nn.Sequential(...)` holding one, or by a torchvision builder whose networks
        hold them (`resnet18()`, `vgg16()`, `densenet121()`, ...), or when the function receives it as a parameter
        from a caller in the file that built it so (`test(model, device, test_loader)`).

        Not reported: a forward pass whose output is discarded (`model(x)` on its own line: recalibrating batch
        norm statistics, as `torch.optim.swa_utils.update_bn` does), a model switched to train mode under
        `no_grad` on purpose (Monte Carlo dropout), models built elsewhere, and tests.

        ## Why is this bad?
        A freshly built module is in train mode: dropout keeps zeroing activations at random and batch norm
        normalises with the statistics of each test batch (and updates its running averages with them).
        Predictions change from run to run and validation scores are worse than the model is. `no_grad` does
        not change the mode. The cheat sheet: "Always call model.eval() before any prediction. Forgetting this
        with dropout gives different results each run." The course: "Forgetting model.eval() during validation
        leads to noisy, unreliable metrics."

        ## Example
        ```python
        model = Net()  # has nn.Dropout(0.5)
        with torch.no_grad():
            for x, y in test_loader:
                correct += (model(x).argmax(1) == y).sum().item()
        ```

        ## Use instead
        ```python
        model = Net()
        model.eval()
        with torch.no_grad():
            for x, y in test_loader:
                correct += (model(x).argmax(1) == y).sum().item()
        ```

        This rule has no fix: `model.train()` must come back before training resumes, and where is the
        author's call.
    """
    VALID = [
        # pytorch/examples mnist: eval() in the test function.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.dropout1 = nn.Dropout(0.25)
        def test(model, device, test_loader):
            model.eval()
            with torch.no_grad():
                for data, target in test_loader:
                    output = model(data)
        model = Net().to(device)
        for epoch in range(1, epochs + 1):
            test(model, device, test_loader)
        """,
        # SWA: recomputing batch norm statistics runs the model in train mode on purpose, output discarded.
        """
        import torch
        import torchvision
        model = torchvision.models.resnet18()
        with torch.no_grad():
            for x, _ in loader:
                model(x)
        """,
        # A model without dropout or batch norm behaves the same in both modes.
        """
        import torch
        import torch.nn as nn
        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
        model = MLP()
        with torch.no_grad():
            for x, y in test_loader:
                pred = model(x).argmax(1)
        """,
        # Monte Carlo dropout: train mode under no_grad on purpose.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.5)
        model = Net()
        with torch.no_grad():
            model.train()
            samples = [model(x) for _ in range(20)]
            for x in loader:
                preds = model(x)
        """,
        # The model is switched to eval mode by name in another part of the notebook.
        """
        import torch
        import torch.nn as nn
        net = nn.Sequential(nn.Linear(10, 10), nn.Dropout(0.2), nn.Linear(10, 2))
        def evaluate(model, loader):
            model.eval()
        with torch.no_grad():
            for x, y in loader:
                out = net(x)
        """,
    ]
    INVALID = [
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(784, 256)
                self.dropout = nn.Dropout(0.5)
                self.fc2 = nn.Linear(256, 10)
        model = Net()
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
        correct = 0
        with torch.no_grad():
            for x, y in test_loader:
                correct += (model(x).argmax(1) == y).sum().item()
        """,
        """
        import torch
        import torchvision
        model = torchvision.models.resnet50(weights="DEFAULT").to(device)
        preds = []
        for x in loader:
            with torch.inference_mode():
                preds.append(model(x.to(device)).argmax(1))
        """,
        """
        import torch
        import torch.nn as nn
        net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
        @torch.no_grad()
        def predict(loader):
            return [net(x).argmax(1) for x in loader]
        for x in loader:
            with torch.no_grad():
                scores = net(x)
        """,
        # pytorch/examples mnist with the `model.eval()` line deleted from `test()`.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.dropout1 = nn.Dropout(0.25)
        def train(model, train_loader, optimizer):
            model.train()
            for data, target in train_loader:
                optimizer.zero_grad()
                F.nll_loss(model(data), target).backward()
                optimizer.step()
        def test(model, test_loader):
            with torch.no_grad():
                for data, target in test_loader:
                    output = model(data)
        def main():
            model = Net().to(device)
            for epoch in range(1, epochs + 1):
                train(model, train_loader, optimizer)
                test(model, test_loader)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._found: list[tuple[cst.Call, str]] = []
        self._has_mode_layers: dict[cst.CSTNode, bool] = {}
        # Names bound to a module with dropout or batch norm, per function (None: module level).
        self._built: set[tuple[cst.FunctionDef | None, str]] = set()
        # Calls of a model the function receives as a parameter: decided in `finish()`, from its callers.
        self._received: list[tuple[cst.Call, str, cst.FunctionDef]] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target
        if len(node.targets) == 1 and type(target) is cst.Name and self._mode_dependent(node.value):
            self._built.add((self.ctx.function, target.value))

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.grad_disabled or not ctx.loops or type(ctx.parent) is cst.Expr:
            return
        model = called_module(node)
        if model is None or model in [found for _, found in self._found] or in_test(ctx):
            return
        module = node.func.value if type(node.func) is cst.Attribute and node.func.attr.value == "forward" \
            else node.func
        if self._mode_dependent(module):
            self._found.append((node, model))
        elif type(module) is cst.Name and ctx.function is not None:
            binding = ctx.binding(module)
            if binding is not None and binding.kind == "param":
                self._received.append((node, model, ctx.function))

    def _mode_dependent(self, expr: cst.BaseExpression) -> bool:
        """The module `expr` names was built here with dropout or batch norm in view."""
        built, before = self.ctx.value_of(expr)
        while type(built) is cst.Call and type(built.func) is cst.Attribute and built.func.attr.value in _SAME_MODULE:
            built, before = self.ctx.value_of(built.func.value, before)
        if type(built) is not cst.Call:
            return False
        qualname = self.ctx.qualname(built.func) or ""
        if qualname.startswith("torchvision.models."):
            return qualname.rsplit(".", 1)[-1].startswith(_TORCHVISION_FAMILIES)
        if qualname in ("torch.nn.Sequential", "torch.nn.ModuleList"):
            return _mentions_mode_layer(self.ctx, built)
        if type(built.func) is not cst.Name:
            return False
        binding = self.ctx.binding(built.func.value, before)
        if binding is None or binding.kind != "class":
            return False
        class_def = binding.statement
        if class_def not in self._has_mode_layers:
            self._has_mode_layers[class_def] = _mentions_mode_layer(self.ctx, class_def)
        return self._has_mode_layers[class_def]

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        training = training_loop(self.ctx)
        for call, model, function in self._received:
            # `test(model, device, test_loader)` with `model = Net().to(device)` in the caller.
            if any((site.function, training.caller_spelling(model, function, site.node)) in self._built
                   for site in self.ctx.calls_to(function.name.value)):
                self._found.append((call, model))
        if not self._found:
            return
        switched = [(event.subject, event) for event in training_loop(self.ctx).events
                    if event.kind == "eval" or event.kind == "train" and event.grad_disabled]
        for call, model in self._found:
            if any(subject is None or related(subject, model) or _is_parameter(subject, event.function)
                   for subject, event in switched):
                continue
            self.report(call, f"`{model}` has dropout or batch norm and predicts here under `no_grad` in train mode: "
                              f"nothing in this file calls `{model}.eval()`, so dropout stays on and batch norm uses "
                              f"each batch's statistics; call `{model}.eval()` before the loop (and "
                              f"`{model}.train()` before training again)")


def _mentions_mode_layer(ctx: Context, node: cst.CSTNode) -> bool:
    return any(type(inner) is cst.Name and inner.value.startswith(_MODE_LAYERS)
               or type(inner) is cst.Attribute and inner.attr.value.startswith(_MODE_LAYERS)
               for inner in ctx.walk(node))


def _is_parameter(subject: str, function: cst.FunctionDef | None) -> bool:
    """A switch of a function's parameter (`def evaluate(model): model.eval()`): any model may be handed to it."""
    if function is None:
        return False
    root = subject.split(".", 1)[0]
    params = function.params
    return root == "self" or root in {param.name.value
                                      for param in (*params.posonly_params, *params.params, *params.kwonly_params)}
