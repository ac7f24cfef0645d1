"""Sequence losses reached through spellings real projects use: a `collate_fn` that pads every field of the samples
with one dict comprehension (`{key: pad_sequence(...) for key in batch[0]}`), the batch moved with
`{k: v.to(device) for k, v in batch.items()}` and handed over as `model(**batch)`; a character corpus encoded with
`encode = lambda s: [stoi[c] for c in s]`; a loss held as a lambda; losses of pairs and triplets of embeddings
(`nn.CosineEmbeddingLoss`, `F.triplet_margin_loss`) left unreduced. Each INVALID program raises in torch; its VALID
twin runs."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project
from tests.shapes.probe import probe

# a masked-LM-style model whose `forward` computes the loss from a prediction head, on a batch of variable-length
# character sequences padded by a dict comprehension, moved to the device by another, passed as keywords
PADDED_FIELDS = {
    ".git/HEAD": "",
    "seqlab/__init__.py": "",
    "seqlab/modeling.py": '''
    import torch.nn as nn
    import torch.nn.functional as F


    class PredictionHead(nn.Module):
        def __init__(self, hidden_size, vocab_size):
            super().__init__()
            self.transform = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU(), nn.LayerNorm(hidden_size))
            self.decoder = nn.Linear(hidden_size, vocab_size)

        def forward(self, hidden_states):
            return self.decoder(self.transform(hidden_states))


    class CharLanguageModel(nn.Module):
        def __init__(self, vocab_size, hidden_size=32, pad_id=0):
            super().__init__()
            self.pad_id = pad_id
            self.embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=pad_id)
            self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
            self.cls = PredictionHead(hidden_size, vocab_size)

        def forward(self, input_ids, labels=None):
            hidden, _ = self.rnn(self.embeddings(input_ids))
            prediction_scores = self.cls(hidden)
            loss = None
            if labels is not None:
                loss = F.cross_entropy(prediction_scores, labels, ignore_index=self.pad_id)
            return {"loss": loss, "logits": prediction_scores}
    ''',
    "seqlab/data.py": '''
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import Dataset


    class CharCorpus(Dataset):
        def __init__(self, texts, vocab):
            self.samples = [torch.tensor([vocab[c] for c in t]) for t in texts]

        def __len__(self):
            return len(self.samples)

        def __getitem__(self, i):
            ids = self.samples[i]
            return {"input_ids": ids[:-1], "labels": ids[1:]}


    def collate(batch):
        return {
            key: pad_sequence([item[key] for item in batch], batch_first=True, padding_value=0)
            for key in batch[0]
        }
    ''',
    "train.py": '''
    import torch
    from torch.utils.data import DataLoader

    from seqlab.data import CharCorpus, collate
    from seqlab.modeling import CharLanguageModel

    TEXTS = ["hello world", "shape bugs", "cross entropy", "tiny corpus here"]


    def main():
        chars = sorted(set("".join(TEXTS)))
        vocab = {c: i + 1 for i, c in enumerate(chars)}
        loader = DataLoader(CharCorpus(TEXTS, vocab), batch_size=2, collate_fn=collate)
        model = CharLanguageModel(len(vocab) + 1)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        device = torch.device("cpu")
        model.to(device)
        for epoch in range(2):
            for batch in loader:
                batch = {k: v.to(device) for k, v in batch.items()}
                outputs = model(**batch)
                loss = outputs["loss"]
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(epoch, loss.item())


    if __name__ == "__main__":
        main()
    ''',
}

# nanoGPT's character-level data: the text encoded by a lambda, windows drawn at random; the model computes the loss
# when given targets
CHAR_WINDOWS = {
    ".git/HEAD": "",
    "model.py": '''
    import torch.nn as nn
    from torch.nn import functional as F


    class BigramHead(nn.Module):
        def __init__(self, n_embd, vocab_size):
            super().__init__()
            self.ln = nn.LayerNorm(n_embd)
            self.proj = nn.Linear(n_embd, vocab_size)

        def forward(self, x):
            return self.proj(self.ln(x))


    class TinyGPT(nn.Module):
        def __init__(self, vocab_size, block_size, n_embd=32):
            super().__init__()
            self.tok = nn.Embedding(vocab_size, n_embd)
            self.pos = nn.Embedding(block_size, n_embd)
            self.head = BigramHead(n_embd, vocab_size)

        def forward(self, idx, targets=None):
            B, T = idx.shape
            x = self.tok(idx) + self.pos.weight[:T]
            logits = self.head(x)
            if targets is None:
                return logits, None
            loss = F.cross_entropy(logits, targets)
            return logits, loss
    ''',
    "train.py": '''
    import torch

    from model import TinyGPT

    text = "first citizen: before we proceed any further, hear me speak. all: speak, speak."
    chars = sorted(list(set(text)))
    stoi = {ch: i for i, ch in enumerate(chars)}
    encode = lambda s: [stoi[c] for c in s]  # noqa: E731
    data = torch.tensor(encode(text), dtype=torch.long)
    block_size, batch_size = 8, 4


    def get_batch():
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([data[i:i + block_size] for i in ix])
        y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
        return x, y


    model = TinyGPT(len(chars), block_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for it in range(3):
        xb, yb = get_batch()
        logits, loss = model(xb, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    ''',
}

# a trainer whose loss is a lambda over a tagger's (B, T, tags) scores; and a per-sample loss lambda whose `.item()`
# is logged
LAMBDA_LOSS = {
    ".git/HEAD": "",
    "tagger.py": '''
    import torch.nn as nn


    class Tagger(nn.Module):
        def __init__(self, vocab=50, dim=16, tags=5):
            super().__init__()
            self.emb = nn.Embedding(vocab, dim)
            self.rnn = nn.LSTM(dim, dim, batch_first=True)
            self.out = nn.Linear(dim, tags)

        def forward(self, ids):
            h, _ = self.rnn(self.emb(ids))
            return self.out(h)
    ''',
    "train.py": '''
    import torch
    import torch.nn.functional as F

    from tagger import Tagger


    class Trainer:
        def __init__(self, model):
            self.model = model
            self.loss_fn = lambda scores, tags: F.cross_entropy(scores, tags)
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def step(self, ids, tags):
            loss = self.loss_fn(self.model(ids), tags)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            return loss.item()


    ids = torch.randint(0, 50, (4, 9))
    tags = torch.randint(0, 5, (4, 9))
    print(Trainer(Tagger()).step(ids, tags))
    ''',
}


def _row(files: dict[str, str], name: str, line: str) -> int:
    """The row of `line` in the project file `name`, as written (its text starts with a newline)."""
    return [row for row, text in enumerate(files[name].splitlines(), 1) if text.strip() == line][0]


def _replaced(files: dict[str, str], name: str, old: str, new: str) -> dict[str, str]:
    assert old in files[name]
    return {**files, name: files[name].replace(old, new)}


def test_fields_padded_by_a_dict_comprehension_and_passed_as_keywords(tmp_path: Path) -> None:
    assert lint_project(tmp_path, PADDED_FIELDS, "SC106") == [
        ("train.py", _row(PADDED_FIELDS, "train.py", "outputs = model(**batch)"))]
    fixed = _replaced(PADDED_FIELDS, "seqlab/modeling.py", "F.cross_entropy(prediction_scores, labels,",
                      "F.cross_entropy(prediction_scores.view(-1, prediction_scores.size(-1)), labels.view(-1),")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []
    moved = _replaced(PADDED_FIELDS, "seqlab/modeling.py", "F.cross_entropy(prediction_scores, labels,",
                      "F.cross_entropy(prediction_scores.transpose(1, 2), labels,")
    assert lint_project(tmp_path / "moved", moved, "SC106") == []


def test_a_collate_pads_each_field_to_its_own_longest() -> None:
    """One `pad_sequence` call of a comprehension over the fields pads each to the longest of its own sequences:
    inputs and labels cut from the same sample are one length, sources and targets drawn apart are not."""
    assert probe('''
        import torch
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader, Dataset

        class Pairs(Dataset):
            def __init__(self, n):
                self.src = [torch.randint(0, 9, (int(torch.randint(3, 9, ())),)) for _ in range(n)]
                self.tgt = [torch.randint(0, 9, (int(torch.randint(3, 9, ())),)) for _ in range(n)]

            def __len__(self):
                return len(self.src)

            def __getitem__(self, i):
                return {"src": self.src[i], "tgt": self.tgt[i], "inp": self.tgt[i][:-1], "out": self.tgt[i][1:]}

        def collate(batch):
            return {key: pad_sequence([item[key] for item in batch], batch_first=True) for key in batch[0]}

        for batch in DataLoader(Pairs(6), batch_size=2, collate_fn=collate):
            moved = {k: v.to("cpu") for k, v in batch.items()}
            probe(moved["src"])
            probe(torch.stack([batch["inp"], moved["out"]]))
            probe_dim(batch["inp"].size(1) - moved["out"].size(1))
            probe_dim(batch["src"].size(1) - batch["tgt"].size(1))
    ''') == ["(2, longest)", "(2, 2, longest)", "0", "longest - longest"]


def test_a_corpus_encoded_by_a_lambda(tmp_path: Path) -> None:
    assert lint_project(tmp_path, CHAR_WINDOWS, "SC106") == [
        ("train.py", _row(CHAR_WINDOWS, "train.py", "logits, loss = model(xb, yb)"))]
    fixed = _replaced(CHAR_WINDOWS, "model.py", "loss = F.cross_entropy(logits, targets)",
                      "loss = F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []


def test_a_loss_held_as_a_lambda(tmp_path: Path) -> None:
    assert lint_project(tmp_path, LAMBDA_LOSS, "SC106") == [
        ("train.py", _row(LAMBDA_LOSS, "train.py", "self.loss_fn = lambda scores, tags: F.cross_entropy(scores, tags)"))]
    fixed = _replaced(LAMBDA_LOSS, "train.py", "F.cross_entropy(scores, tags)",
                      "F.cross_entropy(scores.flatten(0, 1), tags.flatten())")
    assert lint_project(tmp_path / "fixed", fixed, "SC106") == []
    # per-token losses: `.item()` of them raises, their mean's does not
    unreduced = _replaced(fixed, "train.py", "tags.flatten())", 'tags.flatten(), reduction="none")')
    assert lint_project(tmp_path / "unreduced", unreduced, "SC107") == [
        ("train.py", _row(LAMBDA_LOSS, "train.py", "loss.backward()"))]
    averaged = _replaced(unreduced, "train.py", "loss = self.loss_fn(self.model(ids), tags)",
                         "loss = self.loss_fn(self.model(ids), tags).mean()")
    assert lint_project(tmp_path / "averaged", averaged, "SC107") == []


# a siamese model of a package module returns its per-pair cosine embedding losses; a trainer of another module
# moves the batch with a list comprehension, spreads it into the model and backpropagates them; the script logs
# per-triplet losses through an average meter
SIAMESE_PAIRS = {
    ".git/HEAD": "",
    "siamese/__init__.py": "",
    "siamese/net.py": '''
    import torch.nn as nn


    class Encoder(nn.Module):
        def __init__(self, in_dim, emb_dim):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, emb_dim))

        def forward(self, x):
            return self.body(x)


    class SiameseNet(nn.Module):
        def __init__(self, in_dim=20, emb_dim=8, margin=0.2):
            super().__init__()
            self.encoder = Encoder(in_dim, emb_dim)
            self.criterion = nn.CosineEmbeddingLoss(margin=margin, reduction="none")

        def forward(self, left, right, target):
            e1, e2 = self.encoder(left), self.encoder(right)
            return {"loss": self.criterion(e1, e2, target), "emb": (e1, e2)}
    ''',
    "trainer.py": '''
    import torch


    class PairTrainer:
        def __init__(self, model, lr=1e-3, device="cpu"):
            self.model = model.to(device)
            self.device = device
            self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
            self.history = []

        def train_epoch(self, loader):
            self.model.train()
            for batch in loader:
                batch = [t.to(self.device) for t in batch]
                out = self.model(*batch)
                self.optimizer.zero_grad()
                out["loss"].backward()
                self.optimizer.step()
                self.history.append(out["loss"].detach())
    ''',
    "train.py": '''
    import torch
    import torch.nn.functional as F
    from torch.utils.data import DataLoader, TensorDataset

    from siamese.net import SiameseNet
    from trainer import PairTrainer


    class AverageMeter:
        def __init__(self):
            self.sum, self.count = 0.0, 0

        def update(self, value, n=1):
            self.sum += value * n
            self.count += n


    def make_pairs(n, dim):
        left = torch.randn(n, dim)
        right = torch.randn(n, dim)
        target = torch.randint(0, 2, (n,)) * 2 - 1
        return TensorDataset(left, right, target.float())


    def triplet_check(model, n=8, dim=20):
        meter = AverageMeter()
        anchor, pos, neg = (model.encoder(torch.randn(n, dim)) for _ in range(3))
        losses = F.triplet_margin_loss(anchor, pos, neg, margin=0.5, reduction="none")
        meter.update(losses.item(), n)
        return meter


    if __name__ == "__main__":
        model = SiameseNet(in_dim=20)
        trainer = PairTrainer(model)
        trainer.train_epoch(DataLoader(make_pairs(64, 20), batch_size=8, shuffle=True))
        triplet_check(model)
    ''',
}


def test_unreduced_losses_of_pairs_and_triplets(tmp_path: Path) -> None:
    assert lint_project(tmp_path, SIAMESE_PAIRS, "SC107") == [
        ("train.py", _row(SIAMESE_PAIRS, "train.py", "meter.update(losses.item(), n)")),
        ("train.py", _row(SIAMESE_PAIRS, "train.py",
                          "trainer.train_epoch(DataLoader(make_pairs(64, 20), batch_size=8, shuffle=True))"))]
    fixed = _replaced(SIAMESE_PAIRS, "siamese/net.py", 'reduction="none")', 'reduction="mean")')
    fixed = _replaced(fixed, "train.py", "meter.update(losses.item(), n)", "meter.update(losses.mean().item(), n)")
    assert lint_project(tmp_path / "fixed", fixed, "SC107") == []
    # the default reduction: one value for the batch
    default = _replaced(SIAMESE_PAIRS, "siamese/net.py", ', reduction="none")', ")")
    default = _replaced(default, "train.py", ', reduction="none")', ")")
    assert lint_project(tmp_path / "default", default, "SC107") == []


# a weighted sum of loss terms a helper of another module returns, one of them left per sample
WEIGHTED_TERMS = {
    ".git/HEAD": "",
    "objectives.py": '''
    import torch.nn.functional as F


    def loss_terms(logits, labels, features):
        return {
            "ce": F.cross_entropy(logits, labels, reduction="none"),
            "l2": features.pow(2).mean(),
        }


    def total_loss(logits, labels, features, weights):
        terms = loss_terms(logits, labels, features)
        return sum(weights[name] * value for name, value in terms.items())
    ''',
    "train.py": '''
    import torch
    import torch.nn as nn

    from objectives import total_loss

    WEIGHTS = {"ce": 1.0, "l2": 1e-3}
    encoder = nn.Sequential(nn.Linear(12, 32), nn.ReLU())
    head = nn.Linear(32, 3)
    params = list(encoder.parameters()) + list(head.parameters())
    opt = torch.optim.SGD(params, lr=0.1)
    for _ in range(2):
        x, y = torch.randn(16, 12), torch.randint(0, 3, (16,))
        feats = encoder(x)
        loss = total_loss(head(feats), y, feats, WEIGHTS)
        opt.zero_grad()
        loss.backward()
        opt.step()
    ''',
}


def test_a_weighted_sum_of_loss_terms(tmp_path: Path) -> None:
    assert lint_project(tmp_path, WEIGHTED_TERMS, "SC107") == [
        ("train.py", _row(WEIGHTED_TERMS, "train.py", "loss.backward()"))]
    fixed = _replaced(WEIGHTED_TERMS, "objectives.py", 'reduction="none"),', 'reduction="none").mean(),')
    assert lint_project(tmp_path / "fixed", fixed, "SC107") == []


def test_a_sum_of_tensors() -> None:
    """`sum(...)` of tensors is their broadcast; of anything else, or from a start that is no number, unknown."""
    assert probe('''
        import torch
        a, b = torch.randn(4), torch.randn(())
        probe(sum([a, b]))
        probe(sum(t * 2 for t in (b, a, b)))
        probe(sum([b, b], 0.0))
        probe(sum([a, 1.0]))
        probe(sum([a, b], a))
    ''') == ["(4,)", "(4,)", "()", None, None]
