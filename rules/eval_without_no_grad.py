"""SC203 eval-without-no-grad: a model put in eval mode and then run while autograd records."""

from __future__ import annotations

import ast
import os
from functools import lru_cache

import libcst as cst

from shapecheck.engine import CallSite, Context, Rule
from shapecheck.engine.syntax import dotted_name
from shapecheck.objects.gradient_functions import GradientFunctions
from shapecheck.objects.project import PROJECT, imported_files, importer_files, importers
from shapecheck.loops.frozen import frozen_module
from shapecheck.loops.training_loop import (
    Event, called_module, may_switch_mode, names_in, runs_without_grad, training_loop,
)
from shapecheck.shapes.activations import holds_no_parameters, instance_class
from shapecheck.loops.surroundings import LIGHTNING_HOOKS, in_test, is_test_file

# Calls that compute gradients on purpose: a function making them wants the graph (saliency, attacks, guidance).
_GRADIENT_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward", "torch.enable_grad",
                             "torch.autograd.enable_grad", "torch.set_grad_enabled"})
_GRADIENT_MODULES = ("torch.autograd.functional.", "torch.func.", "functorch.")
_GRADIENT_METHODS = frozenset({"backward", "requires_grad_", "retain_grad"})
_GRAD_SWITCHES = frozenset({"torch.enable_grad", "torch.autograd.enable_grad", "torch.set_grad_enabled",
                            "torch.autograd.set_grad_enabled"})


# Written once for a VALID look-alike and its INVALID twin: a prediction and its Captum attribution in eval mode, as
# Mastering-PyTorch's `interpret_sentence`; the `%s` are the attribution class (gradients or perturbation), its
# keyword, and the class again.
_CAPTUM_EXPLAIN = """
        import torch
        import torch.nn as nn
        from captum.attr import %s

        class TextCNN(nn.Module):
            def __init__(self, vocab=1000, dim=32):
                super().__init__()
                self.embed = nn.EmbeddingBag(vocab, dim)
                self.out = nn.Linear(dim, 2)

            def forward(self, ids):
                return self.out(self.embed(ids))

        def explain(model, explainer, ids, target):
            probs = torch.softmax(model(ids), dim=-1)
            scores = explainer.attribute(ids, target=target, %s)
            return probs, scores

        model = TextCNN()
        model.eval()
        explain(model, %s(model), torch.randint(0, 1000, (1, 12)), target=1)
        """


# Written once for a VALID look-alike and its INVALID twin: rosinality's GAN trainers' discriminator step, sampling
# the generator in eval mode; `%s` is the flag handed to `requires_grad(generator, ...)`.
_GAN_TRAINER = """
        import torch
        import torch.nn.functional as F
        def requires_grad(model, flag=True):
            for p in model.parameters():
                p.requires_grad = flag
        def train(conf, loader, generator, discriminator, d_optim, augment):
            for i in range(conf.iter):
                real_img = next(loader)
                requires_grad(generator, %s)
                requires_grad(discriminator, True)
                noise = torch.randn(conf.batch, conf.style_dim)
                generator.eval()
                fake_img = generator(noise)
                generator.train()
                if conf.augment:
                    fake_img, _ = augment(fake_img)
                d_loss = F.softplus(discriminator(fake_img)).mean() + F.softplus(-discriminator(real_img)).mean()
                discriminator.zero_grad()
                d_loss.backward()
                d_optim.step()
        """


class EvalWithoutNoGrad(Rule):
    code = "SC203"
    name = "eval-without-no-grad"
    severity = "warning"  # the results are right; the graph only costs memory and time
    message = "model in eval mode is run without `torch.no_grad()`: wrap the evaluation in `with torch.no_grad():`"
    triggers = (".eval(", ".train(False", ".train(mode=False")
    # The visits gather nodes, not the traversal's count of calls (`Event.order`), which an edit before them changes:
    # `finish` places them among the calls of the whole file, so the editor server keeps each statement's part.
    scope = "statement"
    gathered = ("_wants_grad", "_rebound", "_in_tests", "_switches_grad", "_frozen")
    docs = """
        ## What it does
        Finds a model put in eval mode (`model.eval()`, `self.model.eval()`, `model.train(False)`) and then run
        (`model(x)`, `model.forward(x)`) outside `torch.no_grad()` / `torch.inference_mode()`, directly or in a
        helper of the same file it is passed to (`accuracy(model, x)` whose body runs `model(x)`). Eval mode is a
        region: from the `eval()` (or the call of a same-file helper that makes it, such as `evaluate(model)`) to
        the next `train()` of the same model in source order, within a function or in module-level code, which is
        read as one body, as a notebook runs; a helper that saves the mode and puts it back (`mode =
        model.training`, `model.eval()`, ..., `model.train(mode)`: SlowFast's `get_model_stats`) leaves the mode its
        caller had. A script or notebook that trains and
        then evaluates, or a `train()` function that validates in its own body, is checked like any other code.

        Not reported: a forward pass whose output feeds a later backward pass (through the names computed from
        it), an eval region that wants gradients on purpose (it calls `.backward()`,
        `torch.autograd.grad`, `requires_grad_`, `torch.enable_grad()` or `torch.set_grad_enabled`: adversarial
        attacks, saliency maps, guidance, or a train/eval loop sharing one body), or calls a function or method of
        the project (of the file or the modules it imports, by name) that computes gradients itself or through the
        functions it calls (an explainer's `model.relprop(...)` after the forward; `.attribute(...)`
        in a module that imports a gradient-based Captum attribution, `IntegratedGradients`), functions decorated with
        `@torch.no_grad()` (or a project's own wrapper named like it, `@smart_inference_mode()`, or defined in the
        file to call the function under `no_grad`), functions that turn autograd on themselves (`torch.enable_grad()`,
        `torch.set_grad_enabled(...)`: their callers decide the mode), module-level code of a script or notebook
        that switches autograd off for the process (`torch.set_grad_enabled(False)` as a statement of its own,
        never switched back on), or only called
        under `no_grad` in the same file, directly or through one more function (a function this file never calls:
        only under `no_grad` in the project's modules that import the file), Lightning's `validation_step` /
        `test_step` / `predict_step` (Lightning disables gradients itself; a method of a class with a base), a
        `forward` method, a forward wrapper for either mode that returns the model's output as it is and switches
        the model back to train mode in its other branch (its callers own the graph and pick the grad mode), a
        helper's call of the model under `if model.training:` (in eval mode its other branch runs), a
        module of this file that holds no parameters (its attributes are numbers, flags and buffers), a model
        frozen before the call in the same body (`model.requires_grad_(False)`, or `p.requires_grad = False` over
        its parameters, also through a function of the file handed the model and `False`, as GAN trainers'
        `requires_grad(generator, False)`: it records no graph of its own), and tests
        (`test_*` functions and test files), where the memory the graph costs does not matter. An eval region is
        reported once, at its first such call; a helper's forward pass once, however often it is called.

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
        # Captum's integrated gradients take the model's gradients: the helper wants autograd on.
        _CAPTUM_EXPLAIN % ("IntegratedGradients", "n_steps=64", "IntegratedGradients"),
        # yang-song/score_sde_pytorch: a forward wrapper for either mode hands the output to its caller, which
        # samples under no_grad or takes the divergence's gradient under enable_grad in another module.
        """
        import torch
        def get_model_fn(model, train=False):
            def model_fn(x, labels):
                if not train:
                    model.eval()
                    return model(x, labels)
                else:
                    model.train()
                    return model(x, labels)
            return model_fn
        """,
        # chenyuntc/simple-faster-rcnn-pytorch: the project's own decorator runs the method under no_grad.
        """
        import torch as t
        from torch import nn
        def nograd(f):
            def new_f(*args, **kwargs):
                with t.no_grad():
                    return f(*args, **kwargs)
            return new_f
        class FasterRCNN(nn.Module):
            def __init__(self, head):
                super().__init__()
                self.head = head
            def forward(self, x):
                return self.head(x)
            @nograd
            def predict(self, imgs):
                self.eval()
                return [self(img[None]) for img in imgs]
        """,
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
        # Layer-wise relevance: the model's `relprop` reaches `torch.autograd.grad` on the forward's graph through
        # its layers' helper (Transformer-Explainability's LRP modules).
        """
        import torch
        import torch.nn as nn
        def gradprop(Z, X, S):
            return torch.autograd.grad(Z, X, S, retain_graph=True)
        class RelLinear(nn.Linear):
            def forward(self, x):
                self.x = x
                return super().forward(x)
            def relprop(self, R):
                Z = self.forward(self.x)
                return self.x * gradprop(Z, self.x, R / Z)[0]
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = RelLinear(16, 2)
            def forward(self, x):
                return self.fc(x)
            def relprop(self, R):
                return self.fc.relprop(R)
        model = Classifier()
        x = torch.rand(4, 16, requires_grad=True)
        model.eval()
        y = model(x)
        relevance = model.relprop(torch.ones_like(y))
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
        # simple-faster-rcnn-style: the file's own decorator runs the method under no_grad.
        """
        import torch as t
        import torch.nn as nn


        def nograd(f):
            def wrapped(*args, **kwargs):
                with t.no_grad():
                    return f(*args, **kwargs)
            return wrapped


        class Detector(nn.Module):
            def __init__(self, backbone, head):
                super().__init__()
                self.backbone = backbone
                self.head = head

            def forward(self, x):
                return self.head(self.backbone(x))

            @nograd
            def predict(self, images):
                self.eval()
                boxes = []
                for img in images:
                    boxes.append(self(img[None]))
                self.train()
                return boxes
        """,
        # A graph attack's forward: the function turns autograd on itself, so its callers may run it either way
        # (PyG's PRBCD runs `_forward` under no_grad to evaluate and with gradients to attack).
        """
        import copy
        import torch
        class PoisoningAttack(EdgeAttack):
            def _forward(self, x, edge_index, edge_weight):
                self.model.reset_parameters()
                with torch.enable_grad():
                    perturbed = copy.copy(data)
                    perturbed.edge_index, perturbed.edge_weight = edge_index, edge_weight
                    fit(self.model, perturbed, epochs)
                self.model.eval()
                return self.model(x, edge_index, edge_weight)
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
        # The helper the eval region calls runs under no_grad itself.
        """
        import torch
        @torch.no_grad()
        def accuracy(net, x, y):
            return (net(x).argmax(1) == y).float().mean().item()
        def evaluate(model, loader):
            model.eval()
            return sum(accuracy(model, x, y) for x, y in loader) / len(loader)
        """,
        # A notebook that evaluates under no_grad, then fine-tunes in eval mode (frozen batch norm) on purpose.
        """
        import torch
        model.eval()
        with torch.no_grad():
            baseline = sum(criterion(model(x), y).item() for x, y in val_loader)
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        """,
        # A helper that trains is no evaluation (SC206's business, not this rule's).
        """
        import torch
        def train_step(net, x, y):
            loss = criterion(net(x), y)
            loss.backward()
            return loss.item()
        def run(model, loader):
            model.eval()
            for x, y in loader:
                train_step(model, x, y)
        """,
        # A d2l notebook page whose `import torch` lives in an earlier page: `torch.no_grad` is still torch's.
        """
        from torch import nn
        def evaluate_accuracy(net, data_iter):
            net.eval()
            with torch.no_grad():
                for X, y in data_iter:
                    metric.add(accuracy(net(X), y), y.numel())
        """,
        # Yet-Another-EfficientDet-Pytorch's `coco_eval.py`: the model is frozen before its eval region, so its
        # forward passes on images from numpy record no graph.
        """
        import torch
        def evaluate_coco(images, model):
            for image in images:
                x = torch.from_numpy(image).float()
                features, regression, classification, anchors = model(x)
        model = EfficientDetBackbone(compound_coef=0)
        model.requires_grad_(False)
        model.eval()
        evaluate_coco(images, model)
        """,
        """
        import torch
        def evaluate(images, model):
            for p in model.parameters():
                p.requires_grad = False
            model.eval()
            return [model(torch.from_numpy(image).float()) for image in images]
        """,
        # A frozen teacher whose parameters need no grad, in a training step.
        """
        import torch
        def distill_step(student, teacher, x):
            teacher.eval()
            teacher.requires_grad_(False)
            return kl(student(x), teacher(x))
        """,
        # A DDPG agent (a tutorial's form): the critic runs in eval mode for its layer norm, and its output is
        # trained on after the switch back.
        """
        import torch
        import torch.nn.functional as F
        class Agent:
            def learn(self, state, action, target):
                self.critic.eval()
                critic_value = self.critic.forward(state, action)
                self.critic.train()
                self.critic.optimizer.zero_grad()
                critic_loss = F.mse_loss(target, critic_value)
                critic_loss.backward()
                self.critic.optimizer.step()
        """,

        # A module with no parameters (constants and buffers only) checked in eval mode: no graph to build.
        """
        import math
        import torch
        from torch import nn
        LOG2 = math.log(2)
        class BitQuantizer(nn.Module):
            def __init__(self, bits=4, threshold=LOG2, hard_on_eval=False):
                super().__init__()
                self.bits = bits
                self.threshold = threshold
                self.hard_on_eval = hard_on_eval
                self.register_buffer("powers", 2 ** torch.arange(bits), persistent=False)
            def forward(self, logits):
                bits = (logits > 0).long() if self.hard_on_eval and not self.training else logits.sigmoid().round().long()
                return (bits * self.powers).sum(dim=-1)
        if __name__ == "__main__":
            quantizer = BitQuantizer(bits=8)
            logits = torch.randn(2, 3, 8)
            quantizer.eval()
            codes = quantizer(logits)
            assert codes.shape == (2, 3)
        """,
        # facebookresearch/DPR: the helper runs the model with autograd on only under `if model.training:`; in eval
        # mode it takes the `no_grad` branch.
        """
        import torch
        from torch import nn
        def _do_biencoder_fwd_pass(model: nn.Module, batch, loss_function):
            if model.training:
                model_out = model(batch.question_ids, batch.context_ids)
            else:
                with torch.no_grad():
                    model_out = model(batch.question_ids, batch.context_ids)
            local_q_vector, local_ctx_vectors = model_out
            return loss_function(local_q_vector, local_ctx_vectors, batch.is_positive)
        class BiEncoderTrainer:
            def __init__(self, biencoder, dev_iterator, loss_function):
                self.biencoder = biencoder
                self.dev_iterator = dev_iterator
                self.loss_function = loss_function
            def validate_nll(self) -> float:
                self.biencoder.eval()
                total_loss = 0.0
                for batch in self.dev_iterator:
                    loss = _do_biencoder_fwd_pass(self.biencoder, batch, self.loss_function)
                    total_loss += loss.item()
                return total_loss
        """,
        # rosinality/alias-free-gan-pytorch: the discriminator's step samples from the generator in eval mode after
        # `requires_grad(generator, False)` froze it.
        _GAN_TRAINER % "False",
        # An analysis notebook switches autograd off for the whole process in its first cell.
        """
        import torch
        from transformers import AutoModelForCausalLM
        torch.set_grad_enabled(False)
        lm = AutoModelForCausalLM.from_pretrained("gpt2")
        lm.eval()
        logits = lm(input_ids).logits
        """,
        # carpedm20/ENAS-pytorch: a shim gives `torch.no_grad()` where the running torch has it (else a manager that
        # does nothing), and the trainer's evaluation runs only under it.
        """
        import contextlib
        import torch
        def _get_no_grad_ctx_mgr():
            if float(torch.__version__[0:3]) >= 0.4:
                return torch.no_grad()
            return contextlib.suppress()
        class Trainer:
            def __init__(self, shared, loader):
                self.shared, self.loader = shared, loader
            def train(self, epochs):
                for epoch in range(epochs):
                    self.train_shared()
                    with _get_no_grad_ctx_mgr():
                        self.evaluate()
            def evaluate(self):
                self.shared.eval()
                return sum(self.shared(x).argmax(1).eq(y).sum().item() for x, y in self.loader)
        """,
    ]
    INVALID = [
        # Occlusion only runs the model forward on perturbed inputs: nothing wants the graph.
        _CAPTUM_EXPLAIN % ("Occlusion", "sliding_window_shapes=(3,)", "Occlusion"),
        # A helper whose branch for eval mode runs the model with autograd on.
        """
        import torch
        def predict(model, batch):
            if not model.training:
                return model(batch).softmax(-1)
            return model(batch)
        def validate(model, loader):
            model.eval()
            return [predict(model, x).argmax(-1) for x in loader]
        """,
        # The same trainer's helper handed `True`: the generator's parameters need grad, its forward records a graph.
        _GAN_TRAINER % "True",
        # A frozen backbone does not freeze the model that is evaluated.
        """
        import torch
        def evaluate(images, model, backbone):
            backbone.requires_grad_(False)
            model.eval()
            return [model(torch.from_numpy(image).float()) for image in images]
        """,
        # The same wrapper for either mode, but the eval branch ends the graph itself: nothing a caller gets can
        # use it.
        """
        import torch
        def run(model, x, train):
            if train:
                model.train()
                return model(x)
            model.eval()
            scores = model(x)
            return scores.argmax(1).tolist()
        """,
        # skorch before its fix: a plain class's `validation_step` (no Lightning here) runs the module in eval mode
        # with autograd on.
        """
        import torch
        class NeuralNet:
            def initialize(self):
                self.module_ = self.module()
                return self
            def infer(self, x):
                return self.module_(x)
            def validation_step(self, Xi, yi):
                self.module_.eval()
                y_pred = self.infer(Xi)
                return {"loss": self.criterion_(y_pred, yi), "y_pred": y_pred}
        """,
        # pytorch-sentiment-analysis: evaluate() leaves the model in eval mode; the notebook then predicts with
        # autograd on.
        """
        import torch
        def evaluate(data_loader, model, criterion):
            model.eval()
            with torch.no_grad():
                return sum(criterion(model(x), y).item() for x, y in data_loader)
        def predict_sentiment(text, model, vocab):
            ids = torch.LongTensor(vocab.lookup_indices(text.split())).unsqueeze(0)
            return torch.softmax(model(ids).squeeze(0), dim=-1)
        test_loss = evaluate(test_data_loader, model, criterion)
        probability = predict_sentiment("This film is terrible!", model, vocab)
        """,
        # A notebook: train, then evaluate at module level without no_grad.
        """
        import torch
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
        model.eval()
        correct = 0
        for x, y in test_loader:
            correct += (model(x).argmax(1) == y).sum().item()
        """,
        # A train() function that validates in its own body.
        """
        import torch
        def train(model, optimizer, train_loader, val_loader, epochs):
            for epoch in range(epochs):
                model.train()
                for x, y in train_loader:
                    optimizer.zero_grad()
                    criterion(model(x), y).backward()
                    optimizer.step()
                model.eval()
                val_loss = 0.0
                for x, y in val_loader:
                    val_loss += criterion(model(x), y).item()
        """,
        # eval() in one function, the forward in the helper it calls.
        """
        import torch
        def accuracy(net, x, y):
            return (net(x).argmax(1) == y).float().mean().item()
        def evaluate(model, loader):
            model.eval()
            return sum(accuracy(model, x, y) for x, y in loader) / len(loader)
        """,
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
        # The same check of a module that holds a layer: its weights record the graph.
        """
        import torch
        from torch import nn
        class BitQuantizer(nn.Module):
            def __init__(self, dim, bits=4):
                super().__init__()
                self.bits = bits
                self.to_logits = nn.Linear(dim, bits)
            def forward(self, x):
                return self.to_logits(x).sigmoid().round()
        if __name__ == "__main__":
            quantizer = BitQuantizer(16, bits=8)
            quantizer.eval()
            codes = quantizer(torch.randn(2, 3, 16))
            assert codes.shape == (2, 3, 8)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Calls and assignments that want gradients, with their function (None: module level) and top-level
        # statement: an eval region holding one wants the graph (a saliency map, a train/eval loop sharing one
        # body). Each counts from where the traversal enters it.
        self._wants_grad: list[tuple[cst.FunctionDef | None, cst.CSTNode, cst.CSTNode]] = []
        # Names bound to a new object (`f = torch.jit.freeze(f.eval())`), with their function, assignment and
        # top-level statement: the region ends where the traversal leaves the assignment.
        self._rebound: list[tuple[cst.FunctionDef | None, str, cst.Assign, cst.CSTNode]] = []
        self._in_tests: list[cst.Call] = []  # eval switches made in `test_*` functions
        # Functions that turn autograd on somewhere: their callers may run them under no_grad, which this file
        # does not show (PyG's PRBCD attack runs its `_forward` both ways), so their grad mode is not known.
        self._switches_grad: list[cst.FunctionDef | None] = []
        # Modules frozen (`model.requires_grad_(False)`), with their function, the freezing statement and the
        # top-level statement: from there on their forward passes record no graph of inputs that need no grad.
        self._frozen: list[tuple[cst.FunctionDef | None, str, cst.CSTNode, cst.CSTNode]] = []

    def visit_Expr(self, node: cst.Expr) -> None:
        if (frozen := frozen_module(self.ctx, node)) is not None:
            self._frozen.append((self.ctx.function, frozen, node, self.ctx.ancestors[1]))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute:
            name = func.attr.value
            if name in _GRADIENT_METHODS:
                self._wants_grad.append((self.ctx.function, node, self.ctx.ancestors[1]))
                return
            if may_switch_mode(node):
                if in_test(self.ctx):
                    self._in_tests.append(node)
                return
        # torch's functions, `torch.autograd.grad(...)` as well as `grad(...)` imported
        qualname = self.ctx.qualname(func)
        if qualname is not None and (qualname in _GRADIENT_CALLS or qualname.startswith(_GRADIENT_MODULES)):
            self._wants_grad.append((self.ctx.function, node, self.ctx.ancestors[1]))
        if qualname in _GRAD_SWITCHES:
            self._switches_grad.append(self.ctx.function)

    def visit_Assign(self, node: cst.Assign) -> None:
        if (frozen := frozen_module(self.ctx, node)) is not None:
            self._frozen.append((self.ctx.function, frozen, node, self.ctx.ancestors[1]))
        target = node.targets[0].target
        if type(target) is cst.Attribute and target.attr.value == "requires_grad":
            self._wants_grad.append((self.ctx.function, node, self.ctx.ancestors[1]))

    def leave_Assign(self, node: cst.Assign) -> None:
        """`f = torch.jit.freeze(f.eval())` binds a new object; `model = model.to(device).eval()` keeps the model."""
        # The names along `model.to(device).eval()`: binding one of them to it keeps the same module.
        chain: set[str] = set()
        expr = node.value
        while type(expr) is cst.Call or type(expr) is cst.Attribute:
            expr = expr.func if type(expr) is cst.Call else expr.value
            chain.add(dotted_name(expr) or "")
        for target in node.targets:
            name = dotted_name(target.target)
            if name is not None and name not in chain:
                self._rebound.append((self.ctx.function, name, node, self.ctx.ancestors[1]))

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return  # tests run models in eval mode to check them; the memory the graph costs does not matter there
        training = training_loop(self.ctx)
        # Bodies that switch a model to eval mode themselves, or call a helper of this file that may.
        functions = {event.function for event in training.events if event.kind == "eval"} | set(training.local_calls())
        grad = _Grad(self.ctx, self._wants_grad, self._rebound, self._switches_grad, self._frozen)
        in_tests = set(self._in_tests)
        # Per forward pass, where to report it: once, however often its helper is called, and in the helper's own
        # body when the helper switches to eval mode itself.
        found: dict[cst.Call, tuple[CallSite, str]] = {}
        for function in functions:
            # most of these bodies switch no model to eval mode: their regions, asked first, spare `_may_record`
            regions = training.eval_regions(function)
            if not regions or not self._may_record(function):
                continue
            for event, end in regions:
                if event.node in in_tests or event.subject is None:
                    continue
                first = self._first_run(event, event.subject, grad.region_end(event, end), grad)
                if first is None:
                    continue
                forward, site, message = first
                known = found.get(forward)
                if known is None or forward is site.node and known[0].node is not forward \
                        or known[0].node is not forward and site.order < known[0].order:
                    found[forward] = site, message
        for site, message in sorted(found.values(), key=lambda item: item[0].order):
            self.report(site.node, message)

    def _first_run(self, event: Event, model: str, end: float, grad: _Grad) -> tuple[cst.Call, CallSite, str] | None:
        """The first call in the region that runs `model` with autograd on, itself or through a helper: the forward
        call, the call in the region and the message."""
        if grad.wanted(event, end):
            return None
        training = training_loop(self.ctx)
        if self._calls_gradient_function(event, end):
            return None
        if any(later.kind in ("backward", "step") and event.order < later.order < end
               for later in training.body_events(event.function)):
            return None  # a helper trains in the region
        for site in training.calls_in(event.function):
            if not event.order < site.order < end or site.grad_disabled or grad.frozen(event.function, model, site):
                continue
            call = site.node
            if called_module(call) == model:
                if self._backpropagated(call, event.function, site.order):
                    return None  # the output is trained on later: the region wants its graph
                if self._forward_for_either_mode(call, event):
                    return None  # its caller owns the graph and the grad mode, as it does in train mode
                class_def = instance_class(self.ctx, call.func)
                if class_def is not None and holds_no_parameters(self.ctx, class_def):
                    return None  # nothing of its own to record a graph for
                return call, site, (f"`{model}` is in eval mode but `{self.ctx.code(call.func)}(...)` runs with autograd on: "
                              "`eval()` does not stop the graph from being built; wrap the evaluation in "
                              "`with torch.no_grad():` (or decorate the function with `@torch.no_grad()`)")
            inner = training.helper_runs(call, model) if training.definitions_of(call) else None
            if inner is not None:
                return inner, site, (f"`{model}` is in eval mode and `{self.ctx.code(call.func)}(...)` runs it "
                              f"(`{self.ctx.code(inner)}`) with autograd on: `eval()` does not stop the graph from "
                              "being built; wrap the call in `with torch.no_grad():` (or decorate the helper with "
                              "`@torch.no_grad()`)")
        return None

    def _calls_gradient_function(self, event: Event, end: float) -> bool:
        """The region calls a function or method of the project whose own body computes gradients: `model(x)` then
        `model.relprop(cam)`, whose LRP layers call `torch.autograd.grad` on the forward's graph."""
        called = {site.node.func.attr.value if type(site.node.func) is cst.Attribute else dotted_name(site.node.func)
                  for site in training_loop(self.ctx).calls_in(event.function) if event.order < site.order < end}
        return bool(called & self.ctx.analysis(GradientFunctions).names())

    def _backpropagated(self, call: cst.Call, function: cst.FunctionDef | None, order: int) -> bool:
        """The name `call`'s output is assigned to feeds a backward pass later in the body, before the name is
        bound again, through the names computed from it: DDPG's `critic_value = self.critic.forward(s, a)` under
        `critic.eval()`, then `critic.train()` and `F.mse_loss(target, critic_value).backward()`."""
        body = function.body if function is not None else self.ctx.module
        sources: dict[str, set[str]] = {}  # name -> the names its assignments compute from
        position: dict[int, int] = {}  # id() of a node -> its place in source order
        target, assigned_at, rebound_at = None, -1, None
        for index, node in enumerate(self.ctx.walk(body)):
            position[id(node)] = index
            if type(node) is not cst.Assign:
                continue
            names = set(names_in(node.value))
            for assigned in node.targets:
                for element in _assigned_names(assigned.target):
                    sources.setdefault(element, set()).update(names)
                    if target is None and any(inner is call for inner in self.ctx.walk(node.value)):
                        target, assigned_at = element, index
                    elif element == target and rebound_at is None:
                        rebound_at = index
        if target is None:
            return False
        for event in training_loop(self.ctx).body_events(function):
            at = position.get(id(event.node))
            if event.kind != "backward" or event.order <= order or at is None or at < assigned_at \
                    or rebound_at is not None and at > rebound_at:
                continue
            seen: set[str] = set()
            stack = names_in(event.node)
            while stack:
                name = stack.pop()
                if name == target:
                    return True
                if name not in seen:
                    seen.add(name)
                    stack.extend(sources.get(name, ()))
        return False

    def _forward_for_either_mode(self, call: cst.Call, event: Event) -> bool:
        """`call` is returned as it is by a body that also switches the model back to train mode: a forward wrapper
        for both modes (score_sde's `model_fn`), whose callers backpropagate its training output and pick the grad
        mode of each call (sampling under `no_grad`, a divergence's `autograd.grad` under `enable_grad`)."""
        function = event.function
        if function is None or not any(other.kind == "train" and other.subject == event.subject
                                       for other in training_loop(self.ctx).in_function(function)):
            return False
        for node in self.ctx.walk(function.body):
            if type(node) is cst.Return and node.value is not None:
                value = node.value
                returned = [element.value for element in value.elements] if type(value) is cst.Tuple else [value]
                if any(element is call for element in returned):
                    return True
        return False

    def _may_record(self, function: cst.FunctionDef | None) -> bool:
        if function is None:
            return True
        name = function.name.value
        return not (name in LIGHTNING_HOOKS and self._may_be_lightning(function)) and name != "forward" \
            and not runs_without_grad(self.ctx, function) and not self._quiet_in_importers(function)

    def _quiet_in_importers(self, function: cst.FunctionDef) -> bool:
        """A plain function no call of this file runs, which the project's modules that import the file call, and
        only under `no_grad` (`with torch.no_grad(): validate(...)` in `train.py`); or a method of a plain class
        (a predictor wrapping its network) that every call in the project runs under `no_grad`, itself or through
        a function whose every call does."""
        name = function.name.value
        class_def = self.ctx.class_of_method(function)
        if class_def is not None:
            return not class_def.bases and _method_quiet(self.ctx.filename, self.ctx.code(self.ctx.module), name)
        if self.ctx.calls_to(name):
            return False
        texts = importers(self.ctx.filename)
        quiet = [quiet for text in texts or () for quiet, _ in _calls_without_grad(text, name)]
        return bool(quiet) and all(quiet)

    def _may_be_lightning(self, method: cst.FunctionDef) -> bool:
        """A method of a class with a base (a LightningModule, directly or through a base of the project): not a
        plain class such as skorch's `NeuralNet`, whose own `validation_step` nothing runs under `no_grad`."""
        class_def = self.ctx.class_of_method(method)
        return class_def is not None and any(dotted_name(base.value) != "object" for base in class_def.bases)


class _Grad:
    """What the visits gathered about gradients, placed among the file's calls: a position is the `Event.order` of
    the latest call the traversal entered there, plus a half (between that call and the next)."""

    def __init__(self, ctx: Context, wants_grad: list[tuple[cst.FunctionDef | None, cst.CSTNode, cst.CSTNode]],
                 rebound: list[tuple[cst.FunctionDef | None, str, cst.Assign, cst.CSTNode]],
                 switches_grad: list[cst.FunctionDef | None],
                 frozen: list[tuple[cst.FunctionDef | None, str, cst.CSTNode, cst.CSTNode]]) -> None:
        self.ctx = ctx
        self.frozen_in: dict[cst.FunctionDef | None, list[tuple[str, cst.CSTNode, cst.CSTNode]]] = {}
        for function, module, node, statement in frozen:
            self.frozen_in.setdefault(function, []).append((module, node, statement))
        self.wants_grad: dict[cst.FunctionDef | None, list[tuple[cst.CSTNode, cst.CSTNode]]] = {}
        for function, node, statement in wants_grad:
            self.wants_grad.setdefault(function, []).append((node, statement))
        self.rebound: dict[cst.FunctionDef | None, list[tuple[str, cst.Assign, cst.CSTNode]]] = {}
        for function, name, assign, statement in rebound:
            self.rebound.setdefault(function, []).append((name, assign, statement))
        self.switches_grad = set(switches_grad)
        self._entered: dict[int, dict[int, int]] = {}  # id() of a top-level statement -> `_count` of it
        self._orders: dict[int, int] | None = None  # id() of a call -> its `CallSite.order`

    def wanted(self, event: Event, end: float) -> bool:
        """A call or assignment that wants gradients is in the region, or its function turns autograd on."""
        function = event.function
        if function is not None and function in self.switches_grad:
            return True
        return any(event.order < self._at(statement, node) + 0.5 < end
                   for node, statement in self.wants_grad.get(function, ()))

    def frozen(self, function: cst.FunctionDef | None, model: str, site: CallSite) -> bool:
        """`model` was frozen in `function` before `site`: the call records no graph of its own."""
        return any(module == model and self._at(statement, node) < site.order
                   for module, node, statement in self.frozen_in.get(function, ()))

    def region_end(self, event: Event, end: float) -> float:
        """Where the region ends: its `end`, or earlier where its model's name is bound to a new object."""
        return min((at for name, assign, statement in self.rebound.get(event.function, ()) if name == event.subject
                    and (at := self._left(statement, assign)) > event.order), default=end)

    def _left(self, statement: cst.CSTNode, assign: cst.Assign) -> float:
        """The position after the traversal leaves `assign`: the calls inside it are entered by then."""
        return self._at(statement, assign) + sum(map(_counted, self.ctx.walk(assign))) + 0.5

    def _at(self, statement: cst.CSTNode, node: cst.CSTNode) -> int:
        """The calls the traversal has entered when it enters `node` of the top-level `statement` (a call counts
        itself): `ctx._order` then."""
        entered = self._entered.get(id(statement))
        if entered is None:
            entered = self._entered[id(statement)] = self._count(statement)
        return entered[id(node)]

    def _count(self, statement: cst.CSTNode) -> dict[int, int]:
        """id() of each node of a top-level statement -> the calls entered when the traversal enters it, counted
        along the traversal's order (pre-order, children in source order) from the calls before the statement."""
        entered: dict[int, int] = {}
        count, first = 0, None
        for node in self.ctx.walk(statement):
            if _counted(node):
                count += 1
                first = node if first is None else first
            entered[id(node)] = count
        before = self._before(statement, first)
        return {key: before + value for key, value in entered.items()}

    def _before(self, statement: cst.CSTNode, first: cst.Call | None) -> int:
        """The calls the traversal entered before the top-level `statement`, whose first counted call is `first`."""
        if self._orders is None:
            self._orders = {id(site.node): site.order for sites in self.ctx.calls.values() for site in sites}
        if first is not None:
            return self._orders[id(first)] - 1
        body = self.ctx.module.body
        for earlier in reversed(body[:body.index(statement)]):  # the latest call of the statements before
            last = next((node for node in reversed(list(self.ctx.walk(earlier))) if _counted(node)), None)
            if last is not None:
                return self._orders[id(last)]
        return 0


def _counted(node: cst.CSTNode) -> bool:
    """A call that `CallSite.order` counts."""
    return type(node) is cst.Call and (type(node.func) is cst.Name or type(node.func) is cst.Attribute)


def _assigned_names(target: cst.BaseExpression) -> list[str]:
    """The names or dotted names an assignment target binds: `x`, `self.x`, `a, b`."""
    if type(target) is cst.Tuple or type(target) is cst.List:
        return [name for element in target.elements for name in _assigned_names(element.value)]
    name = dotted_name(target)
    return [name] if name is not None else []


def _method_quiet(filename: str, text: str, name: str) -> bool:
    """Every call of a method `name` (`x.name(...)`, whatever `x` holds: another class's method of the same name only
    adds calls that must be quiet too) in the file, the modules importing it and the modules those import (where a
    helper handed the object calls it) runs under `no_grad`, or in a plain function of its module every call of which,
    there and in the modules importing that one, does. Some call must be found."""
    files = importer_files(filename)
    if not files:
        return False  # none, or a project too large to search
    modules = {os.path.abspath(filename): text, **{os.path.abspath(path): other for path, other in files}}
    for path, other in files:
        for helper in imported_files(other, path, skip_others=True):
            summary = PROJECT.summary(helper) if str(helper) not in modules else None  # read once per stamp
            if summary is not None:
                modules[str(helper)] = "\n".join(summary.lines)
    found = False
    for path, module in modules.items():
        for quiet, enclosing in _calls_without_grad(module, name, method=True):
            found = True
            if quiet:
                continue
            if enclosing is None:
                return False
            callers = [quiet for quiet, _ in _calls_without_grad(module, enclosing)]
            callers += [quiet for other in importers(path) or () for quiet, _ in _calls_without_grad(other, enclosing)]
            if not callers or not all(callers):
                return False
    return found


@lru_cache(maxsize=64)  # a module's text is asked again for each method and each helper of the file
def _calls_without_grad(text: str, name: str, method: bool = False) -> tuple[tuple[bool, str | None], ...]:
    """For each call of `name` in a module's text (`name(...)`, `module.name(...)`; with `method`, `x.name(...)`
    only), whether it sits in a `with torch.no_grad():` / `inference_mode()` block or a function decorated so, and
    the name of the plain function of the module it sits in (None at the module's level, in a method or a nested
    function)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return ()
    found: list[tuple[bool, str | None]] = []
    stack: list[tuple[ast.AST, bool, str | None, int]] = [(tree, False, None, 0)]
    while stack:
        node, quiet, enclosing, depth = stack.pop()
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(_grad_off(item.context_expr) for item in node.items):
            quiet = True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            quiet = any(_grad_off(decorator) for decorator in node.decorator_list)  # its callers are not known
            enclosing = node.name if depth == 1 else None
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == name \
                    or not method and isinstance(func, ast.Name) and func.id == name:
                found.append((quiet, enclosing))
        inner = depth + 1 if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
            else depth
        stack.extend((child, quiet, enclosing, inner) for child in ast.iter_child_nodes(node))
    return tuple(found)


def _grad_off(expr: ast.expr) -> bool:
    """`torch.no_grad()`, `torch.inference_mode()`, `@torch.no_grad` written bare."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    last = expr.attr if isinstance(expr, ast.Attribute) else expr.id if isinstance(expr, ast.Name) else ""
    return last in ("no_grad", "inference_mode")
