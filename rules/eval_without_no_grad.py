"""SC203 eval-without-no-grad: a model put in eval mode and then run while autograd records."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.syntax import dotted_name
from shapecheck.rules._training_loop import (
    LIGHTNING_HOOKS,
    called_module,
    in_test,
    is_test_file,
    mode_switch,
    runs_without_grad,
)

# Calls that compute gradients on purpose: a function making them wants the graph (saliency, attacks, guidance).
_GRADIENT_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward", "torch.enable_grad",
                             "torch.autograd.enable_grad", "torch.set_grad_enabled"})
_GRADIENT_MODULES = ("torch.autograd.functional.", "torch.func.", "functorch.")
_GRADIENT_METHODS = frozenset({"backward", "requires_grad_", "retain_grad"})


class EvalWithoutNoGrad(Rule):
    code = "SC203"
    name = "eval-without-no-grad"
    severity = "warning"  # the results are right; the graph only costs memory and time
    message = "model in eval mode is run without `torch.no_grad()`: wrap the evaluation in `with torch.no_grad():`"
    triggers = (".eval(", ".train(False", ".train(mode=False")
    docs = """
        ## What it does
        Finds a function that puts a model in eval mode (`model.eval()`, `self.model.eval()`,
        `model.train(False)`) and then runs that model (`model(x)`, `model.forward(x)`) outside
        `torch.no_grad()` / `torch.inference_mode()`.

        Not reported: functions that want gradients on purpose (they call `.backward()`, `torch.autograd.grad`,
        `requires_grad_`, `torch.enable_grad()` or `torch.set_grad_enabled`: adversarial attacks, saliency maps,
        guidance, or a train/eval loop sharing one body), functions decorated with `@torch.no_grad()` (or a
        project's own wrapper named like it, `@smart_inference_mode()`) or only called under `no_grad` in the same
        file, directly or through one more function, Lightning's `validation_step` / `test_step` /
        `predict_step` (Lightning disables gradients itself), a `forward` method, and tests (`test_*` functions
        and test files), where the memory the graph costs does not matter. A function is reported once, at its
        first such call.

        ## Why is this bad?
        `model.eval()` switches dropout and batch norm to inference behaviour; it does not stop autograd.
        Without `no_grad`, every forward pass stores its activations for a backward pass that never comes: about
        twice the memory and time. The primer: "Wrap eval-mode code in with torch.no_grad(): to skip graph
        construction entirely — roughly 2× faster inference and you won't accidentally backprop through your test
        set." and "Always wrap evaluation in model.eval() and with torch.no_grad():".

        ## Example
        ```python
        def evaluate(model, loader):
            model.eval()
            for x, y in loader:
                correct += (model(x).argmax(1) == y).sum().item()
        ```

        ## Use instead
        ```python
        @torch.no_grad()
        def evaluate(model, loader):
            model.eval()
            for x, y in loader:
                correct += (model(x).argmax(1) == y).sum().item()
        ```

        This rule has no fix: where the `with` block should start and end is the author's call.
    """
    VALID = [
        # pytorch/examples mnist `test`.
        """
        import torch
        import torch.nn.functional as F
        def test(model, device, test_loader):
            model.eval()
            test_loss = 0
            with torch.no_grad():
                for data, target in test_loader:
                    output = model(data)
                    test_loss += F.nll_loss(output, target, reduction="sum").item()
        """,
        # nanoGPT `estimate_loss`: decorated.
        """
        import torch
        @torch.no_grad()
        def estimate_loss():
            model.eval()
            for k in range(eval_iters):
                logits, loss = model(X, Y)
            model.train()
        """,
        # A saliency map needs the graph.
        """
        import torch
        def saliency(model, x, label):
            model.eval()
            x.requires_grad_()
            score = model(x)[0, label]
            score.backward()
            return x.grad.abs()
        """,
        # The transfer-learning tutorial: one body for train and val phases.
        """
        import torch
        def train_model(model, dataloaders, optimizer, criterion):
            for phase in ["train", "val"]:
                if phase == "train":
                    model.train()
                else:
                    model.eval()
                for inputs, labels in dataloaders[phase]:
                    with torch.set_grad_enabled(phase == "train"):
                        loss = criterion(model(inputs), labels)
                        if phase == "train":
                            loss.backward()
                            optimizer.step()
        """,
        # Lightning runs validation_step under no_grad.
        """
        import torch
        import lightning.pytorch as pl
        class Classifier(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                self.model.eval()
                x, y = batch
                return self.model(x)
        """,
        # A helper only ever called under no_grad.
        """
        import torch
        def predict(model, x):
            model.eval()
            return model(x).argmax(-1)
        with torch.inference_mode():
            preds = predict(net, batch)
        """,
        # Back in train mode before the call.
        """
        import torch
        def train_epoch(model, loader, optimizer):
            model.eval()
            model.train()
            for x, y in loader:
                out = model(x)
        """,
        # A pytest test checks eval-mode behaviour.
        """
        import torch
        def test_dropout_is_off_in_eval():
            model = torch.nn.Dropout(0.5)
            model.eval()
            x = torch.ones(4)
            assert torch.equal(model(x), x)
        """,
        # yolov5: the project's own wrapper around inference_mode.
        """
        import torch
        from utils.torch_utils import smart_inference_mode
        @smart_inference_mode()
        def run(model, dataloader):
            model.eval()
            for im, targets in dataloader:
                preds = model(im)
        """,
        # denoising-diffusion-pytorch: a helper called only from an inference_mode method, directly or through
        # another helper.
        """
        import torch
        class FIDEvaluation:
            def features(self, samples):
                self.inception.eval()
                return self.inception(samples)[0]
            def dataset_stats(self):
                return [self.features(batch) for batch in self.dl]
            @torch.inference_mode()
            def fid_score(self):
                real = self.dataset_stats()
                fake = self.features(self.sampler(self.batch_size))
        """,
        # functorch: `eval()` of the old module, then a call of the new frozen one bound to the same name.
        """
        import torch
        def ts_compile(fx_g, inps):
            f = torch.jit.script(fx_g)
            f = torch.jit.freeze(f.eval())
            f(*inps)
            return f
        """,
        # A frozen teacher whose parameters need no grad, in a training step.
        """
        import torch
        def distill_step(student, teacher, x):
            teacher.eval()
            teacher.requires_grad_(False)
            return kl(student(x), teacher(x))
        """,
    ]
    INVALID = [
        """
        import torch
        def evaluate(model, loader):
            model.eval()
            correct = 0
            for x, y in loader:
                correct += (model(x).argmax(1) == y).sum().item()
            return correct
        """,
        """
        import torch
        class Trainer:
            def validate(self, batch):
                self.model.eval()
                x, y = batch
                logits = self.model(x)
                return self.criterion(logits, y).item()
        """,
        """
        import torch
        def predict(model, x):
            model.train(False)
            return model.forward(x).softmax(-1)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Per function (None: module level): models in eval mode at this point of the source.
        self._in_eval: dict[cst.FunctionDef | None, set[str]] = {}
        # Per function, its first call of a model in eval mode with autograd on: one `with` block fixes them all.
        self._pending: dict[cst.FunctionDef | None, tuple[cst.Call, str]] = {}
        self._wants_grad: set[cst.FunctionDef | None] = set()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute:
            name = func.attr.value
            if name in _GRADIENT_METHODS:
                self._wants_grad.add(self.ctx.function)
                return
            if name == "eval" or name == "train":
                self._switch(node)
                return
        qualname = self.ctx.qualname(func)
        if qualname is not None:
            if qualname in _GRADIENT_CALLS or qualname.startswith(_GRADIENT_MODULES):
                self._wants_grad.add(self.ctx.function)
            return
        in_eval = self._in_eval.get(self.ctx.function)
        if not in_eval:
            return
        model = called_module(node)
        if model in in_eval and not self.ctx.grad_disabled and self.ctx.function not in self._pending:
            if not in_test(self.ctx):
                self._pending[self.ctx.function] = (node, model)

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target
        if type(target) is cst.Attribute and target.attr.value == "requires_grad":
            self._wants_grad.add(self.ctx.function)

    def leave_Assign(self, node: cst.Assign) -> None:
        """`f = torch.jit.freeze(f.eval())` binds a new object; `model = model.to(device).eval()` keeps the model."""
        in_eval = self._in_eval.get(self.ctx.function)
        if not in_eval:
            return
        # The names along `model.to(device).eval()`: binding one of them to it keeps the same module.
        chain: set[str] = set()
        expr = node.value
        while type(expr) is cst.Call or type(expr) is cst.Attribute:
            expr = expr.func if type(expr) is cst.Call else expr.value
            chain.add(dotted_name(expr) or "")
        for target in node.targets:
            name = dotted_name(target.target)
            if name in in_eval and name not in chain:
                in_eval.discard(name)

    def _switch(self, node: cst.Call) -> None:
        switch = mode_switch(self.ctx, node)
        if switch is None:
            return
        mode, model = switch
        models = self._in_eval.setdefault(self.ctx.function, set())
        if mode == "eval":
            models.add(model)
        else:
            models.discard(model)

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return  # tests run models in eval mode to check them; the memory the graph costs does not matter there
        for function, (call, model) in self._pending.items():
            if function in self._wants_grad or not self._may_record(function):
                continue
            self.report(call, f"`{model}` is in eval mode but `{self.ctx.code(call.func)}(...)` runs with autograd "
                              "on: `eval()` does not stop the graph from being built; wrap the evaluation in "
                              "`with torch.no_grad():` (or decorate the function with `@torch.no_grad()`)")

    def _may_record(self, function: cst.FunctionDef | None) -> bool:
        if function is None:
            return True
        name = function.name.value
        return name not in LIGHTNING_HOOKS and name != "forward" and not runs_without_grad(self.ctx, function)
