"""SC303 loss-on-probabilities: softmax probabilities fed to `cross_entropy` / `nll_loss`, which want logits and
log-probabilities."""

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

CROSS_ENTROPY = frozenset({"torch.nn.functional.cross_entropy", "torch.nn.CrossEntropyLoss",
                           "torch.nn.modules.loss.CrossEntropyLoss"})
NLL = frozenset({"torch.nn.functional.nll_loss", "torch.nn.NLLLoss", "torch.nn.modules.loss.NLLLoss"})
LOSSES = CROSS_ENTROPY | NLL


class LossOnProbabilities(Rule):
    code = "SC303"
    name = "loss-on-probabilities"
    severity = "error"  # the loss applies its own (log-)softmax: gradients are silently wrong
    message = "cross_entropy applies log_softmax itself: pass the logits, not softmax probabilities"
    fixable = "unsafe"
    triggers = ("cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss")
    triggered_through_imports = True  # a trainer handed its criterion by another module (see Rule)
    # A loss on a softmax in view is reported where it is; one whose criterion or model was handed in waits for the
    # whole file's calls and constructions (`finish`), from what the visits gathered.
    scope = "statement"
    gathered = ("_handed",)
    docs = """
        ## What it does
        Finds softmax probabilities passed as the input of `F.cross_entropy` / `nn.CrossEntropyLoss`, and as the
        input of `F.nll_loss` / `nn.NLLLoss`, which expects log-probabilities. The softmax is found in any spelling
        (`F.softmax`, `torch.softmax`, `x.softmax(-1)`, an `nn.Softmax` attribute, an `nn.Sequential` ending in
        one, also `nn.Sequential(*layers)` after `layers.append(nn.Softmax(dim=1))` or `layers += [...,
        nn.Softmax(dim=1)]` as the last change to the list in the block that builds it, and one that a function of the project returns: `model = build_model(d, k)`, also a stack it fills in a list whose every layer the analysis follows, `layers.append(nn.Softmax(dim=1))` after a loop over `hidden`), through local names, shape changes and tensor indexing (`probs.view(-1, C)`, `probs[:, 1:]`), and through a model of the same file
        or of a project module it imports (`from model import Net`; also a parameter annotated with its class) whose `forward` returns it (every `return` agreeing, including one position of a returned tuple or
        one key of a returned dict, `out["logits"]`). A
        same-file helper's criterion or model parameter (`def train(model, loader, criterion, optimizer)`) is
        read from the helper's calls (at module level or in a plain function such as `main()`), and a trainer's `self.criterion` / `self.model` stored from
        its constructor's parameters from the trainer's constructions, every one agreeing; a call that passes
        nothing there gives the parameter's default (`def fit(net, batches, opt,
        criterion=nn.CrossEntropyLoss())`), a criterion picked from a dict of loss factories whose every entry
        builds the same loss is that loss (`CRITERIA[args.loss]()`), and one a factory of the project builds from
        the name the call gives it is the loss its branch returns (`get_criterion("ce")`). The helper or trainer
        may be in another module than its calls: a module with a backward pass is analysed when a module importing
        it names the loss. A loss that reads the model's output from a
        parameter (a helper's `def seg_loss(out, masks)`, a loss module's `def forward(self, preds, targets)`,
        at a key or a position: `preds["cls"]`) takes it from the calls that hand it one, every one agreeing: the
        helper's calls, or the calls of the module's instances (`criterion = DetLoss()`, then
        `criterion(model(x), y)`). The target is never checked: soft
        targets from a teacher's softmax (distillation) are correct.

        ## Why is this bad?
        `cross_entropy` computes `log_softmax` of its input. Given probabilities it takes the softmax of a softmax:
        the outputs are squashed into [0, 1], the loss can't go much below its starting value, and gradients
        vanish, so the model trains slowly or not at all, with no error. `nll_loss` given probabilities instead
        of log-probabilities optimises `-p` rather than `-log p`. The primer: "Return raw logits — PyTorch loss
        functions apply softmax/sigmoid internally", and among the common gotchas, "logits (not softmax)".

        ## Example
        ```python
        loss = F.cross_entropy(F.softmax(logits, dim=-1), targets)
        loss = F.nll_loss(F.softmax(logits, dim=-1), targets)

        self.aux_layer = nn.Sequential(nn.Linear(512, n_classes), nn.Softmax(dim=1))  # in the model
        loss = nn.CrossEntropyLoss()(model(x), y)
        ```

        ## Use instead
        ```python
        loss = F.cross_entropy(logits, targets)
        loss = F.nll_loss(F.log_softmax(logits, dim=-1), targets)

        self.aux_layer = nn.Linear(512, n_classes)  # softmax only where probabilities are wanted
        ```

        ## Fix
        Unsafe, only where the softmax call is written inline in the loss call: for `cross_entropy` the softmax
        is removed (`F.cross_entropy(F.softmax(x, -1), y)` -> `F.cross_entropy(x, y)`); for `nll_loss` it becomes
        `log_softmax` in the same spelling (`F.nll_loss(F.log_softmax(x, -1), y)`). A softmax reached through a
        name, a module or a model is reported only: other code may use those probabilities.
    """
    VALID = [
        # The factory's model ends in a log-softmax, which NLLLoss expects.
        """
        import torch.nn as nn
        def build_model(d, k):
            return nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, k), nn.LogSoftmax(dim=-1))
        def loss_of(x, y):
            model = build_model(16, 4)
            return nn.NLLLoss()(model(x), y)
        """,
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Classifier(nn.Module):
            def forward(self, x):
                return self.fc(x)
        model = Classifier().to(device)
        criterion = nn.CrossEntropyLoss()
        for images, labels in loader:
            output = model(images).to(device)
            probs = F.softmax(output, dim=1).cpu()
            loss = criterion(output, labels)
        """,
        """
        import torch.nn.functional as F
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        """,
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Net(nn.Module):
            def forward(self, x):
                return F.log_softmax(self.fc(x), dim=1)
        model = Net()
        loss = F.nll_loss(model(data), target)
        """,
        """
        import torch.nn.functional as F
        # distillation: the teacher's probabilities are the target
        soft_targets = F.softmax(teacher_logits / T, dim=-1)
        loss = F.cross_entropy(student_logits / T, soft_targets)
        """,
        """
        import torch.nn as nn
        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.softmax = nn.LogSoftmax(dim=1)
                self.loss = nn.NLLLoss()
            def forward(self, x, y):
                return self.loss(self.softmax(self.proj(x)), y)
        """,
        """
        import torch
        import torch.nn.functional as F
        probs = F.softmax(logits, dim=-1)
        loss = F.nll_loss(torch.log(probs + 1e-8), targets)
        """,
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Classifier(nn.Module):
            def forward(self, x):
                logits = self.head(x)
                if self.training:
                    return logits
                return F.softmax(logits, dim=-1)
        model = Classifier()
        criterion = nn.CrossEntropyLoss()
        loss = criterion(model(x), y)
        """,
        """
        import torch
        import tensorflow as tf
        loss = tf.nn.softmax_cross_entropy_with_logits(labels, tf.nn.softmax(x))
        """,
        # The helper is handed a model that returns logits.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(20, 5)
            def forward(self, x):
                return self.fc(x)
            def predict_proba(self, x):
                return torch.softmax(self.fc(x), dim=1)
        def train(model, loader, criterion, optimizer):
            for x, y in loader:
                loss = criterion(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        net = Net()
        train(net, loader, nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), lr=0.1))
        """,
        # A trainer that stores what it is given, built with a logits model.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, model, criterion):
                self.model, self.criterion = model, criterion
            def step(self, x, y):
                return self.criterion(self.model(x), y)
        trainer = Trainer(nn.Linear(32, 2), nn.CrossEntropyLoss())
        """,
        # `main()` hands the epoch helper a softmax model with NLLLoss on its log, and a logits model with
        # CrossEntropyLoss: neither is a loss on probabilities.
        """
        import torch
        import torch.nn as nn
        def run_epoch(model, loader, criterion):
            for x, y in loader:
                loss = criterion(model(x), y)
        def main():
            model = nn.Sequential(nn.Linear(20, 5), nn.LogSoftmax(dim=1))
            run_epoch(model, loader, nn.NLLLoss())
            logits_model = nn.Linear(20, 5)
            run_epoch(logits_model, loader, nn.CrossEntropyLoss())
        """,
        # An epoch helper whose criterion defaults to CrossEntropyLoss: the logits model uses the default, the
        # softmax model is given NLLLoss on its log; a helper defined inside `main` reads its default there.
        """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self, head=nn.Softmax(dim=1)):
                super().__init__()
                self.fc = nn.Linear(4, 3)
                self.head = head
            def forward(self, x):
                return self.fc(x)
            def predict_proba(self, x):
                return self.head(self.fc(x))
        def run_epoch(model, loader, optimizer, criterion=nn.CrossEntropyLoss()):
            for inputs, labels in loader:
                loss = criterion(model(inputs), labels)
        def main():
            model = Net()
            run_epoch(model, loader, torch.optim.Adam(model.parameters()))
            log_probs = nn.Sequential(nn.Linear(4, 3), nn.LogSoftmax(dim=1))
            run_epoch(log_probs, loader, torch.optim.Adam(log_probs.parameters()), criterion=nn.NLLLoss())
        """,
        """
        import torch.nn as nn
        class Trainer:
            def __init__(self, model, criterion=nn.CrossEntropyLoss(), **kwargs):
                self.model, self.criterion = model, criterion
            def step(self, x, y):
                return self.criterion(self.model(x), y)
        options = {"criterion": nn.MSELoss()}
        trainer = Trainer(nn.Sequential(nn.Linear(8, 1), nn.Softmax(dim=0)), **options)
        """,
        # The output activation appended only when asked for: what the list ends with is not known.
        """
        import torch.nn as nn
        def mlp(sizes, out_act=None):
            layers = []
            for a, b in zip(sizes, sizes[1:]):
                layers += [nn.Linear(a, b), nn.ReLU()]
            layers.pop()
            if out_act is not None:
                layers.append(out_act)
            return layers
        class Policy(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                layers = mlp(sizes)
                if len(sizes) > 2:
                    layers.append(nn.Softmax(dim=-1))
                self.body = nn.Sequential(*layers)
            def loss(self, obs, actions):
                return nn.functional.cross_entropy(self.body(obs), actions)
        """,
        # The softmax is applied only when the caller asks (`return_probs=True`): the evaluation loop gets the logits.
        """
        import torch
        import torch.nn as nn
        class TextCNN(nn.Module):
            def __init__(self, vocab, n_classes):
                super().__init__()
                self.embed = nn.EmbeddingBag(vocab, 64)
                self.out = nn.Linear(64, n_classes)
            def forward(self, tokens, return_probs=False):
                scores = self.out(self.embed(tokens))
                if return_probs:
                    scores = scores.softmax(dim=-1)
                return scores
        model = TextCNN(5000, 4)
        criterion = nn.CrossEntropyLoss()
        model.eval()
        with torch.no_grad():
            for tokens, labels in val_loader:
                scores = model(tokens)
                val_loss = criterion(scores, labels).item()
        """,
        # A stack a helper fills in a list, its probabilities layer only on request (the caller leaves it off).
        """
        import torch.nn as nn
        def mlp(sizes, out_act=None):
            layers = []
            for d_in, d_out in zip(sizes[:-1], sizes[1:]):
                layers += [nn.Linear(d_in, d_out), nn.ReLU()]
            layers = layers[:-1]
            if out_act is not None:
                layers.append(out_act)
            return nn.Sequential(*layers)
        class Policy(nn.Module):
            def __init__(self, obs_dim, n_actions):
                super().__init__()
                self.logits = mlp([obs_dim, 64, 64, n_actions])
            def forward(self, obs):
                return self.logits(obs)
        policy = Policy(8, 4)
        loss = nn.CrossEntropyLoss()(policy(obs), expert_actions)
        """,
        # The helper's list ends in a log-softmax: the NLLLoss it is trained with wants it.
        """
        import torch.nn as nn
        def make_classifier(in_dim, n_classes, hidden=(128, 64)):
            layers, width = [], in_dim
            for h in hidden:
                layers += [nn.Linear(width, h), nn.ReLU()]
                width = h
            layers.append(nn.Linear(width, n_classes))
            layers.append(nn.LogSoftmax(dim=-1))
            return nn.Sequential(*layers)
        clf = make_classifier(300, 20)
        loss = nn.NLLLoss()(clf(docs), topics)
        """,
    ]
    INVALID = [
        # A loss helper handed the model's outputs, the class head through a softmax.
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class PointHead(nn.Module):
            def __init__(self, d, n_classes):
                super().__init__()
                self.offset = nn.Linear(d, 3)
                self.cls = nn.Sequential(nn.Linear(d, n_classes), nn.Softmax(dim=-1))
            def forward(self, feats):
                return self.offset(feats), self.cls(feats)
        def point_loss(outputs, offsets, labels):
            return F.smooth_l1_loss(outputs[0], offsets) + F.cross_entropy(outputs[1], labels)
        head = PointHead(64, 13)
        for feats, offsets, labels in batches:
            point_loss(head(feats), offsets, labels).backward()
        """,
        # A stack a helper of the file fills in a list (`nn.Sequential(*layers)`), ending in nn.Softmax.
        """
        import torch
        import torch.nn as nn
        def make_classifier(in_dim, n_classes, hidden=(128, 64), dropout=0.2):
            layers, width = [], in_dim
            for h in hidden:
                layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
                width = h
            layers.append(nn.Linear(width, n_classes))
            layers.append(nn.Softmax(dim=-1))
            return nn.Sequential(*layers)
        class DocClassifier(nn.Module):
            def __init__(self, vocab, dim, n_classes):
                super().__init__()
                self.embed = nn.EmbeddingBag(vocab, dim)
                self.head = make_classifier(dim, n_classes)
            def forward(self, tokens, offsets):
                return self.head(self.embed(tokens, offsets))
        model = DocClassifier(30000, 300, 20)
        criterion = nn.CrossEntropyLoss()
        for tokens, offsets, topics in loader:
            loss = criterion(model(tokens, offsets), topics)
        """,
        # A fit helper's default criterion, CrossEntropyLoss, given a network that ends in nn.Softmax
        """
        import torch
        import torch.nn as nn
        def fit(net, batches, opt, epochs=10, criterion=nn.CrossEntropyLoss()):
            for _ in range(epochs):
                for xb, yb in batches:
                    opt.zero_grad()
                    criterion(net(xb), yb).backward()
                    opt.step()
        class IrisNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3), nn.Softmax(dim=1))
            def forward(self, x):
                return self.layers(x)
        iris_net = IrisNet()
        fit(iris_net, loader, torch.optim.SGD(iris_net.parameters(), lr=0.1), epochs=50)
        """,
        # A trainer whose constructor defaults its criterion
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, model, lr=1e-3, criterion=nn.CrossEntropyLoss()):
                self.model, self.criterion = model, criterion
                self.opt = torch.optim.SGD(model.parameters(), lr=lr)
            def step(self, x, y):
                loss = self.criterion(self.model(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(32, 10)
            def forward(self, x):
                return torch.softmax(self.proj(x), dim=-1)
        trainer = Trainer(Tagger(), lr=0.01)
        """,
        # A loss helper whose model parameter is annotated with the project's classifier, which ends in a softmax.
        """
        import torch
        import torch.nn as nn
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4), nn.Softmax(dim=-1))
            def forward(self, x):
                return self.body(x)
        def loss_fn(model: Classifier, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            return nn.functional.cross_entropy(model(x), y)
        """,
        # The model a same-file factory builds ends in a softmax.
        """
        import torch
        import torch.nn as nn
        def build_model(d, k):
            return nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, k), nn.Softmax(dim=-1))
        def train(loader):
            model = build_model(16, 4)
            criterion = nn.CrossEntropyLoss()
            opt = torch.optim.Adam(model.parameters())
            for x, y in loader:
                opt.zero_grad()
                criterion(model(x), y).backward()
                opt.step()
        """,
        """
        import torch.nn as nn
        import torch.nn.functional as F
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(784, 10)
            def forward(self, x):
                return F.softmax(self.fc(x), dim=1)
        model = Classifier().to(device)
        criterion = nn.CrossEntropyLoss()
        for images, labels in loader:
            output = model(images)
            output = output.to(device)
            loss = criterion(output, labels.to(device))
        """,
        Invalid(
            """
            import torch.nn.functional as F
            loss = F.cross_entropy(F.softmax(logits, dim=-1), targets)
            """,
            fixed="""
            import torch.nn.functional as F
            loss = F.cross_entropy(logits, targets)
            """,
        ),
        Invalid(
            """
            import torch.nn.functional as F
            loss = F.cross_entropy(F.softmax(logits, dim=-1).view(-1, n_classes), targets.view(-1))
            """,
            fixed="""
            import torch.nn.functional as F
            loss = F.cross_entropy(logits.view(-1, n_classes), targets.view(-1))
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn.functional as F
            loss = F.nll_loss(torch.softmax(out, 1), y, reduction="sum")
            """,
            fixed="""
            import torch
            import torch.nn.functional as F
            loss = F.nll_loss(torch.log_softmax(out, 1), y, reduction="sum")
            """,
        ),
        Invalid(
            """
            import torch.nn as nn
            criterion = nn.CrossEntropyLoss()
            loss = criterion(logits.softmax(-1), labels)
            """,
            fixed="""
            import torch.nn as nn
            criterion = nn.CrossEntropyLoss()
            loss = criterion(logits, labels)
            """,
        ),
        """
        import torch
        import torch.nn.functional as F
        probs = F.softmax(logits, dim=1)
        preds = probs.argmax(1)
        loss = F.cross_entropy(probs, targets)
        """,
        """
        import torch
        import torch.nn as nn
        class Discriminator(nn.Module):
            def __init__(self, n_classes):
                super().__init__()
                self.adv_layer = nn.Sequential(nn.Linear(512, 1), nn.Sigmoid())
                self.aux_layer = nn.Sequential(nn.Linear(512, n_classes), nn.Softmax(dim=1))
            def forward(self, img):
                out = self.features(img)
                validity = self.adv_layer(out)
                label = self.aux_layer(out)
                return validity, label
        auxiliary_loss = torch.nn.CrossEntropyLoss()
        discriminator = Discriminator(10)
        for imgs, labels in loader:
            real_pred, real_aux = discriminator(imgs)
            d_loss = auxiliary_loss(real_aux, labels)
        """,
        """
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.softmax = nn.Softmax(dim=1)
                self.criterion = nn.NLLLoss()
            def forward(self, x, y):
                return self.criterion(self.softmax(self.fc(x)), y)
        """,
        # A softmax model and a cross-entropy criterion handed to a same-file training helper.
        """
        import torch
        import torch.nn as nn
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5), nn.Softmax(dim=1))
            def forward(self, x):
                return self.net(x)
        def train(model, loader, criterion, optimizer):
            for x, y in loader:
                loss = criterion(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        clf = Classifier()
        train(clf, loader, nn.CrossEntropyLoss(), torch.optim.Adam(clf.parameters()))
        """,
        # The same trainer built with a model whose forward ends in softmax.
        """
        import torch
        import torch.nn as nn
        class DomainClassifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2))
            def forward(self, feats):
                return torch.softmax(self.layers(feats), dim=1)
        class Trainer:
            def __init__(self, model, criterion):
                self.model, self.criterion = model, criterion
            def step(self, x, y):
                return self.criterion(self.model(x), y)
        trainer = Trainer(DomainClassifier(), nn.CrossEntropyLoss())
        """,
        # A script's `main()` builds the softmax model and the criterion and hands both to the epoch helper.
        """
        import torch
        import torch.nn as nn
        def run_epoch(model, loader, criterion, optimizer):
            for features, targets in loader:
                loss = criterion(model(features), targets)
        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5), nn.Softmax(dim=1))
            def forward(self, x):
                return self.layers(x)
        def main():
            model = MLP()
            criterion = nn.CrossEntropyLoss()
            run_epoch(model, loader, criterion, torch.optim.Adam(model.parameters()))
        if __name__ == "__main__":
            main()
        """,
        # A scikit-learn-style wrapper builds its stack from a list whose last layers are a Softmax.
        """
        import torch.nn as nn
        class MLPClassifier:
            def __init__(self, n_features, hidden_sizes, n_classes):
                layers, width = [], n_features
                for h in hidden_sizes:
                    layers += [nn.Linear(width, h), nn.ReLU()]
                    width = h
                layers += [nn.Linear(width, n_classes), nn.Softmax(dim=-1)]
                self.net = nn.Sequential(*layers)
                self.criterion = nn.CrossEntropyLoss()
            def partial_fit(self, x, y, optimizer):
                optimizer.zero_grad()
                loss = self.criterion(self.net(x), y)
                loss.backward()
                optimizer.step()
        """,
        # The same kind of stack handed to a training helper with its criterion.
        """
        import torch
        import torch.nn as nn
        def train_step(model, batch, criterion, optimizer):
            tokens, labels = batch
            loss = criterion(model(tokens), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        class IntentTrainer:
            def __init__(self, vocab, n_intents):
                blocks = [nn.EmbeddingBag(vocab, 64), nn.Linear(64, n_intents)]
                blocks.append(nn.Softmax(dim=1))
                self.classifier = nn.Sequential(*blocks)
                self.optimizer = torch.optim.Adam(self.classifier.parameters())
            def epoch(self, loader):
                for batch in loader:
                    train_step(self.classifier, batch, nn.CrossEntropyLoss(), self.optimizer)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # The losses whose criterion or model was handed in, for `finish` to resolve.
        self._handed: list[HandedLoss] = []

    def visit_Call(self, node: cst.Call) -> None:
        found = loss_input(self.ctx, node, LOSSES)
        if found is None:
            self._note_handed(node, None)
            return
        loss, argument = found
        activation = activation_of(self.ctx, argument, models=True)
        if activation is None or activation.kind != "softmax":
            self._note_handed(node, loss)
            return
        self._report(node, loss, activation)

    def _report(self, node: cst.Call, loss: str, activation: Activation | None) -> None:
        if loss in CROSS_ENTROPY:
            self.report(node, fix=activation and self._fix(activation, remove=True))
        else:
            self.report(node, "nll_loss expects log-probabilities: use log_softmax, not softmax",
                        activation and self._fix(activation, remove=False))

    def _note_handed(self, node: cst.Call, loss: str | None) -> None:
        """`criterion(model(x), y)` in `def train(model, loader, criterion, ...)`, or `self.criterion(
        self.model(x), y)` in a trainer that stored what its constructor was given: the calls of the helper or
        the constructions of the trainer say what the criterion and the model are."""
        handed = handed_loss(self.ctx, node, loss)
        if handed is not None and handed.kind in (None, "softmax"):
            self._handed.append(handed)

    def finish(self) -> None:
        for handed in self._handed:
            resolved = resolve_handed(self.ctx, handed, LOSSES)
            if resolved is not None and resolved[1] == "softmax":
                self._report(handed.call, resolved[0], None)

    def _fix(self, activation: Activation, remove: bool) -> Fix | None:
        if not activation.inline or activation.form not in ("function", "method"):
            return None
        call = activation.call
        if remove:
            logits = activation_input(activation)
            return None if logits is None else Fix("Pass the logits", ((call, logits),), "unsafe")
        if type(call.func) is not cst.Attribute:
            return None  # a bare imported `softmax` has no `log_softmax` spelling in this file
        new = call.with_changes(func=call.func.with_changes(attr=cst.Name("log_softmax")))
        return Fix("Use `log_softmax`", ((call, new),), "unsafe")
