"""Losses reached through links real training code passes: a Lightning `Trainer.fit(module, loader)` (or a
`datamodule=`) that runs the module's `training_step` on the loader's batches; a model whose `forward` returns a
dataclass of outputs read by field (`outputs.logits`) and labels taken out of the batch with `batch.pop("labels")`;
a focal loss whose exponent is a command-line option (`--gamma`, `type=float`), a number whatever the command line
says; a model whose `forward` a runtime type checker wraps (`@jaxtyped(typechecker=beartype)`), which calls it with
the caller's own arguments; a name a loop that certainly runs binds; a model class a registry filled by a decorator
(`@register_model("gru_lm")`) builds. Each INVALID program fails in torch (the Lightning ones as their plain-loop
twins do, Lightning not being installed here); its VALID twin runs."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint, lint_project


# a sentence classifier (one row of logits per text) trained on per-token tags flattened to B*T, in a
# LightningModule's training_step, the trainer fitting it on a loader built in train.py
LIGHTNING_TAGGER = {
    ".git/HEAD": "",
    "train.py": '''
    import argparse

    import pytorch_lightning as pl
    from torch.utils.data import DataLoader

    from textcls.data import TaggedSentences
    from textcls.model import SentenceClassifier
    from textcls.module import TaggerModule


    def parse_args():
        p = argparse.ArgumentParser()
        p.add_argument("--vocab", type=int, default=100)
        p.add_argument("--tags", type=int, default=5)
        p.add_argument("--seq-len", type=int, default=12)
        p.add_argument("--batch-size", type=int, default=4)
        return p.parse_args()


    def main():
        args = parse_args()
        ds = TaggedSentences(64, args.seq_len, args.vocab, args.tags)
        loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True)
        module = TaggerModule(SentenceClassifier(args.vocab, 16, 32, args.tags))
        trainer = pl.Trainer(max_epochs=1)
        trainer.fit(module, loader)


    if __name__ == "__main__":
        main()
    ''',
    "textcls/__init__.py": "",
    "textcls/data.py": '''
    import torch
    from torch.utils.data import Dataset


    class TaggedSentences(Dataset):
        def __init__(self, n: int, seq_len: int, vocab_size: int, num_tags: int):
            self.tokens = torch.randint(1, vocab_size, (n, seq_len))
            self.tags = torch.randint(0, num_tags, (n, seq_len))

        def __len__(self):
            return self.tokens.size(0)

        def __getitem__(self, idx):
            return self.tokens[idx], self.tags[idx]
    ''',
    "textcls/model.py": '''
    import torch
    import torch.nn as nn


    class SentenceClassifier(nn.Module):
        def __init__(self, vocab_size: int, emb_dim: int, hidden: int, num_classes: int):
            super().__init__()
            self.emb = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
            self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
            self.classifier = nn.Linear(2 * hidden, num_classes)

        def forward(self, tokens):
            out, _ = self.lstm(self.emb(tokens))
            pooled = out.max(dim=1).values
            return self.classifier(pooled)
    ''',
    "textcls/module.py": '''
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F

    from textcls.model import SentenceClassifier


    class TaggerModule(pl.LightningModule):
        def __init__(self, model: SentenceClassifier, lr: float = 1e-3):
            super().__init__()
            self.model = model
            self.lr = lr

        def configure_optimizers(self):
            return torch.optim.Adam(self.model.parameters(), lr=self.lr)

        def training_step(self, batch, batch_idx):
            tokens, tags = batch
            logits = self.model(tokens)
            loss = F.cross_entropy(logits, tags.view(-1))
            self.log("train_loss", loss)
            return loss
    ''',
}

# the same, the loader made by a LightningDataModule handed to `fit(module, datamodule=dm)`
DATAMODULE_TAGGER = {
    **LIGHTNING_TAGGER,
    "textcls/module.py": '''
    import lightning as L
    import torch
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    from textcls.data import TaggedSentences
    from textcls.model import SentenceClassifier


    class TaggerDataModule(L.LightningDataModule):
        def __init__(self, batch_size: int = 4, seq_len: int = 12):
            super().__init__()
            self.batch_size = batch_size
            self.seq_len = seq_len

        def setup(self, stage=None):
            self.train_set = TaggedSentences(64, self.seq_len, 100, 5)

        def train_dataloader(self):
            return DataLoader(TaggedSentences(64, self.seq_len, 100, 5), batch_size=self.batch_size, shuffle=True)


    class TaggerModule(L.LightningModule):
        def __init__(self, model: SentenceClassifier, lr: float = 1e-3):
            super().__init__()
            self.model = model
            self.lr = lr

        def configure_optimizers(self):
            return torch.optim.Adam(self.model.parameters(), lr=self.lr)

        def training_step(self, batch, batch_idx):
            tokens, tags = batch
            logits = self.model(tokens)
            loss = F.cross_entropy(logits, tags.flatten())
            self.log("train_loss", loss, prog_bar=True)
            return loss
    ''',
    "train.py": '''
    import lightning as L

    from textcls.model import SentenceClassifier
    from textcls.module import TaggerDataModule, TaggerModule


    def main():
        dm = TaggerDataModule(batch_size=8)
        module = TaggerModule(SentenceClassifier(100, 16, 32, 5))
        trainer = L.Trainer(max_epochs=1, accelerator="cpu")
        trainer.fit(module, datamodule=dm)


    if __name__ == "__main__":
        main()
    ''',
}

# a token classifier returning a dataclass of outputs; the trainer pops the labels out of the dict batch
OUTPUT_RECORD_TAGGER = {
    ".git/HEAD": "",
    "dataset.py": '''
    import torch
    from torch.utils.data import Dataset


    class NerDataset(Dataset):
        def __init__(self, n_examples: int, max_length: int, vocab_size: int, num_labels: int):
            self.input_ids = torch.randint(1, vocab_size, (n_examples, max_length))
            self.labels = torch.randint(0, num_labels, (n_examples, max_length))

        def __len__(self):
            return len(self.input_ids)

        def __getitem__(self, idx):
            return {
                "input_ids": self.input_ids[idx],
                "attention_mask": torch.ones_like(self.input_ids[idx]),
                "labels": self.labels[idx],
            }
    ''',
    "modeling.py": '''
    from dataclasses import dataclass
    from typing import Optional

    import torch
    import torch.nn as nn


    @dataclass
    class TokenClassifierOutput:
        logits: torch.Tensor
        loss: Optional[torch.Tensor] = None


    class ConvTagger(nn.Module):
        def __init__(self, vocab_size: int = 120, num_labels: int = 7, dim: int = 32):
            super().__init__()
            self.num_labels = num_labels
            self.embeddings = nn.Embedding(vocab_size, dim)
            self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
            self.classifier = nn.Linear(dim, num_labels)

        def forward(self, input_ids, attention_mask=None):
            h = self.embeddings(input_ids).transpose(1, 2)
            h = torch.relu(self.conv(h)).transpose(1, 2)
            return TokenClassifierOutput(logits=self.classifier(h))
    ''',
    "run_ner.py": '''
    from dataset import NerDataset
    from modeling import ConvTagger
    from trainer import TokenTrainer

    if __name__ == "__main__":
        model = ConvTagger(vocab_size=120, num_labels=7)
        train_ds = NerDataset(64, max_length=20, vocab_size=120, num_labels=7)
        trainer = TokenTrainer(model, train_ds, batch_size=8)
        print(trainer.train())
    ''',
    "trainer.py": '''
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader


    class TokenTrainer:
        def __init__(self, model, train_dataset, batch_size=8, lr=5e-4):
            self.model = model
            self.train_dataset = train_dataset
            self.batch_size = batch_size
            self.loss_fct = nn.CrossEntropyLoss()
            self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

        def get_train_dataloader(self):
            return DataLoader(self.train_dataset, batch_size=self.batch_size, shuffle=True)

        def compute_loss(self, model, inputs):
            labels = inputs.pop("labels")
            outputs = model(**inputs)
            return self.loss_fct(outputs.logits, labels)

        def train(self, epochs=1):
            self.model.train()
            for _ in range(epochs):
                for inputs in self.get_train_dataloader():
                    loss = self.compute_loss(self.model, inputs)
                    loss.backward()
                    self.optimizer.step()
                    self.optimizer.zero_grad()
            return loss.item()
    ''',
}

# a focal loss helper of another module left unreduced, its exponent a command-line option
FOCAL_OPTION = {
    ".git/HEAD": "",
    "losses.py": '''
    import torch
    import torch.nn.functional as F


    def focal_loss(logits, targets, gamma=2.0):
        ce = F.cross_entropy(logits, targets, reduction="none")
        pt = torch.exp(-ce)
        return (1 - pt) ** gamma * ce


    def label_smoothed_nll(logits, targets, eps=0.1):
        lprobs = F.log_softmax(logits, dim=-1)
        nll = -lprobs.gather(dim=-1, index=targets.unsqueeze(-1)).squeeze(-1)
        smooth = -lprobs.mean(dim=-1)
        return (1.0 - eps) * nll + eps * smooth
    ''',
    "model.py": '''
    import torch.nn as nn


    class MLP(nn.Module):
        def __init__(self, in_dim=20, hidden=64, n_classes=4):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

        def forward(self, x):
            return self.net(x)
    ''',
    "train.py": '''
    import argparse

    import torch
    from torch.utils.data import DataLoader, TensorDataset

    from losses import focal_loss
    from model import MLP


    def main():
        ap = argparse.ArgumentParser()
        ap.add_argument("--batch-size", type=int, default=16)
        ap.add_argument("--gamma", type=float, default=2.0)
        args = ap.parse_args()
        x = torch.randn(128, 20)
        y = torch.randint(0, 4, (128,))
        loader = DataLoader(TensorDataset(x, y), batch_size=args.batch_size, shuffle=True)
        model = MLP()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for xb, yb in loader:
            loss = focal_loss(model(xb), yb, gamma=args.gamma)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
    ''',
}


def _replaced(files: dict[str, str], name: str, old: str, new: str) -> dict[str, str]:
    assert old in files[name]
    return {**files, name: files[name].replace(old, new)}


def _row(files: dict[str, str], name: str, text: str) -> int:
    lines = files[name].split("\n")
    return next(i for i, line in enumerate(lines, 1) if text in line)  # row 1 is the literal's empty first line


_PER_TOKEN = ("textcls/model.py", "pooled = out.max(dim=1).values\n            return self.classifier(pooled)",
              "return self.classifier(out)")


def test_a_lightning_trainer_runs_the_training_step_on_the_loader(tmp_path: Path) -> None:
    assert lint_project(tmp_path, LIGHTNING_TAGGER, "SC106") == [
        ("train.py", _row(LIGHTNING_TAGGER, "train.py", "trainer.fit(module, loader)"))]
    fixed = _replaced(_replaced(LIGHTNING_TAGGER, *_PER_TOKEN), "textcls/module.py", "F.cross_entropy(logits, tags",
                      "F.cross_entropy(logits.view(-1, logits.size(-1)), tags")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []
    # one label per sentence, as the classifier predicts: clean
    sentences = _replaced(_replaced(LIGHTNING_TAGGER, "textcls/data.py", "(0, num_tags, (n, seq_len))",
                                    "(0, num_tags, (n,))"), "textcls/module.py", "tags.view(-1)", "tags")
    assert lint_project(tmp_path / "sentences", sentences, "SC106") == []
    # `train_dataloaders=` by keyword, with `lightning.pytorch`
    keyword = _replaced(_replaced(LIGHTNING_TAGGER, "train.py", "trainer.fit(module, loader)",
                                  "trainer.fit(model=module, train_dataloaders=loader)"),
                        "train.py", "import pytorch_lightning as pl", "import lightning.pytorch as pl")
    assert lint_project(tmp_path / "keyword", keyword, "SC106") == [
        ("train.py", _row(keyword, "train.py", "trainer.fit(model=module"))]
    # a trainer of another library (no `training_step` run): nothing known, nothing said
    other = _replaced(LIGHTNING_TAGGER, "train.py", "import pytorch_lightning as pl", "import ignite as pl")
    assert lint_project(tmp_path / "other", other, "SC106") == []


def test_a_lightning_datamodule_gives_the_batches(tmp_path: Path) -> None:
    assert lint_project(tmp_path, DATAMODULE_TAGGER, "SC106") == [
        ("train.py", _row(DATAMODULE_TAGGER, "train.py", "trainer.fit(module, datamodule=dm)"))]
    fixed = _replaced(_replaced(DATAMODULE_TAGGER, *_PER_TOKEN), "textcls/module.py",
                      "F.cross_entropy(logits, tags.flatten())",
                      "F.cross_entropy(logits.flatten(0, 1), tags.flatten())")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []


def test_outputs_read_by_field_and_labels_popped_from_the_batch(tmp_path: Path) -> None:
    assert lint_project(tmp_path, OUTPUT_RECORD_TAGGER, "SC106") == [
        ("run_ner.py", _row(OUTPUT_RECORD_TAGGER, "run_ner.py", "print(trainer.train())"))]
    fixed = _replaced(OUTPUT_RECORD_TAGGER, "trainer.py", "self.loss_fct(outputs.logits, labels)",
                      "self.loss_fct(outputs.logits.view(-1, outputs.logits.size(-1)), labels.view(-1))")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []


def test_a_float_option_is_a_number(tmp_path: Path) -> None:
    assert lint_project(tmp_path, FOCAL_OPTION, "SC107") == [
        ("train.py", _row(FOCAL_OPTION, "train.py", "loss.backward()"))]
    fixed = _replaced(FOCAL_OPTION, "losses.py", "return (1 - pt) ** gamma * ce",
                      "return ((1 - pt) ** gamma * ce).mean()")
    assert lint_project(tmp_path / "fixed", fixed, "SC107") == []
    # an option the code gives no number default (`--gamma` without one, or a string) may be anything: nothing said
    unstated = _replaced(FOCAL_OPTION, "train.py", 'type=float, default=2.0', 'type=parse_gamma')
    assert lint_project(tmp_path / "unstated", unstated, "SC107") == []


# a keyword spotter whose jaxtyping-typed `forward` is checked by `@jaxtyped(typechecker=beartype)`, given mels as
# (batch, mels, frames) by a feature helper of another module
TYPECHECKED_FORWARD = {
    ".git/HEAD": "",
    "train.py": '''
    import torch
    import torch.nn.functional as F

    from kws.features import fake_log_mels
    from kws.model import KeywordSpotter


    def train(steps: int = 3, batch_size: int = 8):
        model = KeywordSpotter()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for step in range(steps):
            mels = fake_log_mels(batch_size)
            labels = torch.randint(0, 12, (batch_size,))
            logits = model(mels)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(step, loss.item())


    if __name__ == "__main__":
        train()
    ''',
    "kws/__init__.py": "",
    "kws/features.py": '''
    import torch


    def fake_log_mels(batch_size: int, n_mels: int = 40, n_frames: int = 101) -> torch.Tensor:
        return torch.randn(batch_size, n_mels, n_frames).clamp(min=1e-5).log()
    ''',
    "kws/model.py": '''
    import torch
    import torch.nn as nn
    from beartype import beartype
    from jaxtyping import Float, jaxtyped
    from torch import Tensor


    class KeywordSpotter(nn.Module):
        def __init__(self, n_mels: int = 40, hidden: int = 64, n_keywords: int = 12):
            super().__init__()
            self.gru = nn.GRU(n_mels, hidden, batch_first=True)
            self.out = nn.Linear(hidden, n_keywords)

        @jaxtyped(typechecker=beartype)
        def forward(self, mels: Float[Tensor, "batch frames 40"]) -> Float[Tensor, "batch 12"]:
            _, h = self.gru(mels)
            return self.out(h[-1])
    ''',
}


def test_a_forward_decorated_by_a_type_checker_is_run(tmp_path: Path) -> None:
    row = _row(TYPECHECKED_FORWARD, "train.py", "logits = model(mels)")
    assert lint_project(tmp_path, TYPECHECKED_FORWARD, "SC108") == [("train.py", row)]
    assert lint_project(tmp_path / "all", TYPECHECKED_FORWARD, "SC105") == [("train.py", row)]
    fixed = _replaced(TYPECHECKED_FORWARD, "train.py", "model(mels)", "model(mels.transpose(1, 2))")
    assert lint_project(tmp_path / "fixed", fixed, "SC108") == []
    # a decorator that may hand the forward something else: the call says nothing
    wrapped = _replaced(TYPECHECKED_FORWARD, "kws/model.py", "@jaxtyped(typechecker=beartype)", "@with_flat_inputs")
    assert lint_project(tmp_path / "wrapped", wrapped, "SC108") == []


# per-target validation losses summed over a loader by a helper of another module (`total = losses if total is None
# else total + losses`), then truth-tested by an early-stopping callback
EARLY_STOPPING = {
    ".git/HEAD": "",
    "callbacks.py": '''
    class EarlyStopping:
        def __init__(self, patience=3, min_delta=0.0):
            self.patience = patience
            self.min_delta = min_delta
            self.best = float("inf")
            self.bad_epochs = 0

        def step(self, val_loss):
            if val_loss < self.best - self.min_delta:
                self.best = val_loss
                self.bad_epochs = 0
            else:
                self.bad_epochs += 1
            return self.bad_epochs >= self.patience
    ''',
    "metrics.py": '''
    import torch.nn.functional as F


    def evaluate(model, loader):
        total = None
        for x, y in loader:
            losses = F.mse_loss(model(x), y, reduction="none").mean(dim=0)
            total = losses if total is None else total + losses
        return total / len(loader)
    ''',
    "train.py": '''
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset

    from callbacks import EarlyStopping
    from metrics import evaluate

    x = torch.randn(200, 6)
    y = torch.randn(200, 2)
    train_loader = DataLoader(TensorDataset(x[:160], y[:160]), batch_size=20, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[160:], y[160:]), batch_size=20)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    stopper = EarlyStopping(patience=2)

    for epoch in range(20):
        model.train()
        for xb, yb in train_loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val = evaluate(model, val_loader)
        if stopper.step(val):
            break
    ''',
}


def test_a_name_a_certain_loop_binds_holds_its_passes_value(tmp_path: Path) -> None:
    assert lint_project(tmp_path, EARLY_STOPPING, "SC107") == [
        ("train.py", _row(EARLY_STOPPING, "train.py", "if stopper.step(val):"))]
    fixed = _replaced(EARLY_STOPPING, "metrics.py", 'F.mse_loss(model(x), y, reduction="none").mean(dim=0)',
                      "F.mse_loss(model(x), y)")
    assert lint_project(tmp_path / "fixed", fixed, "SC107") == []


_LAST_SCORES = '''
import torch


def last_scores(steps):
    scores = None
    for _ in range(steps):
        scores = torch.rand(3)
    if scores:
        return scores


last_scores(%s)
'''


def test_a_loop_that_may_not_run_may_leave_none() -> None:
    assert [finding.location.row for finding in lint(_LAST_SCORES % "4", "SC107").findings] == [9]
    assert lint(_LAST_SCORES % "0", "SC107").findings == []
    assert lint(_LAST_SCORES.replace("last_scores(%s)", "last_scores(int(input()))"), "SC107").findings == []


# a language model built by name from a registry a decorator fills (`@register_model("gru_lm")`), its head's loss
# given (B, T, V) scores and (B, T) targets
DECORATOR_REGISTRY = {
    ".git/HEAD": "",
    "train.py": '''
    import argparse

    import torch
    from torch.utils.data import DataLoader, Dataset

    from lmkit.config import LMConfig
    import lmkit.models  # noqa: F401  registers the models
    from lmkit.registry import build_model


    class TokenStream(Dataset):
        def __init__(self, n_tokens: int, seq_len: int, vocab_size: int):
            self.data = torch.randint(0, vocab_size, (n_tokens,))
            self.seq_len = seq_len

        def __len__(self):
            return (len(self.data) - 1) // self.seq_len

        def __getitem__(self, i):
            start = i * self.seq_len
            chunk = self.data[start:start + self.seq_len + 1]
            return chunk[:-1], chunk[1:]


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=1)
        args = parser.parse_args()
        cfg = LMConfig()
        model = build_model("gru_lm", cfg)
        loader = DataLoader(TokenStream(1000, cfg.seq_len, cfg.vocab_size), batch_size=cfg.batch_size, shuffle=True)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        for epoch in range(args.epochs):
            for ids, labels in loader:
                logits = model(ids)
                loss = model.head.loss(logits, labels)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(epoch, loss.item())


    if __name__ == "__main__":
        main()
    ''',
    "lmkit/__init__.py": "",
    "lmkit/config.py": '''
    from dataclasses import dataclass


    @dataclass
    class LMConfig:
        vocab_size: int = 50
        d_model: int = 32
        n_layers: int = 1
        seq_len: int = 16
        batch_size: int = 4
        lr: float = 1e-3
    ''',
    "lmkit/registry.py": '''
    MODELS = {}


    def register_model(name):
        def wrap(cls):
            MODELS[name] = cls
            return cls
        return wrap


    def build_model(name, cfg):
        return MODELS[name](cfg)
    ''',
    "lmkit/models/__init__.py": '''
    from .lm import TinyLM
    ''',
    "lmkit/models/heads.py": '''
    import torch.nn as nn
    import torch.nn.functional as F


    class LMHead(nn.Module):
        def __init__(self, d_model: int, vocab_size: int, ignore_index: int = -100):
            super().__init__()
            self.norm = nn.LayerNorm(d_model)
            self.proj = nn.Linear(d_model, vocab_size)
            self.ignore_index = ignore_index

        def forward(self, hidden):
            return self.proj(self.norm(hidden))

        def loss(self, logits, labels):
            return F.cross_entropy(logits, labels, ignore_index=self.ignore_index)
    ''',
    "lmkit/models/lm.py": '''
    import torch.nn as nn

    from lmkit.config import LMConfig
    from .heads import LMHead
    from lmkit.registry import register_model


    @register_model("gru_lm")
    class TinyLM(nn.Module):
        def __init__(self, cfg: LMConfig):
            super().__init__()
            self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
            self.rnn = nn.GRU(cfg.d_model, cfg.d_model, num_layers=cfg.n_layers, batch_first=True)
            self.head = LMHead(cfg.d_model, cfg.vocab_size)

        def forward(self, ids):
            hidden, _ = self.rnn(self.embed(ids))
            return self.head(hidden)
    ''',
}


def test_a_registry_a_decorator_fills(tmp_path: Path) -> None:
    row = _row(DECORATOR_REGISTRY, "train.py", "loss = model.head.loss(logits, labels)")
    assert lint_project(tmp_path, DECORATOR_REGISTRY, "SC106") == [("train.py", row)]
    fixed = _replaced(DECORATOR_REGISTRY, "lmkit/models/heads.py", "F.cross_entropy(logits, labels,",
                      "F.cross_entropy(logits.transpose(1, 2), labels,")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []
    # the name a command-line option's default: the run with no flags builds that class
    epochs = 'parser.add_argument("--epochs", type=int, default=1)'
    option = _replaced(DECORATOR_REGISTRY, "train.py", epochs,
                       epochs + '\n        parser.add_argument("--model", default="gru_lm")')
    option = _replaced(option, "train.py", 'build_model("gru_lm", cfg)', "build_model(args.model, cfg)")
    assert lint_project(tmp_path / "option", option, "SC106") == [("train.py", row + 1)]
    # two classes registered under the name: which one the run gets is not known
    twice = _replaced(DECORATOR_REGISTRY, "lmkit/models/heads.py", "class LMHead(nn.Module):",
                      '@register_model("gru_lm")\n    class Other(nn.Module):\n        pass\n\n\n'
                      "    class LMHead(nn.Module):")
    twice = _replaced(twice, "lmkit/models/heads.py", "import torch.nn as nn",
                      "import torch.nn as nn\n    from lmkit.registry import register_model")
    assert lint_project(tmp_path / "twice", twice, "SC106") == []
    # a registry the module fills otherwise too: not known what it holds
    filled = _replaced(DECORATOR_REGISTRY, "lmkit/registry.py", "MODELS = {}",
                       "MODELS = {}\n    MODELS.update(EXTRA)")
    assert lint_project(tmp_path / "filled", filled, "SC106") == []
