"""SC106 cross-entropy-shape: `cross_entropy` / `nll_loss` given targets that can't match the input's shape, above
all (B, T, V) logits with (B, T) targets."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Rule
from shapecheck.shapes.messages import quoted
from shapecheck.objects.dims import same
from shapecheck.shapes.losses import loss_call
from shapecheck.shapes.shape import Shape
from shapecheck.shapes import runs, value_bounds
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the one place they differ.
_WINDOW_BATCHES = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        vocab_size, block_size = 65, 8
        data = torch.randint(0, vocab_size, (500,))

        class LM(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(vocab_size, vocab_size)

            def forward(self, idx, targets=None):
                logits = self.embed(idx)
                if targets is None:
                    return logits, None
                return logits, F.cross_entropy(%s)

        ix = torch.randint(len(data) - block_size, (4,))
        x = torch.stack([data[i:i + block_size] for i in ix])
        y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
        logits, loss = LM()(x, y)
        """

_TEACHER_FORCING = """
        import argparse
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class CharRNN(nn.Module):
            def __init__(self, vocab=65, hidden=128):
                super().__init__()
                self.embed = nn.Embedding(vocab, hidden)
                self.rnn = nn.GRU(hidden, hidden, batch_first=True)
                self.head = nn.Linear(hidden, vocab)

            def forward(self, tokens):
                out, _ = self.rnn(self.embed(tokens))
                return self.head(out)

        def train_step(model: CharRNN, batch_size: int, seq_len: int) -> torch.Tensor:
            chunk = torch.randint(0, 65, (batch_size, seq_len + 1))
            inputs, targets = chunk[:, :-1], chunk[:, 1:]
            logits = model(%s)
            return F.cross_entropy(logits.transpose(1, 2), targets)

        parser = argparse.ArgumentParser()
        parser.add_argument("--seq-len", type=int, default=100)
        args = parser.parse_args()
        loss = train_step(CharRNN(), 32, args.seq_len)
        """

_GENERATOR_BATCHES = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class CharRNN(nn.Module):
            def __init__(self, n_chars=83, n_hidden=256):
                super().__init__()
                self.embed = nn.Embedding(n_chars, n_hidden)
                self.lstm = nn.LSTM(n_hidden, n_hidden, batch_first=True)
                self.fc = nn.Linear(n_hidden, n_chars)

            def forward(self, x):
                out, _ = self.lstm(self.embed(x))
                return self.fc(out)


        def get_batches(encoded, batch_size, seq_length):
            window = batch_size * (seq_length + 1)
            for start in range(0, encoded.size(0) - window + 1, window):
                chunk = encoded[start:start + window].view(batch_size, seq_length + 1)
                yield chunk[:, :-1], chunk[:, 1:]


        net = CharRNN()
        encoded = torch.randint(0, 83, (20_000,))
        for x, y in get_batches(encoded, 16, 50):
            loss = F.cross_entropy(%s)
        """

_STEP_SLICES = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class CharTransformer(nn.Module):
            def __init__(self, vocab_size=65, d_model=64):
                super().__init__()
                self.tok = nn.Embedding(vocab_size, d_model)
                layer = nn.TransformerEncoderLayer(d_model, 4, dim_feedforward=128, batch_first=True)
                self.blocks = nn.TransformerEncoder(layer, 2)
                self.lm_head = nn.Linear(d_model, vocab_size)

            def forward(self, idx):
                return self.lm_head(self.blocks(self.tok(idx)))

            def training_step(self, batch):
                B, T = batch.shape
                logits = self(batch[:, :-1])
                return F.cross_entropy(%s)
        """

_ZIPPED_HEADS = """
        import torch
        import torch.nn.functional as F
        from torch import nn

        heads = nn.ModuleList([nn.Linear(32, 5) for _ in range(2)])
        features = torch.randn(8, 32)
        targets = torch.randint(0, 5, %s)
        total = 0.0
        for head, target in zip(heads, targets):
            total = total + F.cross_entropy(head(features), target)
        """

_LIST_LABELS = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        class_ids = [0, 1, 2, 1, 0, 2, 1, 0]
        labels = torch.tensor(class_ids)%s
        model = nn.Linear(4, 3)
        criterion = nn.CrossEntropyLoss()
        for x, y in DataLoader(TensorDataset(torch.randn(8, 4), labels), batch_size=4):
            loss = criterion(model(x), y)
        """

_RECURRENT_CHAIN = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class LastHidden(nn.Module):
            def forward(self, rnn_output):
                output, h_n = rnn_output
                return h_n[-1]

        class SequenceClassifier(nn.Sequential):
            def __init__(self, n_features=8, hidden=64, n_classes=5):
                super().__init__(nn.GRU(n_features, hidden%s), LastHidden(), nn.Linear(hidden, n_classes))

        model = SequenceClassifier()
        windows = torch.randn(32, 100, 8)  # (batch, time, features)
        loss = F.cross_entropy(model(windows), torch.randint(0, 5, (32,)))
        """

_DICT_OUTPUT = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Tagger(nn.Module):
            def __init__(self, vocab=1000, dim=32, tags=9):
                super().__init__()
                self.embed = nn.Embedding(vocab, dim)
                self.head = nn.Linear(dim, tags)

            def forward(self, ids):
                h = self.embed(ids)
                return {"hidden": h, "logits": self.head(h)}

        def step(model, batch):
            out = model(batch["input_ids"])
            return F.cross_entropy(out["logits"]%s)

        step(Tagger(), {"input_ids": torch.randint(0, 1000, (4, 16)), "labels": torch.randint(0, 9, (4, 16))})
        """

_SENSOR_BRANCHES = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset

        class SensorWindows(Dataset):
            def __init__(self, n, n_sensors=3, window=50):
                self.signals = [torch.randn(n, 1, window) for _ in range(n_sensors)]
                self.labels = torch.randint(0, 4, (n,))

            def __len__(self):
                return len(self.labels)

            def __getitem__(self, i):
                return tuple(s[i] for s in self.signals), self.labels[i]

        class Fusion(nn.Module):
            def __init__(self, n_sensors=3, window=50, dim=16, n_classes=4):
                super().__init__()
                self.branches = nn.ModuleList(nn.Sequential(nn.Flatten(), nn.Linear(window, dim))
                                              for _ in range(n_sensors))
                self.head = nn.Linear(dim, n_classes)

            def forward(self, *signals):
                feats = [branch(s) for branch, s in zip(self.branches, signals)]
                return self.head(torch.stack(feats, dim=%s).mean(dim=1))

        def train(model, loader):
            criterion = nn.CrossEntropyLoss()
            for signals, y in loader:
                loss = criterion(model(*signals), y)
                loss.backward()

        train(Fusion(), DataLoader(SensorWindows(40), batch_size=10, shuffle=True))
        """


_OPTIONS_LM = """
        import argparse

        import torch
        import torch.nn.functional as F
        from torch import nn


        def random_tokens(n: int, length: int, vocab: int) -> torch.Tensor:
            return torch.randint(0, vocab, (n, length))


        def lm_loss(opt: argparse.Namespace) -> torch.Tensor:
            model = nn.Sequential(nn.Embedding(opt.ntokens, opt.emsize), nn.Linear(opt.emsize, opt.ntokens))
            tokens = random_tokens(opt.batch_size, opt.bptt + 1, opt.ntokens)
            output = model(tokens[:, :-1])
            return F.cross_entropy(%s)


        if __name__ == "__main__":
            print(lm_loss(argparse.Namespace(ntokens=100, emsize=16, batch_size=4, bptt=35)))
"""


_HASHED_PREDICT = """
        import torch
        import torch.nn as nn

        class SlotTagger(nn.Module):
            def __init__(self, buckets: int = 1000, n_slots: int = 5):
                super().__init__()
                self.embed = nn.Embedding(buckets + 1, 48)
                self.out = nn.Linear(48, n_slots)

            def forward(self, ids, slots=None):
                logits = self.out(self.embed(ids))
                if slots is None:
                    return logits
                return nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), slots.reshape(-1)), logits

        def featurize(utterance: str, width: int = 24):
            ids = [sum(map(ord, token)) %% 1000 + 1 for token in utterance.lower().split()][:width]
            return torch.tensor([ids + [0] * (width - len(ids))])

        @torch.no_grad()
        def score(model: SlotTagger, utterance: str) -> float:
            ids = featurize(utterance)
            slots = torch.zeros(%s, dtype=torch.long)
            loss, _ = model(ids, slots)
            return loss.item()

        print(score(SlotTagger(), "book a table for two at noon"))
"""


_COLLATOR = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset


        class Sentences(Dataset):
            def __init__(self, n: int = 64, length: int = 24, vocab: int = 300, tags: int = 7):
                self.ids = torch.randint(1, vocab, (n, length))
                self.tags = torch.randint(0, tags, (n, length))

            def __len__(self):
                return len(self.ids)

            def __getitem__(self, i):
                return self.ids[i], self.tags[i]


        class TruncatingCollator:
            def __init__(self, max_len: int):
                self.max_len = max_len

            def __call__(self, batch):
                ids = torch.stack([x for x, _ in batch])[:, : self.max_len]
                tags = torch.stack([y for _, y in batch])%s
                return ids, tags


        class Tagger(nn.Module):
            def __init__(self, vocab: int = 300, dim: int = 32, tags: int = 7):
                super().__init__()
                self.embed = nn.Embedding(vocab, dim)
                self.out = nn.Linear(dim, tags)

            def forward(self, ids):
                return self.out(self.embed(ids))


        model = Tagger()
        criterion = nn.CrossEntropyLoss()
        for ids, tags in DataLoader(Sentences(), batch_size=16, collate_fn=TruncatingCollator(16)):
            logits = model(ids)
            loss = criterion(logits.view(-1, logits.size(-1)), tags.reshape(-1))
"""

class CrossEntropyShape(Rule):
    code = "SC106"
    name = "cross-entropy-shape"
    raises = True  # not reported where a test expects the error
    message = "`cross_entropy` target shape can't match its input"
    triggers = ("cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss")
    triggered_through_imports = True  # reports at a call what a first-party module does (see Rule)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds `F.cross_entropy`, `F.nll_loss`, `nn.CrossEntropyLoss` and `nn.NLLLoss` calls whose input and target
        shapes, as the shape analysis knows them, can't go together. The loss reads the class scores from dim 1 of
        the input: an (N, C) input takes (N,) class indices, an (N, C, d1, ...) input takes (N, d1, ...) indices,
        and class probabilities have the input's own shape. Reported:
        - sequence logits (B, T, V) with (B, T) targets: the targets match the input without its *last* dim, but
          the class dim is dim 1, so the loss wants (B, V) targets (it raises unless T happens to equal V);
        - targets whose rank fits neither class indices nor probabilities, such as (N, 1) integer labels for (N, C)
          logits;
        - targets whose sizes are proven different from the input's non-class dims;
        - a batch of integer labels (N,) for a 1-d input: a 1-d input is one sample's scores (a one-logit
          classifier's (N, 1) output squeezed to (N,) is read as one sample of N classes), so it raises;
        - class indices the code draws past the input's classes (`torch.randint(1, 11, (N,))` labels for 10
          classes: "Target 10 is out of bounds"), unless an `ignore_index` is given;
        - labels of the indices' shape made float (`labels.float()`): a float target is read as class
          probabilities, which must have the input's shape ("expected target dtype to be Long").
        - one-hot rows or class probabilities of the input's shape given to `nll_loss`/`nn.NLLLoss`, which take
          class indices only ("0D or 1D target tensor expected, multi-target not supported").

        Shapes come from the shape analysis; when either is unknown, nothing is reported. Flattened calls
        (`logits.view(-1, V)`, `targets.view(-1)`), logits moved to (B, V, T) with `transpose(1, 2)`,
        segmentation maps (N, C, H, W) with (N, H, W) targets and soft (N, C) targets to `cross_entropy` are all
        fine.

        ## Why is this bad?
        The primer: "Shape mismatches in cross-entropy. F.cross_entropy(logits, targets) expects logits of shape
        (N, C) and targets of shape (N,) with class indices in [0, C) — not one-hot. For sequence outputs, flatten:
        F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))." With (B, T, V) logits the loss takes T as the
        number of classes and raises "Expected target size (B, V), got (B, T)"; when T equals V it trains on the
        wrong axis without a word.

        ## Example
        ```python
        logits = model(idx)                      # (B, T, V)
        loss = F.cross_entropy(logits, targets)  # targets: (B, T)
        ```

        ## Use instead
        ```python
        B, T, V = logits.shape
        loss = F.cross_entropy(logits.view(B * T, V), targets.view(B * T))
        # or, keeping the sequence dim: classes in dim 1
        loss = F.cross_entropy(logits.transpose(1, 2), targets)
        ```
    """
    VALID = [
        # labels drawn in [0, C), shifted into it, or with an ignored padding class
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        classifier = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))
        features = torch.randn(32, 20)
        labels = torch.randint(0, 10, (32,))
        loss = F.cross_entropy(classifier(features), labels)
        one_based = torch.randint(1, 11, (32,))
        shifted = F.cross_entropy(classifier(features), one_based - 1)
        padded = nn.CrossEntropyLoss(ignore_index=10)(classifier(features), one_based)
        """,
        # one sample's scores (an unbatched (C,) input) with its single class index
        """
        import torch
        import torch.nn.functional as F

        scores = torch.randn(10)
        loss = F.cross_entropy(scores, torch.tensor(3))
        """,
        # nanoGPT: flattened logits and targets
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(4, 8, 100)
        targets = torch.randint(0, 100, (4, 8))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        """,
        # transformers: `loss_fct(logits.view(-1, self.num_labels), labels.view(-1))`
        """
        import torch
        import torch.nn as nn
        from jaxtyping import Float, Int
        from torch import Tensor
        def token_loss(logits: Float[Tensor, "B T V"], labels: Int[Tensor, "B T"]):
            loss_fct = nn.CrossEntropyLoss()
            return loss_fct(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
        """,
        # transformers / wav2vec2: one-hot labels turned into indices with `argmax(..., axis=1)`
        """
        import torch
        from torch.nn import CrossEntropyLoss
        def xvector_loss(logits, labels, num_labels):
            loss_fct = CrossEntropyLoss()
            return loss_fct(logits.view(-1, num_labels), torch.argmax(labels.view(-1, num_labels), axis=1))
        """,
        # classes moved to dim 1: (B, V, T) logits with (B, T) targets
        """
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        from torch import Tensor
        def seq_loss(logits: Float[Tensor, "B T V"], targets: Int[Tensor, "B T"]):
            return F.cross_entropy(logits.transpose(1, 2), targets)
        """,
        # segmentation (pytorch/vision references): (N, C, H, W) scores, (N, H, W) labels
        """
        import torch.nn as nn
        from jaxtyping import Float, Int
        from torch import Tensor
        criterion = nn.CrossEntropyLoss(ignore_index=255)
        def seg_loss(out: Float[Tensor, "N C H W"], target: Int[Tensor, "N H W"]):
            return criterion(out, target)
        """,
        # timm mixup: soft targets of the logits' own shape
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(32, 1000)
        soft = torch.softmax(torch.randn(32, 1000), dim=-1)
        loss = F.cross_entropy(logits, soft)
        """,
        # pytorch/examples mnist: log-probabilities of a (N, 10) Linear, (N,) targets
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        fc = nn.Linear(128, 10)
        h = torch.randn(64, 128)
        target = torch.randint(0, 10, (64,))
        loss = F.nll_loss(F.log_softmax(fc(h), dim=1), target)
        """,
        # a model returning a dict: its sequence logits read by key, flattened
        _DICT_OUTPUT % '.flatten(0, 1), batch["labels"].flatten()',
        # a batch-first GRU in an nn.Sequential subclass: the last layer's h_n is (batch, hidden)
        _RECURRENT_CHAIN % ", batch_first=True",
        # labels from a Python list, one per row
        _LIST_LABELS % "",
        # the bigram lecture's fix: windows of the data as batches, flattened in the forward; a window holds at
        # most block_size tokens, a length of its own
        _WINDOW_BATCHES % "logits.view(-1, vocab_size), targets.view(-1)",
        # char-rnn teacher forcing: a chunk of seq_len + 1 steps, the model fed its first seq_len, scored on its last
        # seq_len, time kept last by transposing the classes in
        _TEACHER_FORCING % "inputs",
        # a char-rnn fed by a batch generator, its (B, T, V) scores flattened against the flattened targets
        _GENERATOR_BATCHES % "net(x).reshape(-1, 83), y.reshape(-1)",
        # a training step on (B, T) token batches of any length T: minGPT's flattened scores and targets
        _STEP_SLICES % "logits.reshape(-1, logits.size(-1)), batch[:, 1:].reshape(-1)",
        # mixup: float class probabilities of the input's shape
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(16, 10)
        y = F.one_hot(torch.randint(0, 10, (16,)), 10).float()
        lam = 0.7
        soft = lam * y + (1 - lam) * y.flip(0)
        loss = F.cross_entropy(logits, soft)
        """,
        # a Keras port: one-hot labels turned back into indices for nll_loss, soft labels kept for cross_entropy
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10), nn.LogSoftmax(dim=1))
        targets_onehot = F.one_hot(torch.randint(0, 10, (16,)), 10).float()
        log_probs = model(torch.randn(16, 1, 28, 28))
        loss = F.nll_loss(log_probs, targets_onehot.argmax(dim=1)) + F.cross_entropy(log_probs, targets_onehot)
        """,
        # mixup-cifar10's mixup_criterion: the loss mixed, the labels kept as indices
        """
        import numpy as np
        import torch
        import torch.nn as nn

        def mixup_data(x, y, alpha=1.0):
            lam = np.random.beta(alpha, alpha) if alpha > 0 else 1.0
            index = torch.randperm(x.size(0))
            return lam * x + (1 - lam) * x[index, :], y, y[index], lam

        def mixup_criterion(criterion, pred, y_a, y_b, lam):
            return lam * criterion(pred, y_a) + (1 - lam) * criterion(pred, y_b)

        net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
        inputs, y_a, y_b, lam = mixup_data(torch.randn(32, 20), torch.randint(0, 5, (32,)))
        loss = mixup_criterion(nn.CrossEntropyLoss(), net(inputs), y_a, y_b, lam)
        """,
        # per-task heads zipped with task-major targets (tasks, B): one (B,) row of labels a head
        """
        import torch
        import torch.nn.functional as F
        from torch import nn

        heads = nn.ModuleList(nn.Linear(32, 5) for _ in range(2))
        features = torch.randn(8, 32)
        targets = torch.randint(0, 5, (2, 8))  # task-major: one row of labels a head
        logits = [head(features) for head in heads]
        loss = sum(F.cross_entropy(logit, target) for logit, target in zip(logits, targets))
        """,
        # the same task-major targets in a notebook's module-level loop: each head gets its (B,) row
        _ZIPPED_HEADS % "(2, 8)",
        # one branch per sensor, the samples' tuple of windows collated to a list the model spreads; the branches'
        # features stacked on a sensor axis after the batch and averaged over it
        _SENSOR_BRANCHES % "1",
        # word_language_model's way: options typed `argparse.Namespace` size the tokens a helper draws, and the
        # (B, T, V) logits and the targets are flattened before the loss
        _OPTIONS_LM % "output.view(-1, opt.ntokens), tokens[:, 1:].reshape(-1)",
        # the same dummy slots, one per token
        _HASHED_PREDICT % "ids.shape",
        # the same collator truncating the tags with the tokens
        _COLLATOR % "[:, : self.max_len]",
    ]
    INVALID = [
        # a notebook's module-level loop zips the heads with a (B, tasks) target: zip walks its rows, so each head's
        # (B, C) logits get one sample's (tasks,) labels ("Expected input batch_size (8) to match target batch_size
        # (2)")
        _ZIPPED_HEADS % "(8, 2)",
        # the same features stacked ahead of the batch: the mean over dim 1 averages the batch away, one row of
        # logits a sensor ("Expected input batch_size (3) to match target batch_size (10)")
        _SENSOR_BRANCHES % "0",
        # 1-based labels for 10 classes ("IndexError: Target 10 is out of bounds")
        """
        import torch
        import torch.nn as nn

        classifier = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))
        criterion = nn.CrossEntropyLoss()
        features = torch.randn(32, 20)
        labels = torch.randint(1, 11, (32,))
        loss = criterion(classifier(features), labels)
        """,
        # a one-logit classifier's output squeezed to (N,): cross entropy reads it as one sample of N classes
        """
        import torch
        import torch.nn as nn

        model = nn.Linear(300, 1)
        criterion = nn.CrossEntropyLoss()
        x, labels = torch.randn(16, 300), torch.randint(0, 2, (16,))
        loss = criterion(model(x).squeeze(), labels)
        """,
        # a model returning a dict: its sequence logits read by key, unflattened
        _DICT_OUTPUT % ', batch["labels"]',
        # a seq-first GRU (torch's default) given (batch, time, features): h_n[-1] is (time, hidden)
        _RECURRENT_CHAIN % "",
        # labels from a Python list, made a column: (N, 1) class indices
        _LIST_LABELS % ".unsqueeze(1)",
        # the bigram lecture: (4, block_size, 65) logits of batches cut from the data by windows, unflattened
        _WINDOW_BATCHES % "logits, targets",
        # the model fed the whole chunk: its seq_len + 1 steps of logits against seq_len targets ("Expected target
        # size [32, 101], got [32, 100]")
        _TEACHER_FORCING % "chunk",
        # the same char-rnn's (16, 50, 83) scores unflattened: the batches a generator yields are what a loop over
        # it gets ("Expected target size [16, 83], got [16, 50]")
        _GENERATOR_BATCHES % "net(x), y",
        # the same step unflattened: `batch[:, :-1]` and `batch[:, 1:]` are as long, whatever T is, so the (B, T - 1)
        # targets meet the classes at dim 1 ("Expected target size [4, 65], got [4, 32]")
        _STEP_SLICES % "logits, batch[:, 1:]",
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(4, 8, 100)
        targets = torch.randint(0, 100, (4, 8))
        loss = F.cross_entropy(logits, targets)
        """,
        # a language model's head, annotated
        """
        import torch.nn as nn
        from jaxtyping import Float, Int
        from torch import Tensor
        criterion = nn.CrossEntropyLoss()
        def lm_loss(logits: Float[Tensor, "B T V"], targets: Int[Tensor, "B T"]):
            return criterion(logits, targets)
        """,
        # nll_loss of sequence log-probabilities
        """
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        from torch import Tensor
        def lm_loss(logits: Float[Tensor, "B T V"], targets: Int[Tensor, "B T"]):
            return F.nll_loss(F.log_softmax(logits, dim=-1), targets)
        """,
        # (N, 1) integer labels for (N, 10) logits
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        fc = nn.Linear(128, 10)
        h = torch.randn(64, 128)
        labels = torch.randint(0, 10, (64, 1))
        loss = F.cross_entropy(fc(h), labels)
        """,
        # the batch sizes are different literals
        """
        import torch
        import torch.nn.functional as F
        logits = torch.randn(32, 10)
        targets = torch.randint(0, 10, (16,))
        loss = F.cross_entropy(logits, targets)
        """,
        # labels cast to float for the loss: a float target is read as class probabilities
        """
        import torch
        import torch.nn as nn

        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(30, 4)
                self.loss_fn = nn.CrossEntropyLoss()

            def step(self, x, labels):
                return self.loss_fn(self.fc(x), labels.float())

        loss = Classifier().step(torch.randn(8, 30), torch.randint(0, 4, (8,)))
        """,
        # a Keras port: one-hot labels handed to nll_loss, which takes class indices only
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Net(nn.Module):
            def __init__(self, num_classes=10):
                super().__init__()
                self.fc = nn.Linear(784, num_classes)

            def forward(self, x):
                return F.log_softmax(self.fc(x.flatten(1)), dim=1)

        def train_step(model, images, targets, num_classes=10):
            targets_onehot = F.one_hot(targets, num_classes).float()
            return F.nll_loss(model(images), targets_onehot)

        loss = train_step(Net(), torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,)))
        """,
        # mixup inside a module's forward: the soft targets turned back into labels with `keepdim=True`
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class MixupClassifier(nn.Module):
            def __init__(self, num_classes=10, alpha=0.2):
                super().__init__()
                self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, num_classes))
                self.num_classes = num_classes
                self.alpha = alpha
                self.criterion = nn.CrossEntropyLoss()

            def forward(self, x, y):
                lam = float(torch.distributions.Beta(self.alpha, self.alpha).sample())
                perm = torch.randperm(x.size(0))
                y1 = F.one_hot(y, self.num_classes).float()
                mixed = lam * y1 + (1 - lam) * y1[perm]
                logits = self.backbone(lam * x + (1 - lam) * x[perm])
                return self.criterion(logits, mixed.argmax(dim=1, keepdim=True))

        loss = MixupClassifier()(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,)))
        """,
        # mixup-cifar10's mixup_data, with the integer labels mixed instead of the two losses
        """
        import numpy as np
        import torch
        import torch.nn as nn

        def mixup_data(x, y, alpha=1.0):
            lam = np.random.beta(alpha, alpha) if alpha > 0 else 1.0
            index = torch.randperm(x.size(0))
            mixed_x = lam * x + (1 - lam) * x[index, :]
            mixed_y = lam * y.float() + (1 - lam) * y[index].float()
            return mixed_x, mixed_y, lam

        net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
        inputs, mixed_y, lam = mixup_data(torch.randn(32, 20), torch.randint(0, 5, (32,)))
        loss = nn.CrossEntropyLoss()(net(inputs), mixed_y)
        """,
        # per-task heads zipped with a (B, tasks) target: zip walks its rows, (tasks,) each
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class MultiTaskHeads(nn.Module):
            def __init__(self, dim: int = 32, classes: int = 5, tasks: int = 2) -> None:
                super().__init__()
                self.heads = nn.ModuleList([nn.Linear(dim, classes) for _ in range(tasks)])

            def loss(self, features, targets):
                total = 0.0
                for head, target in zip(self.heads, targets):
                    total = total + F.cross_entropy(head(features), target)
                return total


        model = MultiTaskHeads()
        print(model.loss(torch.randn(8, 32), torch.randint(0, 5, (8, 2))))
        """,
        # the options (`opt: argparse.Namespace`) size the tokens a helper draws; (B, bptt, V) logits left unflattened
        # put the classes at dim 1 ("Expected target size [4, 100], got [4, 35]")
        _OPTIONS_LM % "output, tokens[:, 1:]",
        # a scoring helper hashes the words of an utterance to ids (a (1, 24) batch) and gives the model one dummy
        # slot per utterance: 24 logits rows against 1 target
        _HASHED_PREDICT % "ids.size(0)",
        # a collator object (`collate_fn=TruncatingCollator(16)`, its `__call__` run on a batch of samples) cuts the
        # tokens to 16 but keeps the 24 tags: (16 * 16, 7) flattened logits against 16 * 24 targets ("Expected input
        # batch_size (256) to match target batch_size (384)")
        _COLLATOR % "",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ev = evaluator(self.ctx)
        found = runs.found_here(ev, node, _finding)
        if found is not None:
            self.report(node, found)
        else:  # a loss computed in a called function or forward
            where = runs.found_at_call(ev, node, _finding)
            if where is not None:
                self.report(*where)


def _finding(ev: ShapeEvaluator, node: cst.CSTNode, before: int) -> str | None:
    """What is wrong with a `cross_entropy`/`nll_loss` call, read as of `before`."""
    if type(node) is not cst.Call:
        return None
    loss = loss_call(ev, node, before)
    if loss is None or loss.kind != "class":
        return None
    logits, target = ev.shape_of(loss.input, before), ev.shape_of(loss.target, before)
    if logits is None or target is None or logits.rank is None or target.rank is None or logits.rank < 1:
        return None
    probabilities = loss.function == "cross_entropy"  # nll_loss takes class indices only
    problem = _problem(logits, target, probabilities) if logits.rank > 1 else _unbatched_problem(logits, target)
    if problem is None and not loss.may_ignore:
        problem = _classes_past_end(logits, target)
    if problem is None:
        return None
    names = f"input {quoted(ev.ctx, loss.input)} is {logits.render()}, target " \
            f"{quoted(ev.ctx, loss.target)} is {target.render()}"
    return f"`{loss.function}`: {names}: {problem}"


def _classes_past_end(logits: Shape, target: Shape) -> str | None:
    """Class indices the code draws past the input's classes ("IndexError: Target 10 is out of bounds")."""
    if logits.rank is None or target.rank != logits.rank - 1:
        return None
    classes = logits.dims[1] if logits.rank > 1 else logits.dims[0]
    past = value_bounds.past_end(target, classes)
    return None if past is None else f"class {past}, but the input has {classes} classes (dim {int(logits.rank > 1)})"


def _unbatched_problem(logits: Shape, target: Shape) -> str | None:
    """Why integer labels can't go with a 1-d input: it is one sample's scores, whose class index is a single
    number (a one-logit model's `(N, 1)` output squeezed to `(N,)` is no batch of scores)."""
    if target.rank != 1 or target.dtype != "int":
        return None
    return (f"a 1-d input is one sample's {logits.dims[0]} class scores, whose class-index target is a single "
            f"index; a batch of labels needs (N, C) scores (for one logit per sample, use a binary loss)")


def _problem(logits: Shape, target: Shape, probabilities: bool) -> str | None:
    """Why `target` can't go with `logits`; None when it may. Only `cross_entropy` also takes class probabilities
    of the input's shape: `nll_loss` raises on any target of the input's rank ("multi-target not supported")."""
    rank = logits.rank
    indices = Shape.of(logits.dims[0], *logits.dims[2:])
    if target.rank == rank - 1:
        if rank >= 3 and all(same(t, l) for t, l in zip(target.dims, logits.dims)) \
                and same(logits.dims[1], logits.dims[-1]) is not True:
            flat = f"{logits.dims[-1]}"
            return (f"the class dim is dim 1 ({logits.dims[1]}), so the target must be {indices.render()}; flatten "
                    f"both (`.view(-1, {flat})` and `.view(-1)`) or move the classes with `.transpose(1, -1)`")
        if any(same(t, i) is False for t, i in zip(target.dims, indices.dims)):
            return f"class-index targets must be {indices.render()}"
        if target.dtype == "float":
            return f"float targets are class probabilities, which must be {logits.render()}; class indices must " \
                   f"be integers (`.long()`, not `.float()`)"
        return None
    if target.rank == rank and not probabilities:
        return f"`nll_loss` takes class indices, {indices.render()}, not class probabilities or one-hot rows: " \
               f"pass the labels (`.argmax(dim=1)` of one-hot rows), or use `cross_entropy` on the logits"
    if target.rank == rank:
        if target.dtype == "int" or any(same(t, l) is False for t, l in zip(target.dims, logits.dims)):
            return f"class-index targets must be {indices.render()} (`.squeeze(1)` them), class probabilities " \
                   f"{logits.render()}"
        return None
    return f"targets must be {indices.render()} (class indices) or {logits.render()} (class probabilities)"
