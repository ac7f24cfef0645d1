"""SC207 on detection and embedding projects: a head's output handed to a plotting module through its own
`to_numpy` helper, the rows of a tuple the model returns iterated with `enumerate`, and a submodule of the model
(`model.head(feats)`) run outside `no_grad`."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

MODEL = """
    import torch.nn as nn


    class CenterHead(nn.Module):
        def __init__(self, in_ch, num_classes):
            super().__init__()
            self.hm = nn.Sequential(nn.Conv2d(in_ch, in_ch, 3, padding=1), nn.ReLU(), nn.Conv2d(in_ch, num_classes, 1))
            self.wh = nn.Conv2d(in_ch, 2, 1)

        def forward(self, feats):
            return HEAD_RETURN


    class CenterNet(nn.Module):
        def __init__(self, num_classes=3, width=8):
            super().__init__()
            self.backbone = nn.Sequential(nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU())
            self.pool = nn.MaxPool2d(2)
            self.head = CenterHead(width, num_classes)

        def forward(self, images):
            return self.head(self.backbone(images))
"""

VISUALIZE = """
    IMPORT


    def to_numpy(t):
        return t.cpu().numpy()


    def save_heatmaps(heatmaps, path):
        hm = to_numpy(heatmaps.sigmoid())
        np.save(path, hm.max(axis=0))
        return hm.shape
"""

TRAIN = """
    import argparse

    import torch
    import torch.nn.functional as F

    from model import CenterNet
    from visualize import save_heatmaps


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--steps", type=int, default=3)
        parser.add_argument("--out", default="heatmap")
        args = parser.parse_args()
        model = CenterNet()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        images = torch.randn(2, 3, 32, 32)
        target = torch.rand(2, 3, 16, 16)
        for step in range(args.steps):
            loss = F.binary_cross_entropy_with_logits(model(images)[0], target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
    PREDICT


    if __name__ == "__main__":
        main()
"""

ENUMERATED = """
        heatmaps, sizes = model(images)
        for i, hm in enumerate(heatmaps):
            save_heatmaps(hm, f"{args.out}.{i}.npy")
"""

ENUMERATED_NO_GRAD = """
        with torch.no_grad():
            heatmaps, sizes = model(images)
        for i, hm in enumerate(heatmaps):
            save_heatmaps(hm, f"{args.out}.{i}.npy")
"""

SUBMODULE = """
        feats = model.backbone(images)
        heatmaps, sizes = model.head(feats)
        save_heatmaps(heatmaps[0], args.out)
"""

POOLED = """
        save_heatmaps(model.pool(images)[0], args.out)
"""

BATCHES = """
        for i, image in enumerate(images):
            save_heatmaps(image, f"{args.out}.{i}.npy")
"""


def found(folder: Path, imported: str, predict: str) -> list[tuple[str, int]]:
    return lint_project(folder, {
        "model.py": MODEL.replace("HEAD_RETURN", "self.hm(feats), self.wh(feats)"),
        "visualize.py": VISUALIZE.replace("IMPORT", imported),
        "train.py": TRAIN.replace("    PREDICT\n", predict),
    }, "SC207")


def test_the_rows_of_heatmaps_handed_through_two_plotting_helpers(tmp_path: Path) -> None:
    # a numpy module no torch rule lints: the call of train.py handing it the graph is reported
    assert found(tmp_path, "import numpy as np", ENUMERATED) == [("train.py", 29)]
    # a module importing torch: its `.numpy()`, reached through `save_heatmaps` from train.py's call
    assert found(tmp_path, "import numpy as np\n    import torch", ENUMERATED) == [("visualize.py", 7)]
    assert found(tmp_path, "import numpy as np", ENUMERATED_NO_GRAD) == []
    assert found(tmp_path, "import numpy as np\n    import torch", ENUMERATED_NO_GRAD) == []


def test_the_heatmaps_of_the_model_s_head_run_as_a_submodule(tmp_path: Path) -> None:
    assert found(tmp_path, "import numpy as np", SUBMODULE) == [("train.py", 29)]
    quiet = SUBMODULE.replace("        feats =", "        with torch.no_grad():\n            feats =") \
        .replace("        heatmaps, sizes", "            heatmaps, sizes")
    assert found(tmp_path, "import numpy as np", quiet) == []


def test_data_and_parameter_free_submodules_carry_no_graph(tmp_path: Path) -> None:
    assert found(tmp_path, "import numpy as np", POOLED) == []
    assert found(tmp_path, "import numpy as np", BATCHES) == []
    assert found(tmp_path, "import numpy as np\n    import torch", BATCHES) == []


SEPARATOR = """
    import torch
    import torch.nn as nn


    class MaskNet(nn.Module):
        def __init__(self, n_freq=65, hidden=32, n_src=2):
            super().__init__()
            self.n_src = n_src
            self.rnn = nn.LSTM(n_freq, hidden, batch_first=True, bidirectional=True)
            self.fc = nn.Linear(2 * hidden, n_freq * n_src)

        @classmethod
        def from_checkpoint(cls, path, **kwargs):
            model = cls(**kwargs)
            model.load_state_dict(torch.load(path))
            return model

        def forward(self, mag):
            h, _ = self.rnn(mag)
            masks = torch.sigmoid(self.fc(h))
            b, t, _ = masks.shape
            return masks.view(b, t, self.n_src, -1).permute(0, 2, 1, 3)
"""

NOTEBOOK = """
    # %%
    import numpy as np
    import torch

    from separator import MaskNet

    # %%
    best_model = MaskNet.from_checkpoint("best.pt", n_freq=65)
    best_model.eval()
    mixture = torch.rand(1, 20, 65)
    MASK
    estimate = mask[0, 0] * mixture[0]
    np.save("estimate.npy", estimate.numpy())
"""


def test_the_mask_of_the_best_model_a_class_s_own_factory_loads(tmp_path: Path) -> None:
    def run(mask: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"separator.py": SEPARATOR, "notebook.py": NOTEBOOK.replace("MASK", mask)},
                            "SC207")

    assert run("mask = best_model(mixture)") == [("notebook.py", 14)]
    assert run("with torch.no_grad():\n        mask = best_model(mixture)") == []
    assert run("mask = best_model(mixture).detach()") == []


TAGGER = """
    import torch.nn as nn


    class Tagger(nn.Module):
        def __init__(self, vocab=50, dim=16, n_tags=5):
            super().__init__()
            self.emb = nn.Embedding(vocab, dim)
            self.rnn = nn.GRU(dim, dim, batch_first=True)
            self.out = nn.Linear(dim, n_tags)

        def forward(self, tokens):
            h, _ = self.rnn(self.emb(tokens))
            return self.out(h)
"""

POST_CLASS = """
    import torch


    class Postprocessor:
        def __init__(self, temperature=1.0):
            self.temperature = temperature

        def probabilities(self, logits):
            return torch.softmax(logits / self.temperature, dim=-1)

        def confidences(self, logits):
            return self.probabilities(logits).max(dim=-1).values
"""

POST_FUNCTIONS = """
    import torch


    def probabilities(logits, temperature=1.0):
        return torch.softmax(logits / temperature, dim=-1)


    def confidences(logits, temperature=1.0):
        probs = probabilities(logits, temperature)
        return probs.max(dim=-1).values
"""

PREDICT = """
    import argparse

    import numpy as np
    import torch

    from pkg.model import Tagger
    IMPORT


    def run_model(model, tokens):
        model.eval()
        return model(tokens)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--temperature", type=float, default=1.5)
        args = parser.parse_args()
        model = Tagger()
        tokens = torch.randint(0, 50, (3, 7))
        LOGITS
        conf = CONFIDENCES
        np.savetxt("conf.txt", conf.numpy())
"""

POST_CALLS = [
    ("from pkg.postprocess import Postprocessor", "Postprocessor(args.temperature).confidences(logits)", POST_CLASS),
    ("from pkg import postprocess", "postprocess.confidences(logits, args.temperature)", POST_FUNCTIONS),
    ("from pkg.postprocess import confidences", "confidences(logits, args.temperature)", POST_FUNCTIONS),
]


def test_a_model_output_derived_through_post_processing_helpers_of_a_package(tmp_path: Path) -> None:
    for imported, confidences, module in POST_CALLS:
        def run(logits: str) -> list[tuple[str, int]]:
            return lint_project(tmp_path, {
                "pkg/__init__.py": "", "pkg/model.py": TAGGER, "pkg/postprocess.py": module,
                "predict.py": PREDICT.replace("IMPORT", imported).replace("CONFIDENCES", confidences)
                .replace("LOGITS", logits)}, "SC207")

        assert run("logits = run_model(model, tokens)") == [("predict.py", 24)], imported
        assert run("with torch.no_grad():\n            logits = run_model(model, tokens)") == [], imported
        assert run("logits = run_model(model, tokens).detach()") == [], imported
        # data handed through the same helpers carries no graph
        assert run("logits = torch.randn(3, 7, 5)") == [], imported


FIT = """
    import numpy as np
    import torch
    import torch.nn as nn


    def features(x, degree):
        return torch.stack([x ** k for k in range(degree + 1)], dim=1)


    def predict(X, w):
        return X @ w


    def main(degree=3, steps=50):
        x = torch.linspace(-1, 1, 64)
        y = torch.sin(3 * x)
        weights = WEIGHTS
        optimizer = torch.optim.SGD([weights], lr=0.1)
        X = features(x, degree)
        for step in range(steps):
            loss = ((X @ weights - y) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        FITTED
        np.save("fit.npy", fitted.numpy())
"""

REGRESSOR = """
    import numpy as np
    import torch
    from torch import nn


    class PolyRegressor:
        def __init__(self, degree):
            self.degree = degree
            self.coef = COEF

        def design(self, x):
            return torch.stack([x ** k for k in range(self.degree + 1)], dim=1)

        def predict(self, x):
            return self.design(x) @ self.coef

        def fit(self, x, y, steps=50, lr=0.1):
            opt = torch.optim.SGD([self.coef], lr=lr)
            for _ in range(steps):
                loss = ((self.predict(x) - y) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            return self


    if __name__ == "__main__":
        x = torch.linspace(-1, 1, 64)
        reg = PolyRegressor(3).fit(x, torch.sin(3 * x))
        CURVE
        np.save("curve.npy", curve.numpy())
"""

PARAMETER = "nn.Parameter(torch.zeros(degree + 1))"


def test_a_fitted_curve_computed_from_a_parameter_made_where_it_is_named(tmp_path: Path) -> None:
    def run(weights: str, fitted: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"fit.py": FIT.replace("WEIGHTS", weights).replace("FITTED", fitted)}, "SC207")

    assert run(PARAMETER, "fitted = X @ weights") == [("fit.py", 27)]
    assert run(PARAMETER, "fitted = predict(X, weights)") == [("fit.py", 27)]
    assert run("torch.zeros(degree + 1, requires_grad=True)", "fitted = predict(X, weights)") == [("fit.py", 27)]
    assert run(PARAMETER, "with torch.no_grad():\n            fitted = predict(X, weights)") == []
    assert run(PARAMETER, "with torch.no_grad():\n            fitted = X @ weights") == []
    assert run(PARAMETER, "fitted = (X @ weights).detach()") == []
    # data only: no leaf asks for a gradient
    assert run("torch.zeros(degree + 1)", "fitted = predict(X, weights)") == []
    assert run("nn.Parameter(torch.zeros(degree + 1), requires_grad=False)", "fitted = X @ weights") == []


def test_a_curve_a_plain_regressor_class_predicts_from_its_parameter(tmp_path: Path) -> None:
    def run(coef: str, curve: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"fit.py": REGRESSOR.replace("COEF", coef).replace("CURVE", curve)}, "SC207")

    assert run("nn.Parameter(torch.zeros(degree + 1))", "curve = reg.predict(x)") == [("fit.py", 32)]
    quiet = "with torch.no_grad():\n            curve = reg.predict(x)"
    assert run("nn.Parameter(torch.zeros(degree + 1))", quiet) == []
    assert run("torch.zeros(degree + 1)", "curve = reg.predict(x)") == []
