"""SC205 direct-forward-call: `model.forward(x)` bypasses `nn.Module.__call__` and with it every hook."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.context import Point
from shapecheck.engine.syntax import last_name
from shapecheck.objects.callers import every_call_passes
from shapecheck.objects.stored import constructor_arguments, stored_parameter
from shapecheck.objects.modules import is_module
from shapecheck.shapes.evaluator import evaluator

RREF_PROXIES = frozenset({"rpc_sync", "rpc_async", "remote"})


# A feature extractor running what the script hands it (`%s`) over the batches.
_RECORDED_FEATURES = """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
            def forward(self, x):
                return self.net(x)
        class HiddenMarkovModel:
            def forward(self, observations):
                return observations.cumsum(0)
        @torch.no_grad()
        def embed(encoder, batches):
            return torch.cat([encoder.forward(x) for x in batches])
        feats = embed(%s, torch.randn(64, 16).split(8))
        """


class DirectForwardCall(Rule):
    code = "SC205"
    name = "direct-forward-call"
    severity = "error"  # skipped hooks (weight norm, pruning, ...) silently change the output
    message = "calling `.forward()` directly skips the module's hooks: call the module, `model(x)`"
    fixable = "unsafe"
    triggers = (".forward(",)
    # A receiver known here to be a module is reported where it is; one bound further down, or handed to a
    # constructor, waits for the whole file (`finish`), from what the visits gathered.
    scope = "statement"
    gathered = ("later", "stored", "received")
    docs = """
        ## What it does
        Finds `model.forward(x)` and `self.encoder.forward(x)`: a module's `forward` called with arguments
        instead of the module itself.

        Not reported: `super().forward(x)` and `Base.forward(self, x)` (a subclass extending its parent),
        `self.forward(x)` inside the module's own methods (a custom `__call__`, `predict` or `generate` that
        reuses the forward on purpose), a wrapper handing its own `*args, **kwargs` on to the module it wraps
        (DDP does this, running its own pre- and post-forward), a receiver that is itself a call (RPC proxies,
        `rref.rpc_sync().forward(x)`; a module built in place), a reference without a call
        (`torch.jit.trace(model.forward, x)`, `checkpoint(self.block.forward, x)`), `.forward()` without
        arguments (OpenCV's `cv2.dnn` nets), and any receiver not known to be an `nn.Module`: many objects
        have a `forward` of their own (an estimator's API, an `autograd.Function`, a `RemoteModule`'s RPC, a
        plain class), so the rule reports only an object a `torch.nn` class built, an instance of a project class
        (of this file or a first-party import) deriving from `nn.Module` or `LightningModule`, a model a
        torchvision builder, `timm.create_model` or a transformers PyTorch model's `from_pretrained` returned
        (not `torch.hub.load`, whose entry points may return anything), `self.x` where
        the constructor stored such an object (or its parameter, when every construction of the class in the
        file passes such an object), a parameter annotated with such a class, and a plain function's parameter
        that every call of the function (in the file, or in a module of the project importing it) hands such an
        object (`embed_dataset(AudioEncoder().eval(), batches)`). Any other parameter without annotation, or an
        object whose origin the analysis cannot see, is not reported.

        ## Why is this bad?
        `model(x)` runs `nn.Module.__call__`, which runs the forward pre-hooks and hooks around `forward`. Those
        hooks are how much of the ecosystem works: FSDP all-gathers sharded parameters in them, DDP and
        activation checkpointing wrappers, quantization observers, pruning masks, `torch.func` and profilers
        hook in there too. `model.forward(x)` skips all of it: with FSDP it computes on unsharded garbage or
        crashes, elsewhere a registered hook silently does nothing. The primer: "Never call model.forward(x)
        directly. Instead, call model(x), which runs forward along with any registered hooks."

        ## Example
        ```python
        logits = model.forward(x)
        h = self.encoder.forward(tokens, mask)
        ```

        ## Use instead
        ```python
        logits = model(x)
        h = self.encoder(tokens, mask)
        ```

        ## Fix
        Unsafe: `m.forward(args)` becomes `m(args)`. The hooks now run, which is the point, but also changes
        behaviour where a hook was registered on purpose to be skipped here.
    """
    VALID = [
        # The helper is handed an object with a `forward` of its own, no module.
        _RECORDED_FEATURES % "HiddenMarkovModel()",
        """
        import torch.nn as nn
        class Block(nn.Linear):
            def forward(self, x):
                return super().forward(x) * self.scale
        """,
        """
        import torch
        traced = torch.jit.trace(model.forward, example_inputs)
        """,
        """
        import torch
        from torch.utils.checkpoint import checkpoint
        def run(self, x):
            return checkpoint(self.block.forward, x, use_reentrant=False)
        """,
        """
        import cv2
        import torch
        net = cv2.dnn.readNetFromONNX("yolov5s.onnx")
        net.setInput(blob)
        outs = net.forward(net.getUnconnectedOutLayersNames())
        detections = net.forward()
        """,
        """
        import torch
        import torch.nn as nn
        class Classifier(nn.Module):
            def forward(self, x):
                return self.head(x)
            @torch.no_grad()
            def predict(self, x):
                return self.forward(x).argmax(-1)
        """,
        """
        import torch
        class LinearFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input, weight):
                return input @ weight.t()
        y = LinearFunction.forward(ctx, x, w)
        """,
        """
        import torch.nn as nn
        class GatedLayer(nn.Conv2d):
            def forward(self, x):
                return nn.Conv2d.forward(self, x) * self.gate(x)
        """,
        """
        import importlib
        import torch
        fused_layer_norm_cuda = importlib.import_module("fused_layer_norm_cuda")
        output, mean, invvar = fused_layer_norm_cuda.forward(x, shape, eps)
        """,
        """
        import torch
        import torch.distributed.rpc as rpc
        def run(rref, x):
            return rref.rpc_sync().forward(x)
        """,
        """
        import torch
        from torch.distributed.nn import RemoteModule
        class HybridModel(torch.nn.Module):
            def __init__(self, remote_emb_module):
                super().__init__()
                self.remote_emb_module = remote_emb_module
            def forward(self, indices, offsets):
                return self.fc(self.remote_emb_module.forward(indices, offsets))
        """,
        """
        import torch
        from detectron2.layers import ROIAlign
        crops = ROIAlign((28, 28), 1.0, 0, aligned=True).forward(masks, rois)
        """,
        # A transformers pipeline's own `forward` (preprocess, forward, postprocess): no module. Nor is what
        # `torch.hub.load` returns certainly one, nor a tokenizer.
        """
        from transformers import AutoTokenizer, pipeline
        import torch
        classifier = pipeline("text-classification", model="distilbert-base-uncased")
        logits = classifier.forward(classifier.preprocess("a fine day"))
        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        detector = torch.hub.load("ultralytics/yolov5", "custom", path="best.pt")
        boxes = detector.forward(images)
        """,
        """
        import torch
        import torch.nn as nn
        class Wrapper(nn.Module):
            def forward(self, *args, **kwargs):
                return self.module.forward(*args, **kwargs)
        """,
        """
        import torch
        class MatmulExt(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a @ b
        def matmul(a, b):
            op = fp16_matmul
            return op.forward(None, a, b)
        fp16_matmul = MatmulExt()
        """,
        """
        import torch
        def evaluate(model, loader):
            # `model` may be anything with a `forward`: nothing here says it is a module
            for batch in loader:
                outputs = model.forward(**batch)
        """,
        """
        import torch
        def decode(model, decoder_name, tokens, encoder_out):
            return getattr(model, decoder_name).forward(tokens, encoder_out=encoder_out)
        """,
        """
        import numpy as np
        from hmmlearn import hmm
        class ForwardFilter:
            def __init__(self, model):
                self.model = model
            def update(self, obs):
                return self.model.forward(obs)
        tracker = ForwardFilter(hmm.GaussianHMM(n_components=3))
        alpha = tracker.update(np.zeros((10, 2)))
        """,
        """
        import torch
        class KalmanFilter:
            def forward(self, z):
                return self.F @ z
        def track(kf: KalmanFilter, measurements):
            return [kf.forward(z) for z in measurements]
        """,
        """
        import torch
        from sklearn.pipeline import make_pipeline
        def featurize(estimator, X):
            return estimator.get_params()["model"].forward(X)
        """,
        """
        import torch
        class Pipeline:
            def forward(self, batch):
                return [step(batch) for step in self.steps]
        pipeline = Pipeline()
        out = pipeline.forward(batch)
        """,
    ]
    INVALID = [
        # Every call hands the helper a module: a hook registered on it never sees the batches.
        _RECORDED_FEATURES % "Encoder().eval()",
        Invalid(
            """
            import torch
            model = torch.nn.Linear(10, 2)
            logits = model.forward(x)
            """,
            fixed="""
            import torch
            model = torch.nn.Linear(10, 2)
            logits = model(x)
            """,
        ),
        Invalid(
            """
            import torch.nn as nn
            class Seq2Seq(nn.Module):
                def __init__(self, d_model):
                    super().__init__()
                    self.encoder = nn.TransformerEncoderLayer(d_model, 4, batch_first=True)
                    self.decoder = nn.TransformerDecoderLayer(d_model, 4, batch_first=True)
                def forward(self, src, tgt):
                    memory = self.encoder.forward(src)  # keep the comment
                    return self.decoder.forward(tgt, memory)
            """,
            fixed="""
            import torch.nn as nn
            class Seq2Seq(nn.Module):
                def __init__(self, d_model):
                    super().__init__()
                    self.encoder = nn.TransformerEncoderLayer(d_model, 4, batch_first=True)
                    self.decoder = nn.TransformerDecoderLayer(d_model, 4, batch_first=True)
                def forward(self, src, tgt):
                    memory = self.encoder(src)  # keep the comment
                    return self.decoder(tgt, memory)
            """,
            count=2,
        ),
        """
        import torch.nn as nn
        def evaluate(model: nn.Module, loader):
            for batch in loader:
                outputs = model.forward(**batch)
        """,
        """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self, vocab, dim):
                super().__init__()
                self.embed = nn.Embedding(vocab, dim)
            def forward(self, tokens):
                return self.embed(tokens)
        device = torch.device("cuda")
        encoder = Encoder(1000, 64).to(device)
        features = encoder.forward(tokens)
        """,
        """
        import torch
        import torch.nn as nn
        class Policy(nn.Module):
            def forward(self, obs):
                return self.head(obs)
            def act(self, obs):
                return self.sample(self.forward(obs))
        class Agent:
            def __init__(self):
                self.policy = Policy()
            def step(self, obs):
                return self.policy.forward(obs)
        """,
        # Models of torchvision, timm and transformers are modules too.
        """
        import torch
        import torchvision
        backbone = torchvision.models.resnet50(weights="DEFAULT")
        features = backbone.forward(images)
        """,
        Invalid(
            """
            import timm
            import torch
            from transformers import AutoModelForSequenceClassification
            vit = timm.create_model("vit_base_patch16_224", pretrained=True, num_classes=10)
            logits = vit.forward(pixels)
            bert = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
            out = bert.forward(**batch)
            """,
            count=2,
        ),
        # A distillation helper storing the models it is given: the file builds it with modules.
        """
        import torch
        import torch.nn as nn
        class Distiller:
            def __init__(self, teacher, student):
                self.teacher, self.student = teacher.eval(), student
            def step(self, x):
                with torch.no_grad():
                    t_logits = self.teacher.forward(x)
                return self.student(x), t_logits
        distiller = Distiller(nn.Linear(8, 4), nn.Linear(8, 4))
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Calls whose receiver is a name bound nowhere yet: a global that the module binds further down.
        self.later: list[tuple[cst.Call, cst.Name]] = []
        # Calls through `self.x` that `__init__` set from its parameter: decided by the class's constructions.
        self.stored: list[tuple[cst.Call, cst.ClassDef, cst.FunctionDef, str]] = []
        # Calls through a plain function's parameter: decided by the function's calls, here and in its importers.
        self.received: list[tuple[cst.Call, cst.FunctionDef, str]] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value != "forward" or not node.args:
            return
        receiver = func.value
        receiver_type = type(receiver)
        if receiver_type is cst.Call:
            name = last_name(receiver.func)
            # `super().forward(x)`; `rref.rpc_sync().forward(x)`, the RPC API itself (the proxy is not callable);
            # `ROIAlign(...).forward(x)`, a module built right here, with no hooks to skip.
            if name == "super" or name in RREF_PROXIES or name[:1].isupper():
                return
        elif receiver_type is cst.Name:
            if receiver.value in ("self", "cls", "__class__"):
                return
            binding = self.ctx.binding(receiver)
            if binding is not None and binding.kind in ("class", "import"):
                return  # `Base.forward(self, x)`, `MyFunction.forward(ctx, x)`: not a call through an instance
        elif receiver_type is cst.Attribute and receiver.attr.value == "_c":
            return  # a ScriptModule's C++ handle: no `__call__`, no hooks
        first = node.args[0]
        if first.keyword is None and not first.star and type(first.value) is cst.Name and first.value.value == "self":
            return
        if self._delegates(node):
            return
        if type(receiver) is cst.Name and self.ctx.binding(receiver) is None:
            self.later.append((node, receiver))
        elif self._is_module(receiver):
            self._report(node)
        else:
            stored = stored_parameter(self.ctx, receiver)
            if stored is not None:
                self.stored.append((node, *stored))
            elif type(receiver) is cst.Name and (function := self._received(receiver)) is not None:
                self.received.append((node, function, receiver.value))

    def finish(self) -> None:
        for node, name in self.later:
            if self._is_module(name):
                self._report(node)
        for node, class_def, init, parameter in self.stored:
            passed = constructor_arguments(self.ctx, class_def, init, parameter)
            if passed is not None and all(self._is_module_at(*argument) for argument in passed):
                self._report(node)
        for node, function, parameter in self.received:
            if every_call_passes(self.ctx, function, parameter, _holds_module):
                self._report(node)

    def _received(self, receiver: cst.Name) -> cst.FunctionDef | None:
        """The plain function (no method) whose parameter `receiver` is, read where it is called."""
        function = self.ctx.function
        binding = self.ctx.binding(receiver)
        if function is None or binding is None or binding.kind != "param" or binding.statement is not function \
                or self.ctx.class_of_method(function) is not None:
            return None
        return function

    def _report(self, node: cst.Call) -> None:
        receiver = node.func.value  # type: ignore[attr-defined]  # visit_Call checked it is an Attribute
        self.report(node, fix=Fix("Call the module", ((node, node.with_changes(func=receiver)),), "unsafe"))

    def _is_module_at(self, argument: cst.BaseExpression, point: Point, reader: Context) -> bool:
        with reader.at(point):
            return _holds_module(reader, argument)

    def _is_module(self, receiver: cst.BaseExpression) -> bool:
        """What `receiver` holds is known to be an `nn.Module`: many objects have a `forward` of their own (an
        estimator's API, a plain class, a `RemoteModule`'s RPC), and one of unknown origin may be any of them."""
        return _holds_module(self.ctx, receiver)

    def _delegates(self, node: cst.Call) -> bool:
        """`def forward(self, *args, **kwargs): return self.module.forward(*args, **kwargs)`: a wrapper that
        hands its own arguments on untouched, deliberately (DDP runs its own pre- and post-forward this way)."""
        function = self.ctx.function
        if function is None:
            return False
        params = function.params
        own = {star.name.value for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)}
        return bool(own) and all(arg.star and type(arg.value) is cst.Name and arg.value.value in own
                                 for arg in node.args)


def _holds_module(ctx: Context, receiver: cst.BaseExpression) -> bool:
    return is_module(evaluator(ctx).value(receiver))
