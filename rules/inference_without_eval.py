"""SC210 inference-without-eval: a no_grad prediction loop running a model with dropout or batch norm in train mode."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Rule
from shapecheck.engine.syntax import last_name
from shapecheck.engine.context import CallSite, Point
from shapecheck.engine.walker import walk
from shapecheck.loops.mode_layers import methods_run_before, mode_dependent, mode_dependent_at, predicted_with
from shapecheck.loops.training_loop import (
    Event, TrainingLoop, called_module, may_switch_mode, related, switches_mode, training_loop,
)
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import argument_of, imported_method_callers, method_callers, project_callers
from shapecheck.objects.factories import returned_by_factory
from shapecheck.objects.stored import constructor_arguments, stored_parameter
from shapecheck.shapes.activations import is_torch_module_class
from shapecheck.loops.surroundings import in_test, is_test_file



# A serving class that loads a checkpoint and predicts one batch per request: `%s` follows the loading.
_PREDICTOR = """
        import torch
        import torch.nn as nn

        class TextClassifier(nn.Module):
            def __init__(self, vocab_size, n_classes):
                super().__init__()
                self.embed = nn.EmbeddingBag(vocab_size, 128)
                self.drop = nn.Dropout(0.5)
                self.fc = nn.Linear(128, n_classes)

            def forward(self, tokens, offsets):
                return self.fc(self.drop(self.embed(tokens, offsets)))

        class Predictor:
            def __init__(self, checkpoint, vocab_size, n_classes):
                self.model = TextClassifier(vocab_size, n_classes)
                self.model.load_state_dict(torch.load(checkpoint, map_location="cpu", weights_only=True))%s

            @torch.no_grad()
            def predict(self, tokens, offsets):
                return self.model(tokens, offsets).softmax(-1)
        """


# A residual block whose feed-forward layers take the block's `ff_dropout` (0 by default), predicting under `no_grad`;
# `%s` follows the block's size in its construction.
_RESIDUAL_BLOCK = """
        import torch
        import torch.nn as nn


        class FeedForward(nn.Module):
            def __init__(self, dim, dropout=0.1):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Dropout(dropout), nn.Linear(4 * dim, dim))

            def forward(self, x):
                return self.net(x)


        class Block(nn.Module):
            def __init__(self, dim, depth=2, ff_dropout=0.):
                super().__init__()
                self.layers = nn.ModuleList([FeedForward(dim, dropout=ff_dropout) for _ in range(depth)])

            def forward(self, x):
                for layer in self.layers:
                    x = x + layer(x)
                return x


        block = Block(64%s)
        with torch.no_grad():
            for batch in loader:
                print(block(batch).mean())
        """


# A trainer whose model has dropout, validated by a comprehension over its loader; `%s` follows `train_epoch`.
_COMPREHENDING_TRAINER = """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, loader):
                self.model = nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.2), nn.Linear(32, 4))
                self.generator = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.Tanh())
                self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
                self.loader = loader
            def train_epoch(self):
                self.model.train()
                for x, y in self.loader:
                    self.optimizer.zero_grad()
                    nn.functional.cross_entropy(self.model(x), y).backward()
                    self.optimizer.step()%s
        """

# A fit/evaluate/predict wrapper whose `evaluate` switches to eval mode; `%s` runs after the class.
_WRAPPER = """
        import torch
        import torch.nn as nn
        class Classifier:
            def __init__(self, net, lr=1e-3):
                self.net = net
                self.opt = torch.optim.Adam(net.parameters(), lr=lr)
            def fit(self, loader, epochs):
                for _ in range(epochs):
                    self.net.train()
                    for x, y in loader:
                        self.opt.zero_grad()
                        nn.functional.cross_entropy(self.net(x), y).backward()
                        self.opt.step()
                    print(self.evaluate(loader))
            def evaluate(self, loader):
                self.net.eval()
                with torch.no_grad():
                    return sum((self.net(x).argmax(1) == y).sum().item() for x, y in loader)
            @torch.no_grad()
            def predict(self, x):
                return self.net(x).argmax(1)
        %s
        """


# A weight-averaging helper keeping a frozen copy of a segmentation network, used for validation masks; `%s`
# follows the copy.
_AVERAGER = """
        import copy
        import torch
        import torch.nn as nn
        class Segmenter(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                          nn.Conv2d(16, 4, 1))
            def forward(self, x):
                return self.body(x)
        class WeightAverager:
            def __init__(self, net, decay=0.999):
                self.decay = decay
                self.shadow = copy.deepcopy(net)%s
                for p in self.shadow.parameters():
                    p.requires_grad_(False)
            @torch.no_grad()
            def update(self, net):
                for s, p in zip(self.shadow.parameters(), net.parameters()):
                    s.mul_(self.decay).add_(p, alpha=1 - self.decay)
            @torch.no_grad()
            def predict(self, images):
                return self.shadow(images).argmax(1)
        def train(loader, val_images):
            net = Segmenter()
            averager = WeightAverager(net)
            opt = torch.optim.SGD(net.parameters(), lr=0.01)
            net.train()
            for images, masks in loader:
                opt.zero_grad()
                nn.functional.cross_entropy(net(images), masks).backward()
                opt.step()
                averager.update(net)
            return averager.predict(val_images)
        """


# A wrapper training a sequence tagger with dropout and tagging with it under `no_grad`; `%s` follows `tag`'s
# `no_grad` line, `%s` is what the script does with the tagger after the class.
_TAGGER = """
        import torch
        import torch.nn as nn
        class TaggerNet(nn.Module):
            def __init__(self, vocab, n_tags):
                super().__init__()
                self.embed = nn.Embedding(vocab, 64)
                self.drop = nn.Dropout(0.3)
                self.out = nn.Linear(64, n_tags)
            def forward(self, tokens):
                return self.out(self.drop(self.embed(tokens)))
        class Tagger:
            def __init__(self, net):
                self.net = net
                self.opt = torch.optim.SGD(net.parameters(), lr=0.1)
            def fit(self, batches, epochs=3):
                self.net.train()
                for _ in range(epochs):
                    for tokens, tags in batches:
                        self.opt.zero_grad()
                        loss = nn.functional.cross_entropy(self.net(tokens).flatten(0, 1), tags.flatten())
                        loss.backward()
                        self.opt.step()
            @torch.no_grad()
            def tag(self, tokens):%s
                return self.net(tokens).argmax(-1)
        tagger = Tagger(TaggerNet(5000, 17))%s
        """


class InferenceWithoutEval(Rule):
    code = "SC210"
    name = "inference-without-eval"
    message = "a model with dropout or batch norm predicts under `no_grad` without `eval()`"
    # The visits note the models built with mode layers (unpacked from a factory's tuple too), the deep copies of
    # models and the calls under `no_grad` in loops; `finish` decides with the whole file.
    scope = "statement"
    gathered = ("_built", "_copies", "_calls", "_unlooped")
    triggers = ("no_grad", "inference_mode")
    triggered_through_imports = True  # `evaluate(model, loader)` of an imported module with its `no_grad` loop
    docs = """
        ## What it does
        Finds a validation or prediction loop under `torch.no_grad()` / `torch.inference_mode()` (a loop in the
        `with` block, a comprehension over the data such as `sum(... for x, y in loader)`, or the block in a loop) that runs a model whose dropout or batch norm layers are in view
        and uses what it returns, when the file never switches that model to eval mode: no `model.eval()` /
        `model.train(False)` on the model, and none in a helper it could be handed to or that the file hands it
        to (its own, or one it imports from the project). The model's layers are in
        view when it is built in the file from a class of the same file or of one of the project's modules it
        imports (`from model import Net`) with `nn.Dropout*` / `nn.BatchNorm*` / `F.dropout` in it, from an `nn.Sequential(...)` holding one, or by a torchvision builder whose networks
        hold them (`resnet18()`, `vgg16()`, `densenet121()`, ...), or when the function receives it as a parameter
        annotated with such a class (`model: Net`) or from a caller in the file that built it so (`test(model, device, test_loader)`), or from a caller that was
        handed it so in turn, or when a trainer's `self.model` stores what every construction of the trainer, at
        module level or in a plain function such as `main()`, passes it built so. A model unpacked from a
        same-file factory with one `return` of a tuple (`model, opt = build()`, then handed on to helpers as
        above) is what that tuple holds, a `copy.deepcopy` of a model is that model, so is a
        LightningModule's `Net.load_from_checkpoint(path)` (Lightning leaves it in train mode), and a model a function of
        the project returns (`model = build_model(cfg)`, of this file or imported), or a registry's entry
        (`MODELS[args.model](...)`, a dict whose classes all agree), is what the objects floor finds it builds, unless the function switches a mode itself (a loader calling `model.eval()` before
        `return model`).

        Also a model built so and handed to a function of another project file (`evaluate(model, val_loader)`
        with `from evaluation import evaluate`) that runs it in a loop under `no_grad` and switches no mode
        itself, reported at the call.

        Also a forward pass under `no_grad` in no loop (a `Predictor` class's `predict()`, an inference script) in a
        file with no backward pass: nothing in it trains, so the pass is a prediction; outside a module class, whose
        mode is its owner's (a class deriving from `nn.Module` or a LightningModule, here or through the project's
        classes of other modules: a momentum method's `class BYOL(BaseMomentumMethod)`). In a file that trains,
        such a pass in a method of a trainer or wrapper class counts when the method is called only from outside
        the class, and each time in no loop (`forecaster.fit(loader, epochs)` then `forecaster.predict(x)` in
        `train.py`): a prediction served after training, which left the model in train mode; and so does such a
        pass in a plain function that every call, here or in a module importing it, makes in no loop, those here
        after a backward pass (a notebook's `predict_proba(x)` once the cells above trained the network; one
        called before training, or in the epoch loop, is a check or a snapshot).

        Also, whatever else in the file switches modes, a trainer's method predicting with its `self.model` when it
        is called on an object just built (`inference = Learner(data, Net())`, then `inference.predict_array(x)`)
        from a model just built, with nothing run on the object before but methods that neither switch a mode nor
        train (loading or moving its model's weights aside): the model is still in the train mode it was built in.

        Also, whatever else in the file switches modes, a loop over data (not over `range(...)`) under `no_grad`
        in a function that switched the model with `model.train()` in a statement of its own body before it,
        outside `no_grad` and with no `eval()` in between: a validation that starts with `model.train()`.

        Also an EMA or target model: a module's or a helper class's `self.shadow = copy.deepcopy(model)` called under
        `no_grad` (in a method decorated so, with or without a loop, other than `forward`: BYOL's and MoCo's
        momentum encoders run their batch norm on batch statistics in training on purpose), when every construction
        of the class, in the
        file or in a project module importing it, hands it a model with dropout or batch norm built so, the class
        switches no mode and trains nothing, and the modules building it switch no module but the model they hand
        it: the copy keeps the train mode the model was in, and nothing that trains it ever asks for that mode, so
        progress samples taken in the training loop count too.

        Not reported: a forward pass whose output is discarded (`model(x)` on its own line: recalibrating batch
        norm statistics, as `torch.optim.swa_utils.update_bn` does), a model switched to train mode under
        `no_grad` on purpose (Monte Carlo dropout), a `no_grad` block with no loop of its own inside a loop that
        trains (a GAN's progress snapshot every few iterations, as the DCGAN tutorial takes), a model whose only
        mode layers are dropouts with a rate that defaults to 0 and is not passed (or blocks it hands such a rate,
        `FeedForward(dim, dropout=ff_dropout)`), models built elsewhere, and tests.

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
        # A serving class that switches the model it loads to eval mode.
        _PREDICTOR % "\n                self.model.eval()",
        # A VAE's `sample()` under `no_grad`: the module's mode is its owner's; and a GAN script's progress
        # snapshot in a helper it calls between training steps, in a file that trains.
        """
        import torch
        import torch.nn as nn

        class VAE(nn.Module):
            def __init__(self, z_dim=16):
                super().__init__()
                self.z_dim = z_dim
                self.decoder = nn.Sequential(nn.Linear(z_dim, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 784))

            @torch.no_grad()
            def sample(self, n):
                return self.decoder(torch.randn(n, self.z_dim))

        G = nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 784), nn.Tanh())
        D = nn.Sequential(nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1))
        opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
        fixed_z = torch.randn(64, 64)

        def snapshot(step):
            with torch.no_grad():
                images = G(fixed_z).view(-1, 1, 28, 28)
            torch.save(images, f"samples_{step}.pt")

        for step in range(10000):
            opt_g.zero_grad()
            loss = -D(G(torch.randn(64, 64))).mean()
            loss.backward()
            opt_g.step()
            if step % 500 == 0:
                snapshot(step)
        """,
        # Loaded from a checkpoint, but the class's only dropout is off unless a rate is passed.
        """
        import torch
        import torch.nn as nn
        import pytorch_lightning as pl
        class Lit(pl.LightningModule):
            def __init__(self, p=0.0):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(p), nn.Linear(8, 2))
            def forward(self, x):
                return self.net(x)
        def predict(ckpt, loader):
            model = Lit.load_from_checkpoint(ckpt)
            with torch.no_grad():
                for x, _ in loader:
                    print(model(x).argmax(1))
        """,
        # A greedy decoding helper: its callers put the model they hand it in eval mode first.
        """
        import torch
        import torch.nn as nn
        def translate(model, tokens, max_length=50):
            outputs = [1]
            for _ in range(max_length):
                with torch.no_grad():
                    logits = model(tokens, torch.tensor(outputs).unsqueeze(1))
                outputs.append(logits.argmax(-1)[-1].item())
            return outputs
        class Seq2Seq(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(100, 32)
                self.drop = nn.Dropout(0.1)
                self.out = nn.Linear(32, 100)
            def forward(self, src, trg):
                return self.out(self.drop(self.embed(trg)))
        transformer = Seq2Seq()
        for epoch in range(10):
            transformer.eval()
            print(translate(transformer, torch.randint(0, 100, (7, 1))))
            transformer.train()
        """,
        # The annotated class's dropout is off unless a rate is passed, and no construction is in view.
        """
        import torch
        import torch.nn as nn
        class MLP(nn.Module):
            def __init__(self, d, p=0.0):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Dropout(p), nn.Linear(128, 1))
            def forward(self, x):
                return self.net(x)
        def evaluate(model: MLP, loader) -> float:
            with torch.no_grad():
                return sum(nn.functional.mse_loss(model(x), y).item() for x, y in loader)
        """,
        # The dropout is built and run in `forward` with the rate it is handed (0.0 at test time): a fresh module.
        """
        import torch
        import torch.nn as nn
        class GraphNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 2)
            def forward(self, x, d):
                x = nn.Dropout(d)(x)
                return self.fc(x)
        net = GraphNet()
        with torch.no_grad():
            for x in test_batches:
                y = net(x, 0.0)
        """,
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
        # The DCGAN tutorial: a progress snapshot under `no_grad` every few iterations of the training loop, of a
        # generator that is meant to stay in train mode.
        """
        import torch
        import torch.nn as nn
        class Generator(nn.Module):
            def __init__(self, nz, ngf):
                super().__init__()
                self.main = nn.Sequential(nn.ConvTranspose2d(nz, ngf, 4, 1, 0), nn.BatchNorm2d(ngf), nn.ReLU(True),
                                          nn.ConvTranspose2d(ngf, 3, 4, 2, 1), nn.Tanh())
            def forward(self, z):
                return self.main(z)
        netG = Generator(100, 64)
        img_list = []
        for epoch in range(num_epochs):
            for i, data in enumerate(dataloader):
                netG.zero_grad()
                errG = criterion(netD(netG(noise)).view(-1), label)
                errG.backward()
                optimizerG.step()
                if i % 500 == 0:
                    with torch.no_grad():
                        fake = netG(fixed_noise).detach().cpu()
                    img_list.append(fake)
        """,
        # A dropout rate that defaults to 0.0 and is left so: the layer does nothing in either mode.
        """
        import torch
        import torch.nn as nn
        class MLP(nn.Module):
            def __init__(self, d_in, d_hidden, d_out, dropout=0.0):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.GELU(), nn.Dropout(dropout),
                                         nn.Linear(d_hidden, d_out))
            def forward(self, x):
                return self.net(x)
        model = MLP(16, 64, 1)
        with torch.no_grad():
            preds = [model(xb) for xb in test_batches]
            for xb in test_batches:
                preds.append(model(xb))
        """,

        # Trainers handed a model without dropout or batch norm, or one that switches it to eval itself; and one
        # built by a method, whose argument is not read.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, model):
                self.model = model
            @torch.no_grad()
            def validate(self, loader):
                for x, _ in loader:
                    out = self.model(x)
        class EvalTrainer:
            def __init__(self, model):
                self.model = model
            def validate(self, loader):
                self.model.eval()
                with torch.no_grad():
                    for x, _ in loader:
                        out = self.model(x)
        class Runner:
            def __init__(self, net, batches):
                self.net, self.batches = net, batches
            def predict(self):
                with torch.no_grad():
                    for batch in self.batches:
                        scores = self.net(batch[0]).softmax(-1)
        class Experiment:
            def build(self):
                self.runner = Runner(nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), self.batches)
        def build_models(wide):
            if wide:
                return nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), None
            return nn.Linear(4, 2), None
        plain, _ = build_models(False)
        def main():
            Trainer(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))).validate(loader)
            EvalTrainer(nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 2))).validate(loader)
            Trainer(plain).validate(loader)
        """,
        # A loader that hands the model back in eval mode.
        """
        import torch
        import torch.nn as nn
        def load_model(path):
            model = nn.Sequential(nn.Linear(64, 128), nn.Dropout(0.5), nn.Linear(128, 5))
            model.load_state_dict(torch.load(path, weights_only=True))
            return model.eval()
        model = load_model("model.pt")
        with torch.no_grad():
            predictions = [model(x).argmax(-1) for x in batches]
        """,
        # A notebook: the first `validate` only ever sees the plain `Net()`; `model` is rebound to a dropout net
        # later, and validated by a second `validate` that hands it to a trainer.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(32, 2)
            def forward(self, x):
                return self.fc(x)
        class NetDropout(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(32, 2)
                self.drop = nn.Dropout(0.4)
            def forward(self, x):
                return self.fc(self.drop(x))
        def validate(model, loader):
            correct = 0
            with torch.no_grad():
                for x, y in loader:
                    correct += int((model(x).argmax(1) == y).sum())
            return correct
        model = Net()
        validate(model, val_loader)
        def validate(model, loader):
            return trainer.test(model, loader)
        model = NetDropout()
        validate(model, val_loader)
        """,
        # evaluation in a comprehension after `eval()`, and a GAN's progress samples drawn over `range` while training
        _COMPREHENDING_TRAINER % """
            def validate(self):
                self.model.eval()
                with torch.no_grad():
                    return sum((self.model(x).argmax(1) == y).sum().item() for x, y in self.loader)
            def samples(self):
                with torch.no_grad():
                    return [self.generator(torch.randn(4, 8)) for _ in range(8)]""",
        # The wrapper's `predict` after `fit`, whose `evaluate` left the model in eval mode; after an explicit
        # `eval()`; and on a model switched before the wrapper got it.
        _WRAPPER % """
        clf = Classifier(nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.3), nn.Linear(32, 4)))
        clf.fit(train_loader, 5)
        print(clf.predict(torch.randn(4, 16)))
        served = Classifier(nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.3), nn.Linear(32, 4)))
        served.net.load_state_dict(torch.load("mlp.pt", weights_only=True))
        served.net.eval()
        print(served.predict(torch.randn(4, 16)))
        net = nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.3), nn.Linear(32, 4))
        net.eval()
        print(Classifier(net).predict(torch.randn(4, 16)))""",
        # timm's ModelEmaV2 switches its copy to eval mode where it makes it; a mean teacher switched to train
        # mode on purpose by the script that builds it.
        _AVERAGER % ".eval()",
        _AVERAGER.replace("averager = WeightAverager(net)", "averager = WeightAverager(net)\n"
                          "            averager.shadow.train()"),
        # The tagger's `tag` called in the epoch loop, a progress snapshot of the model being trained; or switching
        # to eval mode itself.
        _TAGGER % ("", """
        for epoch in range(10):
            tagger.fit(train_batches, epochs=1)
            print(epoch, tagger.tag(sample_tokens))"""),
        _TAGGER % ("\n                self.net.eval()", """
        tagger.fit(train_batches)
        print(tagger.tag(test_tokens))"""),
        # A residual block handing its feed-forward layers a rate that defaults to 0 (`dropout=ff_dropout`), built
        # without one: every dropout in it has p=0.0, so train mode predicts as eval mode would.
        _RESIDUAL_BLOCK % "",
        # Monte Carlo dropout in a file that also exports in eval mode: `train()` before `no_grad` turns dropout on
        # for samples drawn over `range(...)`, on purpose; an `update_bn` pass discards its outputs.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(8, 32), nn.Dropout(0.3), nn.BatchNorm1d(32), nn.Linear(32, 1))
            def forward(self, x):
                return self.body(x)
        def uncertainty(model, x, samples=30):
            model.train()
            with torch.no_grad():
                draws = []
                for _ in range(samples):
                    draws.append(model(x))
            return torch.stack(draws).std(0)
        def recalibrate(model, loader):
            model.train()
            with torch.no_grad():
                for x, _ in loader:
                    model(x)
        def export(model, path):
            model.eval()
            torch.save(model.state_dict(), path)
        def main(x, loader):
            model = Net()
            print(uncertainty(model, x))
            recalibrate(model, loader)
            export(model, "model.pt")
        """,
    ]
    INVALID = [
        _AVERAGER % "",
        # a trainer's validation summed over the loader in a generator expression, its model never put in eval mode
        _COMPREHENDING_TRAINER % """
            def validate(self):
                with torch.no_grad():
                    return sum((self.model(x).argmax(1) == y).sum().item() for x, y in self.loader)""",
        # A serving class: nothing in the file trains, and nothing switches the model it loads to eval mode.
        _PREDICTOR % "",
        # A LightningModule loaded from its checkpoint stays in train mode.
        """
        import torch
        import torch.nn as nn
        import pytorch_lightning as pl
        class LitClassifier(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.backbone = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))
            def forward(self, x):
                return self.backbone(x.flatten(1))
        def main(ckpt, loader):
            model = LitClassifier.load_from_checkpoint(ckpt)
            correct = 0
            with torch.no_grad():
                for x, y in loader:
                    correct += (model(x).argmax(1) == y).sum().item()
            return correct
        """,
        # An evaluation helper whose parameter is annotated with the project's model class.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader
        class MLP(nn.Module):
            def __init__(self, d, p=0.3):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Dropout(p), nn.Linear(128, 1))
            def forward(self, x):
                return self.net(x)
        def evaluate(model: MLP, loader: DataLoader) -> float:
            losses = []
            with torch.no_grad():
                for x, y in loader:
                    losses.append(nn.functional.mse_loss(model(x), y).item())
            return sum(losses) / len(losses)
        """,
        # sinhasam/vaal before its fix: the best model, a deep copy of the task model (a VGG with batch norm and
        # dropout) handed to the trainer, is tested without `eval()`.
        """
        import copy
        import torch
        import torchvision
        class Solver:
            def train(self, loader, task_model, optimizer):
                task_model.train()
                for imgs, labels in loader:
                    optimizer.zero_grad()
                    torch.nn.functional.cross_entropy(task_model(imgs), labels).backward()
                    optimizer.step()
                best_model = copy.deepcopy(task_model)
                return self.test(best_model, loader)
            def test(self, task_model, loader):
                correct = 0
                for imgs, labels in loader:
                    with torch.no_grad():
                        correct += (task_model(imgs).argmax(1) == labels).sum().item()
                return correct
        def main(loader):
            task_model = torchvision.models.vgg16_bn(num_classes=10)
            optimizer = torch.optim.SGD(task_model.parameters(), lr=0.01)
            return Solver().train(loader, task_model, optimizer)
        """,
        # nshaud/DeepHyperX: the factory returns the model with its optimizer and loss; the epoch loop hands the
        # model to a validation helper that never switches it to eval mode.
        """
        import torch
        import torch.nn as nn
        class HamidaEtAl(nn.Module):
            def __init__(self, n_bands, n_classes):
                super().__init__()
                self.fc = nn.Linear(n_bands, n_classes)
                self.dropout = nn.Dropout(p=0.5)
            def forward(self, x):
                return self.fc(self.dropout(x))
        def get_model(name, **kwargs):
            model = HamidaEtAl(kwargs["n_bands"], kwargs["n_classes"])
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            model = model.to(kwargs.get("device", "cpu"))
            return model, optimizer, nn.CrossEntropyLoss(), kwargs
        def val(net, data_loader):
            accuracy = 0
            for data, target in data_loader:
                with torch.no_grad():
                    accuracy += (net(data).argmax(1) == target).sum().item()
            return accuracy
        def train(net, optimizer, criterion, data_loader, epoch, val_loader):
            for e in range(epoch):
                net.train()
                for data, target in data_loader:
                    optimizer.zero_grad()
                    criterion(net(data), target).backward()
                    optimizer.step()
                print(val(net, val_loader))
        def main(train_loader, val_loader):
            model, optimizer, loss, hyperparams = get_model("hamida", n_classes=9, n_bands=103)
            train(model, optimizer, loss, train_loader, 10, val_loader)
        """,
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
        # The same MLP built with a real dropout rate.
        """
        import torch
        import torch.nn as nn
        class MLP(nn.Module):
            def __init__(self, d_in, d_hidden, d_out, dropout=0.0):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.GELU(), nn.Dropout(dropout),
                                         nn.Linear(d_hidden, d_out))
            def forward(self, x):
                return self.net(x)
        model = MLP(16, 64, 1, dropout=0.2)
        with torch.no_grad():
            for xb in test_batches:
                preds.append(model(xb))
        """,
        # Validation with a loop of its own inside the training loop: an evaluation, not a snapshot.
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 2))
        for epoch in range(10):
            for x, y in train_loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
            with torch.no_grad():
                for x, y in val_loader:
                    correct += (model(x).argmax(1) == y).sum().item()
        """,
        # A trainer's `self.model`, given a model with dropout by the script's `main()`.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, model, val_loader):
                self.model = model
                self.val_loader = val_loader
            @torch.no_grad()
            def validate(self):
                predicted = []
                for x, _ in self.val_loader:
                    predicted.append(self.model(x).argmax(1))
                return predicted
        def main():
            model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 5))
            Trainer(model, val_loader).validate()
        """,
        # The model and its optimizer come from one factory, unpacked where the trainer is built.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, model, optimizer):
                self.model, self.optimizer = model, optimizer
            @torch.no_grad()
            def validate(self, loader):
                for x, _ in loader:
                    loss = self.model(x).mean().item()
        def build():
            model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 5))
            optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
            return model, optimizer
        if __name__ == "__main__":
            model, opt = build()
            Trainer(model, opt).validate(loader)
        """,
        # An evaluation helper that the training helper hands the model `main()` built (two callers up).
        """
        import torch
        import torch.nn as nn
        def evaluate(model, loader):
            with torch.no_grad():
                for x, y in loader:
                    correct = (model(x).argmax(1) == y).sum().item()
        def train(model, loader, epochs):
            for epoch in range(epochs):
                evaluate(model, loader)
        def main():
            model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 5))
            train(model, val_loader, 3)
        """,
        # A model a factory of the project builds.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.fc1 = nn.Linear(64, 128)
                self.drop = nn.Dropout(0.5)
                self.fc2 = nn.Linear(128, n)
            def forward(self, x):
                return self.fc2(self.drop(self.fc1(x).relu()))
        def build_model(cfg):
            return Net(cfg["classes"])
        model = build_model({"classes": 5})
        model.load_state_dict(torch.load("model.pt", weights_only=True))
        with torch.no_grad():
            preds = [model(x).argmax(-1) for x in batches]
            for x in batches:
                preds.append(model(x).argmax(-1))
        """,
        # A new wrapper (fastai's Learner.predict_array before its fix): the weights are loaded, and `predict` runs
        # before anything switched the model to eval mode; only `evaluate`, never called on it, would.
        _WRAPPER % """
        clf = Classifier(nn.Sequential(nn.Linear(16, 32), nn.Dropout(0.3), nn.Linear(32, 4)))
        clf.net.load_state_dict(torch.load("mlp.pt", weights_only=True))
        print(clf.predict(torch.randn(4, 16)))""",
        # The tagger trained, then asked to tag once: `fit` left its dropout on.
        _TAGGER % ("", """
        tagger.fit(train_batches)
        print(tagger.tag(test_tokens))"""),
        # The same block built with a rate: its dropouts are on.
        _RESIDUAL_BLOCK % ", ff_dropout=0.1",
        # A trainer's validation that switches its model to train mode before the `no_grad` loop; the file calls
        # `eval()` elsewhere (an export), which does not help here.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 2))
            def forward(self, x):
                return self.body(x)
        class Trainer:
            def __init__(self, model, train_loader, val_loader):
                self.model = model
                self.train_loader, self.val_loader = train_loader, val_loader
                self.optimizer = torch.optim.Adam(model.parameters())
            def train_epoch(self):
                self.model.train()
                for x, y in self.train_loader:
                    self.optimizer.zero_grad()
                    nn.functional.cross_entropy(self.model(x), y).backward()
                    self.optimizer.step()
            def validate(self):
                self.model.train()
                correct = 0
                with torch.no_grad():
                    for x, y in self.val_loader:
                        correct += (self.model(x).argmax(1) == y).sum().item()
                return correct
            def export(self, path):
                self.model.eval()
                torch.jit.script(self.model).save(path)
            def fit(self, epochs):
                for epoch in range(epochs):
                    self.train_epoch()
                    print(self.validate())
        def main(train_loader, val_loader):
            Trainer(Net(), train_loader, val_loader).fit(10)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Names bound to a module with dropout or batch norm, per function (None: module level).
        # (function, name, the assignment) of a name bound to a module with dropout or batch norm
        self._built: list[tuple[cst.FunctionDef | None, str, cst.Assign]] = []
        # Names bound to a copy of another name's module, per function: `best = copy.deepcopy(model)` keeps its
        # layers and its mode. (function, copy, original), in order: `finish` keeps the last copy of each name.
        self._copies: list[tuple[cst.FunctionDef | None, str, str]] = []
        # Calls of a model under `no_grad` in a loop, in order, each with what decides it (see `_Calls`).
        self._calls: list[tuple] = []
        # Those of them in no loop, each with its function: a prediction only in a file that never trains, or in a
        # method its callers call to predict (see `finish`).
        self._unlooped: list[tuple[cst.Call, cst.FunctionDef | None]] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1:
            return
        target = node.targets[0].target
        value = node.value
        if type(target) is cst.Name and type(value) is cst.Call and self.ctx.qualname(value.func) == "copy.deepcopy" \
                and len(value.args) == 1 and type(value.args[0].value) is cst.Name:
            self._copies.append((self.ctx.function, target.value, value.args[0].value.value))
        if type(target) is cst.Name and mode_dependent(self.ctx, node.value):
            self._built.append((self.ctx.function, target.value, node))
        elif type(target) is cst.Tuple and type(node.value) is cst.Call:
            # `model, optimizer, criterion = get_model(name)`: the element of the factory's returned tuple
            for index, element in enumerate(target.elements):
                if type(element.value) is not cst.Name:
                    continue
                returned = returned_by_factory(self.ctx, node.value, index)
                if returned is not None and mode_dependent_at(self.ctx, *returned, 1):
                    self._built.append((self.ctx.function, element.value.value, node))

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.grad_disabled or type(ctx.parent) is cst.Expr:
            return
        model = called_module(node)
        if model is None or in_test(ctx):
            return
        run = self._run_by_method(node)
        if run is not None:
            # `self._step(tokens, labels)` under `no_grad`, a method of the class whose body runs `self.model(...)`:
            # the prediction is made here, in the mode this function leaves the model in
            model, stored = run
            self._calls.append(("stored", node, model, stored))
            return
        # an EMA or target model: a copy the class keeps of the model it is handed, which is never trained, so its
        # mode is only ever what prediction needs; decided from the constructions (`finish`). Not in a module's
        # `forward`, which computes what training asks of it: BYOL's and MoCo's momentum encoders keep batch norm on
        # batch statistics there on purpose.
        function = ctx.function
        forward = function is not None and function.name.value in ("forward", "__call__")
        copied = stored_parameter(ctx, node.func, copied=True) if not forward else None
        if copied is not None:
            self._calls.append(("copied", node, model, copied))
            return
        # inside a module class, the mode is set by whoever owns the module (a VAE's `sample()` under `no_grad`)
        if not ctx.loops and ctx.class_def is not None and is_torch_module_class(ctx, ctx.class_def, imported=True):
            return
        if not ctx.loops and not _over_batches(ctx.ancestors):
            self._unlooped.append((node, ctx.function))
        module = node.func.value if type(node.func) is cst.Attribute and node.func.attr.value == "forward" \
            else node.func
        if mode_dependent(self.ctx, module):
            snapshot = (ctx.loops[-1], ctx.function) if ctx.loops and not _loop_inside_with(ctx.ancestors) else None
            self._calls.append(("built", node, model, snapshot))
        elif type(module) is cst.Name and ctx.function is not None:
            binding = ctx.binding(module)
            if binding is not None and binding.kind == "param":
                self._calls.append(("received", node, model, ctx.function))
        else:
            stored = stored_parameter(ctx, module)
            if stored is not None:
                self._calls.append(("stored", node, model, stored))

    def _run_by_method(self, call: cst.Call) -> tuple[str, tuple[cst.ClassDef, cst.FunctionDef, str]] | None:
        """For `self.step(x, y)` in a method of a trainer, where `step` is a method of the same class (one
        definition, no mode switch nor grad switch of its own) that runs a module the trainer stores from a
        constructor parameter (`self.model(x)`): that module's spelling and where it is stored from."""
        ctx = self.ctx
        func = call.func
        class_def = ctx.class_def
        if class_def is None or type(func) is not cst.Attribute or type(func.value) is not cst.Name \
                or func.value.value != "self" or is_torch_module_class(ctx, class_def, imported=True):
            return None
        methods = [statement for statement in class_def.body.body if type(statement) is cst.FunctionDef
                   and statement.name.value == func.attr.value]
        if len(methods) != 1 or methods[0] is ctx.function or methods[0].decorators:
            return None
        found = None
        for node in walk(methods[0].body):
            if type(node) is cst.With or may_switch_mode(node) or type(node) in (cst.FunctionDef, cst.Lambda):
                return None  # its own `no_grad`, its own mode switch, a closure: not followed
            if type(node) is not cst.Call or type(node.func) is not cst.Attribute \
                    or not (type(node.func.value) is cst.Name and node.func.value.value == "self"):
                continue
            stored = stored_parameter(ctx, node.func)
            if stored is not None:
                if found is not None and found[0] != called_module(node):
                    return None  # two modules run: which one predicts is not one answer
                found = (called_module(node), stored)
        return found  # type: ignore[return-value]

    def _handed_built(self, training: TrainingLoop, model: str, function: cst.FunctionDef, depth: int,
                      built: set[tuple[cst.FunctionDef | None, str]],
                      copies: dict[tuple[cst.FunctionDef | None, str], str]) -> bool:
        """A caller of `function` passes as `model` a name it bound to a module with dropout or batch norm, or
        its own parameter that one of its callers passes so (`depth` callers up); a caller in a module of the
        project that imports `function` (`accuracy(cnn, test_set)` in `train.py`), a module it builds so and does
        not switch to eval mode itself."""
        for caller in project_callers(self.ctx, function) or ():
            found = argument_of(self.ctx, function, caller, model) if caller.ctx is not self.ctx else None
            if found is None:
                continue
            argument, point, reader = found
            if mode_dependent_at(reader, argument, point) and not _evaluated_by(self.ctx, argument, point, reader):
                return True
        for site in self.ctx.calls_of(function):
            spelled = training.caller_spelling(model, function, site.node)
            if spelled is None:
                continue
            spelled = copies.get((site.function, spelled), spelled)
            if (site.function, spelled) in built and self._built_at(site, spelled):
                return True
            caller = site.function
            if depth > 1 and caller is not None and caller is not function and _is_parameter(spelled, caller) \
                    and self._handed_built(training, spelled, caller, depth - 1, built, copies):
                return True
        return False

    def _passed_as(self, training: TrainingLoop, model: str, function: cst.FunctionDef, depth: int) -> set[str]:
        """The names the callers of `function` pass as its parameter `model`, and those their callers pass in
        turn (`depth` callers up)."""
        names: set[str] = set()
        for site in self.ctx.calls_of(function):
            spelled = training.caller_spelling(model, function, site.node)
            if spelled is None:
                continue
            names.add(spelled)
            caller = site.function
            if depth > 1 and caller is not None and caller is not function and _is_parameter(spelled, caller):
                names |= self._passed_as(training, spelled, caller, depth - 1)
        return names

    def _built_at(self, site: CallSite, name: str) -> bool:
        """At a module-level call, `name` still holds what an assignment of `_built` bound it to: a notebook may
        rebind `model` to a model with dropout after validating an earlier one."""
        if site.function is not None:
            return True
        with self.ctx.at(self.ctx.module_point()):
            binding = self.ctx.binding(name, before=site.seq + 1)
        return binding is None or any(binding.statement is statement for _, _, statement in self._built)

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        training = training_loop(self.ctx)
        calls = _Calls(self._calls)
        built = {(function, name) for function, name, _ in self._built}
        copies = {(function, name): original for function, name, original in self._copies}
        handed: dict[int, set[str]] = {}  # per call of a received model: the names its callers pass as it
        # per call of a stored model: the class, constructor and parameter it was stored from
        owners: dict[int, tuple[cst.ClassDef, cst.FunctionDef, str]] = {}
        for call, model, function in calls.received:
            # `test(model, device, test_loader)` with `model = Net().to(device)` in the caller, or in its caller.
            if self._handed_built(training, model, function, 2, built, copies):
                calls.found.append((call, model))
                handed[id(call)] = self._passed_as(training, model, function, 2)
        for call, model, (class_def, init, parameter) in calls.stored:
            # `Trainer(Net(), ...)`: every construction hands the trainer a model with dropout or batch norm.
            passed = constructor_arguments(self.ctx, class_def, init, parameter)
            if passed is not None and all(mode_dependent_at(reader, argument, point)
                                          and not _evaluated_by(self.ctx, argument, point, reader)
                                          for argument, point, reader in passed):
                calls.found.append((call, model))
                owners[id(call)] = (class_def, init, parameter)
        for call, model, (class_def, init, parameter) in calls.copied:
            if self._copy_left_in_train_mode(class_def, init, parameter):
                self.report(call, f"`{model}` is a copy of a model with dropout or batch norm that is never trained, "
                                  "and nothing switches it to eval mode: it predicts here under `no_grad` in the train "
                                  "mode the model was copied in, so dropout stays on and batch norm uses each batch's "
                                  f"statistics; call `{model}.eval()` when the copy is made")
        # `evaluate(model, val_loader)` of another project file, whose own `no_grad` loop runs what it is handed
        imported = self._handed_to_imported_predictor(training, built, copies)
        calls.found += imported
        if not calls.found:
            return
        # a switch to train mode under `no_grad` is for a prediction too (Monte Carlo dropout)
        switched = [(event.subject, event) for event in training.mode_switches()
                    if event.kind == "eval" or event.grad_disabled]
        # A forward pass in no loop of a file that trains may be a snapshot taken while training (a helper called
        # every few epochs); in a file that never trains (a predictor, an inference script) it is a prediction.
        trains = any(event.kind == "backward" for event in training.events)
        unlooped = {id(call) for call, _ in self._unlooped}
        # a call in no loop of a file that trains is a snapshot, unless its method is a prediction others ask for
        snapshots = {id(call) for call, function in self._unlooped
                     if (not (switched and self._after_training(call, training)) if function is None
                         else not (self._predicts_for_callers(function)
                                   or self._called_after_training(function, training)))} \
            if trains else set()
        pending = list(calls.found)
        while pending:
            call, model = pending.pop(0)
            fresh = self._run_on_new_object(call, *owners[id(call)]) if id(call) in owners else None
            if fresh is not None:
                self.report(call, f"`{model}` has dropout or batch norm and predicts here under `no_grad` in train "
                                  f"mode: `{self.ctx.code(fresh)}` runs it on a new object whose model nothing "
                                  "switched to eval mode, so dropout stays on and batch norm uses each batch's "
                                  f"statistics; call `{model}.eval()` first")
                continue
            if self._snapshot_while_training(calls.snapshot_in.get(call)) or id(call) in snapshots:
                if calls.later.get(model):  # the next call of the model decides
                    after, snapshot = calls.later[model].pop(0)
                    if snapshot is not None:
                        calls.snapshot_in[after] = snapshot
                    pending.insert(0, (after, model))
                continue
            # `transformer.eval()` then `translate_sentence(transformer, ...)`: the callers switch what they pass
            names = {model, *handed.get(id(call), ())}
            if any(subject is None or _is_parameter(subject, event.function)
                   or any(related(subject, name) for name in names) for subject, event in switched):
                if self._switched_to_train_for(call, model, training):
                    self.report(call, f"`{model}` has dropout or batch norm and predicts here under `no_grad` in "
                                      f"train mode: this function switched it with `{model}.train()` before the "
                                      "loop, so dropout stays on and batch norm uses (and updates its statistics "
                                      f"with) each batch; call `{model}.eval()` instead")
                    continue
                helper = self._helper_left_in_train_mode(call, model, training)
                if helper is not None:
                    self.report(call, f"`{model}` has dropout or batch norm and predicts here under `no_grad` in "
                                      f"train mode: the last switch of its mode before this, `{helper}`, leaves it "
                                      "in train mode (a validation that switches back to train at its end, or a "
                                      "training epoch), so dropout stays on and batch norm uses each batch's "
                                      f"statistics; call `{model}.eval()` first")
                    continue
                served = next((function for served, function in self._unlooped if served is call), None)
                if id(call) in owners and served is not None and id(call) not in snapshots \
                        and _every_method_ends_in_train(self.ctx, training, owners[id(call)][0], model, served):
                    self.report(call, f"`{model}` has dropout or batch norm and predicts here under `no_grad` in "
                                      "train mode: each method of the class that switches it to eval mode switches "
                                      f"it back to train mode at its end (a validation ending with `{model}"
                                      ".train()`), and this method switches nothing, so dropout stays on and batch "
                                      f"norm uses each batch's statistics; call `{model}.eval()` first")
                continue
            self.report(call, f"`{model}` has dropout or batch norm and predicts here under `no_grad` in train mode: "
                              f"nothing in this file calls `{model}.eval()`, so dropout stays on and batch norm uses "
                              f"each batch's statistics; call `{model}.eval()` before "
                              f"{'predicting' if id(call) in unlooped else 'the loop'} (and "
                              f"`{model}.train()` before training again)")

    def _switched_to_train_for(self, call: cst.Call, model: str, training: TrainingLoop) -> bool:
        """The function running `call` in a loop over data (not `range(...)`: Monte Carlo dropout draws samples so)
        switches `model` to train mode in a statement of its own body, outside `no_grad`, before the call and with
        no switch to eval mode in between (a validation that starts with `model.train()`): whatever the rest of the
        file switches, the model predicts here in train mode."""
        site = next((site for site in self.ctx.calls_to(last_name(call.func) or "") if site.node is call), None)
        function = site.function if site is not None else None
        if function is None:
            return False
        loops = [node for node in walk(function.body) if type(node) in (cst.For, cst.While)
                 and any(inner is call for inner in walk(node.body))]
        if not loops or any(type(loop) is not cst.For or type(loop.iter) is cst.Call
                            and last_name(loop.iter.func) == "range" for loop in loops):
            return False
        own = {id(small.value) for statement in function.body.body if type(statement) is cst.SimpleStatementLine
               for small in statement.body if type(small) is cst.Expr}
        switches = sorted((event for event in training.events if event.function is function
                           and event.kind in ("train", "eval") and event.subject is not None
                           and related(event.subject, model) and event.order < site.order),  # type: ignore[union-attr]
                          key=lambda event: event.order)
        last = switches[-1] if switches else None
        return last is not None and last.kind == "train" and not last.grad_disabled and id(last.node) in own \
            and (type(last.node) is not cst.Call or not last.node.args)

    def _helper_left_in_train_mode(self, call: cst.Call, model: str, training: TrainingLoop) -> str | None:
        """The call of a helper (`validate(model, loader)`, ending with `model.train()`; `train_one_epoch(model,
        ...)`) whose last switch of `model` is to train mode, when that is the last switch before `call` in the
        function making it, its own statements' or its helpers', in source order: the model is in train mode at
        `call` whichever way the loops before it ran. An own `model.train()` last is `_switched_to_train_for`'s
        (Monte Carlo dropout switches so on purpose)."""
        site = next((site for site in self.ctx.calls_to(last_name(call.func) or "") if site.node is call), None)
        if site is None:
            return None
        switches: list[tuple[int, Event, CallSite | None]] = [
            (event.order, event, None) for event in training.events
            if event.function is site.function and event.kind in ("train", "eval") and event.order < site.order
            and (event.subject is None or related(event.subject, model))]
        for other in training.local_calls().get(site.function, ()):
            if other.order >= site.order:
                continue
            definitions = set(map(id, training.helpers_of(other.node)))
            events = [event for event in training.helper_events(other.node) if event.kind in ("train", "eval")
                      and (event.subject is None or related(event.subject, model))]
            if any(id(event.function) not in definitions for event in events):
                return None  # a switch a helper's own helper makes: its place among the helper's is not known
            if events:
                switches.append((other.order, max(events, key=lambda event: event.order), other))
        if not switches:
            return None
        _, last, helper = max(switches, key=lambda switch: switch[0])
        switch = last.origin or last.node
        if helper is None or last.kind != "train" or last.grad_disabled or last.subject is None or last.restores \
                or type(switch) is not cst.Call or switch.args:
            return None  # `model.train(was_training)` puts back a mode it read
        return self.ctx.code(helper.node)

    def _copy_left_in_train_mode(self, class_def: cst.ClassDef, init: cst.FunctionDef, parameter: str) -> bool:
        """Every construction of the class hands it, as `parameter`, a model with dropout or batch norm that is
        not switched to eval mode where it is built; the class switches no mode and trains nothing; and the modules
        building it switch no module but the one they hand it (`model.train()` before training the original)."""
        if _switches_or_trains(class_def, {m.name.value for m in class_def.body.body if type(m) is cst.FunctionDef}):
            return False
        passed = constructor_arguments(self.ctx, class_def, init, parameter)
        if passed is None:
            return False
        for argument, point, reader in passed:
            if not mode_dependent_at(reader, argument, point):
                return False
            spelled = reader.code(argument)
            if any(event.subject is None or not related(event.subject, spelled)
                   for event in training_loop(reader).mode_switches()):
                return False
        return True

    def _run_on_new_object(self, call: cst.Call, class_def: cst.ClassDef, init: cst.FunctionDef, parameter: str
                           ) -> cst.Call | None:
        """A call of the method holding `call` on an object just built (`inference = Learner(data, Net())`, then
        `inference.predict_array(img)`) and handed a model just built, with nothing run on it before but methods
        that neither switch a mode nor train, nor touch its model but to load or move it: the model is in the train
        mode it was built in, whatever other methods of the class switch. That call, or None."""
        ctx = self.ctx
        method = next((m for m in class_def.body.body if type(m) is cst.FunctionDef
                       and any(node is call for node in ctx.walk(m))), None)
        for site, point in (method_callers(ctx, method) or ()) if method is not None else ():
            receiver = site.node.func.value  # type: ignore[attr-defined]  # a method call's `obj.name`
            if type(receiver) is not cst.Name or site.loop is not None:
                continue
            with ctx.at(point):
                binding = ctx.binding(receiver, site.seq + 1)  # the bindings up to `seq` are made before it
            if binding is None or binding.kind != "assign" or type(binding.value) is not cst.Call \
                    or last_name(binding.value.func) != class_def.name.value:
                continue
            scope = site.function or ctx.module
            passed = passed_argument(init, binding.value, parameter, constructor=True)
            if passed is None or not _built_here(ctx, scope, passed):
                continue
            run = methods_run_before(ctx, scope, binding.statement, site.node, receiver.value)
            if run is not None and not _switches_or_trains(class_def, {"__init__", method.name.value, *run}):
                return site.node
        return None

    def _handed_to_imported_predictor(
            self, training: TrainingLoop, built: set[tuple[cst.FunctionDef | None, str]],
            copies: dict[tuple[cst.FunctionDef | None, str], str]) -> list[tuple[cst.Call, str]]:
        """Calls handing a model built here with dropout or batch norm to a function of another project file that
        predicts with it under `no_grad` in a loop and switches no mode itself: the switch is this file's to make."""
        found: list[tuple[cst.Call, str]] = []
        for sites in training.local_calls().values():
            for site in sites:
                for definition in training.helpers_of(site.node):
                    owner = training.owner_of(definition)
                    if owner is training or switches_mode(definition):
                        continue
                    for parameter in predicted_with(owner.ctx, definition):
                        spelled = training.caller_spelling(parameter, definition, site.node)
                        spelled = copies.get((site.function, spelled), spelled)
                        if (site.function, spelled) in built and self._built_at(site, spelled):
                            found.append((site.node, spelled))
        return found

    def _predicts_for_callers(self, method: cst.FunctionDef) -> bool:
        """`method` is a method of a trainer or wrapper class that only code outside the class calls, each time in no
        loop (`forecaster.fit(loader, 10)` then `forecaster.predict(x)` in `train.py`), switching no mode of the
        object it calls it on (`forecaster.model.eval()`): a prediction it serves once training is done, not a
        snapshot the class's own training takes every few epochs."""
        owner = self.ctx.class_of_method(method)
        if owner is None:
            return False
        local = method_callers(self.ctx, method) if self.ctx.calls_of(method) else []
        if local is None:
            return False
        callers = [(site, self.ctx) for site, _ in local] + [
            (caller.site, caller.ctx) for caller in imported_method_callers(self.ctx, method)]
        for site, reader in callers:
            if site.loop is not None or reader is self.ctx and site.function is not None \
                    and self.ctx.class_of_method(site.function) is owner:
                return False
            receiver = reader.code(site.node.func.value)  # type: ignore[attr-defined]  # a method call's `obj.name`
            if any(event.subject is None or related(event.subject, receiver)
                   for event in training_loop(reader).mode_switches() if event.kind == "eval"):
                return False
        return bool(callers)

    def _after_training(self, call: cst.Call, training: TrainingLoop) -> bool:
        """A call of the module's own code, in no loop, after every backward pass of the file, each of them at
        module level too: a notebook's or script's prediction once its training cells ran, not a snapshot (asked
        only where the file switches modes: its last switch then decides, a helper's switch back to train mode
        included)."""
        site = next((site for site in self.ctx.calls_to(last_name(call.func) or "") if site.node is call), None)
        backward = [event for event in training.events if event.kind == "backward"]
        return site is not None and site.function is None and site.loop is None and bool(backward) \
            and all(event.function is None and event.order < site.order for event in backward)

    def _called_after_training(self, function: cst.FunctionDef, training: TrainingLoop) -> bool:
        """`function` is a plain function (no method) that every call, in this file or in a module importing it,
        makes in no loop, those of this file after a backward pass: a notebook's `predict_proba(x)` run once
        training is done, not a snapshot taken every few epochs nor a check of a model not trained yet."""
        if self.ctx.class_of_method(function) is not None:
            return False
        callers = project_callers(self.ctx, function)
        trained = min((event.order for event in training.events if event.kind == "backward"), default=None)
        return bool(callers) and trained is not None and all(
            caller.site.loop is None and (caller.ctx is not self.ctx or caller.site.order > trained)
            for caller in callers)  # type: ignore[union-attr]

    def _snapshot_while_training(self, found: tuple[cst.CSTNode, cst.FunctionDef | None] | None) -> bool:
        """A call runs under `no_grad` inside a loop that trains (a backward pass in the same iteration): the
        DCGAN tutorial's `with torch.no_grad(): fake = netG(fixed_noise)` every few iterations records progress of
        a model that is meant to stay in train mode, it is no evaluation."""
        if found is None:
            return False
        loop, function = found
        training = training_loop(self.ctx)
        return any(event.kind == "backward" for event in training.loop_events(loop, function))


def _every_method_ends_in_train(ctx: Context, training: TrainingLoop, class_def: cst.ClassDef, model: str,
                                method: cst.FunctionDef | None) -> bool:
    """Every switch of a mode in the file is of `model` (`self.model`), in a method of `class_def` whose last
    switch of it, a statement of its own body outside `no_grad`, is a plain `model.train()` (a `validate()`
    ending by switching back), and `method` switches nothing: whatever order the callers run the methods in, the
    model the class holds (handed over in train mode, as the constructions say) is in train mode in `method`."""
    if method is None or ctx.class_of_method(method) is not class_def:
        return False
    last: dict[int, Event] = {}
    for event in training.events:
        if event.kind not in ("train", "eval"):
            continue
        if event.subject is None or not related(event.subject, model) or event.function is None \
                or ctx.class_of_method(event.function) is not class_def or event.function is method:
            return False
        if id(event.function) not in last or last[id(event.function)].order < event.order:
            last[id(event.function)] = event
    return bool(last) and any(event.kind == "eval" for event in training.events) and all(
        event.kind == "train" and not event.grad_disabled and not event.restores and not event.loops
        and type(event.node) is cst.Call and not event.node.args and _own_statement(event.function, event.node)
        for event in last.values())


def _own_statement(function: cst.FunctionDef | None, call: cst.CSTNode) -> bool:
    """`call` is a statement of the function's own body (`self.model.train()`), under no `if`, loop or `with`."""
    return function is not None and any(
        type(small) is cst.Expr and small.value is call for statement in function.body.body
        if type(statement) is cst.SimpleStatementLine for small in statement.body)


def _evaluated_by(ctx: Context, argument: cst.BaseExpression, point: Point, reader: Context) -> bool:
    """Another module of the project that hands this file's class a model (`SpanPredictor(model, vocab)` in
    `train.py`) switches it to eval mode itself, or switches something it does not name."""
    if reader is ctx:
        return False  # this file's own switches are `finish`'s to weigh
    spelled = reader.code(argument)
    return any(event.subject is None or related(event.subject, spelled)
               for event in training_loop(reader).mode_switches() if event.kind == "eval")


# Class methods that build an instance of their class and leave it in train mode.
class _Calls:
    """The gathered calls of models under `no_grad` in loops, the first call of each model name deciding."""

    def __init__(self, gathered: list[tuple]) -> None:
        self.found: list[tuple[cst.Call, str]] = []  # of a model with dropout or batch norm
        # Of a model the function receives as a parameter: decided from its callers.
        self.received: list[tuple[cst.Call, str, cst.FunctionDef]] = []
        # Of `self.model` that a trainer's constructor stored from its parameter: decided from the constructions.
        self.stored: list[tuple[cst.Call, str, tuple[cst.ClassDef, cst.FunctionDef, str]]] = []
        # Of `self.ema` that a constructor stored a deep copy of its parameter in: decided from the constructions.
        self.copied: list[tuple[cst.Call, str, tuple[cst.ClassDef, cst.FunctionDef, str]]] = []
        # Calls in a `no_grad` block that sits in a loop with no loop of its own: the loop around it, which may be
        # training (a GAN's progress snapshot every few iterations).
        self.snapshot_in: dict[cst.Call, tuple[cst.CSTNode, cst.FunctionDef | None]] = {}
        # Later calls of a model built here, each with its snapshot loop: one decides when the first is a snapshot
        # taken while training (a check before the training cells, then the prediction after them).
        self.later: dict[str, list[tuple[cst.Call, tuple[cst.CSTNode, cst.FunctionDef | None] | None]]] = {}
        for kind, node, model, detail in gathered:
            if any(found == model for _, found in self.found):
                if kind == "built":
                    self.later.setdefault(model, []).append((node, detail))
                continue
            if kind == "built":
                self.found.append((node, model))
                if detail is not None:
                    self.snapshot_in[node] = detail
            elif kind == "received":
                self.received.append((node, model, detail))
            elif kind == "copied":
                self.copied.append((node, model, detail))
            else:
                self.stored.append((node, model, detail))


_COMPREHENSIONS = (cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp)


def _over_batches(ancestors: list[cst.CSTNode]) -> bool:
    """The node is in a comprehension over data, not over `range(...)`: `sum(criterion(model(x), y).item() for x, y
    in loader)` is an evaluation loop as its `for` statement would be."""
    for ancestor in reversed(ancestors):
        if type(ancestor) in (cst.FunctionDef, cst.Lambda):
            return False
        if type(ancestor) in _COMPREHENSIONS:
            iterated = ancestor.for_in.iter  # type: ignore[attr-defined]
            return not (type(iterated) is cst.Call and last_name(iterated.func) == "range")
    return False


def _loop_inside_with(ancestors: list[cst.CSTNode]) -> bool:
    """A loop lies between the innermost `with` around the node and the node: the block is a loop of its own."""
    for ancestor in reversed(ancestors):
        if type(ancestor) is cst.With:
            return False
        if type(ancestor) in (cst.For, cst.While):
            return True
    return False


def _built_here(ctx: Context, scope: cst.CSTNode, module: cst.BaseExpression) -> bool:
    """`module` is a construction (`Net(16, 3)`), or a name nothing in `scope` switches (`net.eval()`): its mode
    is the train mode modules are built in."""
    if type(module) is cst.Call:
        return not may_switch_mode(module)
    return type(module) is cst.Name and not any(
        may_switch_mode(node) and type(node.func.value) is cst.Name  # type: ignore[attr-defined]
        and node.func.value.value == module.value for node in ctx.walk(scope))  # type: ignore[attr-defined]


def _switches_or_trains(class_def: cst.ClassDef, names: set[str]) -> bool:
    """One of the class's methods `names`, or one they call on `self`, switches a mode or trains."""
    methods = {m.name.value: m for m in class_def.body.body if type(m) is cst.FunctionDef}
    todo, seen = [name for name in names if name in methods], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in walk(methods[name]):
            if type(node) is not cst.Call or type(node.func) is not cst.Attribute:
                continue
            if may_switch_mode(node) or node.func.attr.value in ("backward", "step"):
                return True
            if type(node.func.value) is cst.Name and node.func.value.value == "self" \
                    and node.func.attr.value in methods:
                todo.append(node.func.attr.value)
    return False


def _is_parameter(subject: str, function: cst.FunctionDef | None) -> bool:
    """A switch of a function's parameter (`def evaluate(model): model.eval()`): any model may be handed to it."""
    if function is None:
        return False
    root = subject.split(".", 1)[0]
    params = function.params
    return root == "self" or root in {param.name.value
                                      for param in (*params.posonly_params, *params.params, *params.kwonly_params)}
