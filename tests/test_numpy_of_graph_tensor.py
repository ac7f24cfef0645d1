"""SC207 reads what a helper of another project module returns from the model a call hands it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from tests.helpers import project_rows

INFER = """
    import torch

    def predict_proba(model, x):
        logits = model(x)
        return torch.softmax(logits, dim=1)

    @torch.no_grad()
    def predict_labels(model, x):
        return model(x).argmax(1)

    def embed(model, x):
        return model(x).detach()
"""

RUN = """
    import numpy as np
    import torch
    import torch.nn as nn
    from infer import embed, predict_labels, predict_proba

    def main(x):
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
        probs = predict_proba(model, x)
        np.save("probs.npy", probs.numpy())
        np.save("labels.npy", predict_labels(model, x).numpy())
        np.save("features.npy", embed(model, x).numpy())
        with torch.no_grad():
            quiet = predict_proba(model, x)
        np.save("quiet.npy", quiet.numpy())
"""


def test_what_another_module_s_helper_returns_from_the_model_it_is_handed(tmp_path: Path) -> None:
    (tmp_path / "infer.py").write_text(textwrap.dedent(INFER))
    (tmp_path / "run.py").write_text(textwrap.dedent(RUN))
    PROJECT.forget()
    path = tmp_path / "run.py"
    result = lint_text(path.read_text(), str(path), resolve(["SC207"]))
    # the helper under `no_grad`, the one detaching, and the call under `no_grad` are clean
    assert [finding.location.row for finding in result.findings] == [10]


# An autoencoder notebook: the reconstruction is scaled to pixels by a helper of the tensor it is handed.
RECONSTRUCTION = """
    import torch
    import torch.nn as nn
    class AutoEncoder(nn.Module):
        def __init__(self, dim=784, code=16):
            super().__init__()
            self.encoder = nn.Sequential(nn.Linear(dim, 128), nn.ReLU(), nn.Linear(128, code))
            self.decoder = nn.Sequential(nn.Linear(code, 128), nn.ReLU(), nn.Linear(128, dim), nn.Sigmoid())
        def forward(self, x):
            return self.decoder(self.encoder(x))
    def reconstruct(model, images):
        return model(images.view(images.size(0), -1)).view_as(images)
    def to_pixels(batch):
        PIXELS
    model = AutoEncoder()
    samples = torch.rand(8, 1, 28, 28)
    recon = reconstruct(model, samples)
    image = to_pixels(recon).numpy()
"""


def rows(source: str, filename: str = "notebook.py") -> list[int]:
    return [finding.location.row for finding in lint_text(source, filename, resolve(["SC207"])).findings]


def test_what_a_helper_computes_from_the_tensor_it_is_handed_keeps_its_graph() -> None:
    def found(pixels: str) -> list[int]:
        return rows(textwrap.dedent(RECONSTRUCTION).replace("PIXELS", pixels))

    assert found("return (batch[:8, 0] * 255).clamp(0, 255)") == [18]
    assert found("return batch[:8, 0].detach() * 255") == []
    assert found("with torch.no_grad():\n            return batch[:8, 0] * 255") == []
    assert found("return torch.zeros(8, 28, 28)") == []
    assert rows(textwrap.dedent(RECONSTRUCTION).replace("PIXELS", "return batch * 255").replace(
        "recon = reconstruct(model, samples)", "with torch.no_grad():\n    recon = reconstruct(model, samples)")) == []


HEATMAP_TRAINER = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from vis import save_heatmaps
    class Trainer:
        def __init__(self, head, lr=1e-3):
            self.head = head
            self.opt = torch.optim.Adam(head.parameters(), lr=lr)
        def step(self, feats, targets, it):
            heatmaps = self.head(feats)
            loss = F.mse_loss(heatmaps, targets)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if it % 10 == 0:
                save_heatmaps(HEATMAPS, f"hm_{it}.png")
    trainer = Trainer(nn.Conv2d(32, 17, 1))
    for it in range(30):
        trainer.step(torch.randn(2, 32, 16, 16), torch.rand(2, 17, 16, 16), it)
"""

VIS = """
    IMPORT
    import matplotlib.pyplot as plt
    def save_heatmaps(heatmaps, path):
        plt.imshow(heatmaps[0, 0].cpu().numpy())
        plt.savefig(path)
"""


def test_a_trainer_s_head_output_handed_to_a_plotting_helper_of_another_module(tmp_path: Path) -> None:
    train, vis = tmp_path / "train.py", tmp_path / "vis.py"

    def found(imported: str, heatmaps: str) -> list[tuple[str, int]]:
        vis.write_text(textwrap.dedent(VIS).replace("IMPORT", imported))
        train.write_text(textwrap.dedent(HEATMAP_TRAINER).replace("HEATMAPS", heatmaps))
        PROJECT.forget()
        return [(path.name, finding.location.row) for path in (train, vis)
                for finding in lint_text(path.read_text(), str(path), resolve(["SC207"])).findings]

    # a numpy module, which no torch rule lints: the call handing it the output is reported
    assert found("import numpy as np", "heatmaps") == [("train.py", 17)]
    assert found("import torch", "heatmaps") == [("vis.py", 5)]
    assert found("import torch", "heatmaps.detach()") == []
    assert found("import numpy as np", "heatmaps.detach()") == []


# DHCN's hypergraph convolution: the layer outputs of an embedding table the model hands its convolution.
HYPERGRAPH = """
    import numpy as np
    import torch
    import torch.nn as nn
    class HyperConv(nn.Module):
        def __init__(self, layers):
            super().__init__()
            self.layers = layers
        def forward(self, adjacency, embedding):
            item_embeddings = embedding
            final = [item_embeddings]
            for _ in range(self.layers):
                item_embeddings = torch.sparse.mm(adjacency, item_embeddings)
                final.append(item_embeddings)
            return SUMMED / (self.layers + 1)
    class Recommender(nn.Module):
        def __init__(self, adjacency, n_items, dim=16):
            super().__init__()
            self.adjacency = adjacency
            self.embedding = nn.Embedding(n_items, dim)
            self.conv = HyperConv(2)
        def forward(self, items):
            return self.conv(self.adjacency, EMBEDDING)[items]
"""


def test_a_list_of_a_parameter_the_calls_of_a_module_hand_its_forward() -> None:
    def found(summed: str, embedding: str = "self.embedding.weight") -> list[int]:
        return rows(textwrap.dedent(HYPERGRAPH).replace("SUMMED", summed).replace("EMBEDDING", embedding), "model.py")

    assert found("np.sum(final, 0)") == [15]
    assert found("torch.stack(final).sum(0)") == []
    assert found("np.sum(final, 0)", "self.embedding.weight.detach()") == []


# An evaluator whose method returns the list of its model's outputs, averaged by another method with numpy.
SCORES = """
    import numpy as np
    import torch
    import torch.nn as nn
    class Evaluator:
        def __init__(self, model):
            self.model = model
        def scores(self, batches):
            out = []
            for b in batches:
                out.append(SCORE)
            return out
        def mean_score(self, batches):
            return np.mean(MEANS)
    ev = Evaluator(nn.Linear(16, 1))
    print(ev.mean_score([torch.randn(4, 16) for _ in range(3)]))
"""


def test_the_tensors_of_a_list_a_method_returns() -> None:
    def found(score: str, means: str = "[s.mean() for s in self.scores(batches)]") -> list[int]:
        return rows(textwrap.dedent(SCORES).replace("SCORE", score).replace("MEANS", means), "evaluate.py")

    assert found("self.model(b)") == [14]
    assert found("self.model(b)", "self.scores(batches)") == [14]
    assert found("self.model(b).detach()") == []
    assert found("self.model(b)", "[s.mean().item() for s in self.scores(batches)]") == []
    assert found("torch.randn(4, 1)") == []


# A validation loss summed over the batches with `+=`.
SUMMED_LOSS = """
    import torch
    import torch.nn as nn
    model = nn.Linear(8, 1)
    criterion = nn.MSELoss()
    batches = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(3)]
    val_loss = 0
    for x, y in batches:
        val_loss += TERM
    print(val_loss.numpy())
"""


def test_a_loss_summed_with_an_augmented_assignment() -> None:
    assert rows(textwrap.dedent(SUMMED_LOSS).replace("TERM", "criterion(model(x), y)")) == [10]
    assert rows(textwrap.dedent(SUMMED_LOSS).replace("TERM", "criterion(model(x), y).detach()")) == []
    assert rows(textwrap.dedent(SUMMED_LOSS).replace("TERM", "criterion(model(x), y).item()")) == []


# A runner whose model comes from a package's registry (`MODELS[cfg["name"]](...)`, re-exported by the package's
# `__init__`), its forecast denormalized by a helper of another module, then saved with numpy.
REGISTRY = """
    from .mlp import MLPRegressor

    MODELS = ENTRIES

    def build_model(cfg):
        return MODELS[cfg["name"]](cfg["in_dim"], cfg["hidden"])
"""

MLP = """
    import torch.nn as nn

    class Block(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.fc = nn.Linear(dim, dim)

        def forward(self, x):
            return x + self.fc(x).relu()

    class MLPRegressor(nn.Module):
        def __init__(self, in_dim, hidden):
            super().__init__()
            self.inp = nn.Linear(in_dim, hidden)
            self.blocks = nn.Sequential(Block(hidden), Block(hidden))
            self.out = nn.Linear(hidden, 1)

        def forward(self, x):
            return self.out(self.blocks(self.inp(x))).squeeze(-1)

    class MeanBaseline(nn.Module):
        def __init__(self, in_dim, hidden):
            super().__init__()

        def forward(self, x):
            return x.mean(-1)
"""

RUNNER = """
    import numpy as np
    import torch
    from pkg import build_model, denormalize

    class Runner:
        def __init__(self, cfg):
            self.model = build_model(cfg)
            self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])

        def forecast(self, x):
            self.model.eval()
            return self.model(x)

    runner = Runner({"name": "mlp", "in_dim": 8, "hidden": 32, "lr": 1e-3})
    values = denormalize(runner.forecast(torch.randn(10, 8)), 3.0, 2.0)
    np.savetxt("forecast.csv", VALUES)
"""


def test_a_model_a_package_s_registry_builds(tmp_path: Path) -> None:
    def found(entries: str = '{"mlp": MLPRegressor}', values: str = "values.numpy()") -> list[int]:
        return project_rows(tmp_path, "train.py", {
            "pkg/__init__.py": "from .models import build_model\nfrom .post import denormalize\n",
            "pkg/models/__init__.py": REGISTRY.replace("ENTRIES", entries), "pkg/models/mlp.py": MLP,
            "pkg/post.py": "def denormalize(pred, mean, std):\n    return pred * std + mean\n",
            "train.py": RUNNER.replace("VALUES", values)}, "SC207")

    assert found() == [17]
    assert found(values="values.detach().numpy()") == []
    # which of two classes the key picks is not known: one has no weights, so its output may need no detach
    assert found('{"mlp": MLPRegressor, "mean": MeanBaseline}') == []


# A polynomial fit: the model comes back from the training helper it is handed, and the curve is drawn from its
# features and its `nn.Parameter` of coefficients outside `no_grad`.
POLY_FIT = """
    import numpy as np
    import torch
    import torch.nn as nn

    class PolyRegression(nn.Module):
        def __init__(self, degree):
            super().__init__()
            self.degree = degree
            self.coeffs = nn.Parameter(torch.zeros(degree + 1))

        def features(self, x):
            return torch.stack([x ** i for i in range(self.degree + 1)], dim=1)

        def forward(self, x):
            return self.features(x) @ self.coeffs

    def fit(model, x, y, steps=200):
        opt = torch.optim.Adam(model.parameters(), lr=0.05)
        for _ in range(steps):
            opt.zero_grad()
            ((model(x) - y) ** 2).mean().backward()
            opt.step()
        return model

    x = torch.linspace(-1, 1, 50)
    model = fit(PolyRegression(3), x, 3 * x ** 3 - x)
    curve = CURVE
    np.save("curve.npy", curve.numpy())
"""


def test_a_curve_from_the_parameter_of_a_model_a_training_helper_hands_back() -> None:
    def found(curve: str) -> list[int]:
        return rows(textwrap.dedent(POLY_FIT).replace("CURVE", curve), "fit.py")

    assert found("model.features(x) @ model.coeffs") == [29]
    assert found("model.features(x) @ model.coeffs.detach()") == []
    assert found("model.features(x).sum(1)") == []  # the features alone need no parameter


# A federated server of one module averaging the losses its clients' evaluation (another module) returns in a tuple,
# the clients a list of one class every construction of the server hands it.
CLIENT = """
    import copy
    import torch.nn.functional as F

    class Client:
        def __init__(self, cid, loader, model):
            self.cid = cid
            self.loader = loader
            self.local_model = copy.deepcopy(model)

        def evaluate(self):
            self.local_model.eval()
            total, count = 0.0, 0
            for xb, yb in self.loader:
                total = total + F.cross_entropy(self.local_model(xb), yb, reduction="sum")
                count += len(yb)
            return count, TOTAL
"""

SERVER = """
    import numpy as np
    import torch

    class Server:
        def __init__(self, global_model, clients):
            self.global_model = global_model
            self.clients = clients

        def collect(self):
            counts, losses = [], []
            for i, client in enumerate(self.clients):
                n, loss = client.evaluate()
                counts.append(n)
                losses.append(loss)
            return counts, losses

        def round_loss(self):
            counts, losses = self.collect()
            return np.sum([loss / n for n, loss in zip(counts, losses)])
"""

FEDERATED = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset
    from fl.client import Client
    from fl.server import Server

    def loaders(n):
        return [DataLoader(TensorDataset(torch.randn(32, 10), torch.randint(0, 4, (32,))), batch_size=8)
                for _ in range(n)]

    def main():
        model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
        clients = [Client(i, loader, model) for i, loader in enumerate(loaders(5))]
        print(Server(model, clients).round_loss())
"""


def test_the_losses_a_list_of_clients_returns_averaged_by_their_server(tmp_path: Path) -> None:
    def found(total: str = "total", clients: str = "clients") -> list[int]:
        return project_rows(tmp_path, "fl/server.py", {
            "fl/__init__.py": "", "fl/client.py": CLIENT.replace("TOTAL", total), "fl/server.py": SERVER,
            "main.py": FEDERATED.replace("Server(model, clients)", f"Server(model, {clients})")}, "SC207")

    assert found() == [20]
    assert found(total="total.item()") == []
    assert found(total="total.detach()") == []
    # a list of objects of two classes, or of unknown objects: which `evaluate` runs is not known
    assert found(clients="clients + [object()]") == []
    assert found(clients="list(range(3))") == []


# An ensemble's members, each predicting with a network of its own, their probabilities averaged by numpy.
ENSEMBLE = """
    import numpy as np
    import torch.nn as nn

    class Member:
        def __init__(self, in_dim, out_dim):
            self.net = nn.Sequential(nn.Linear(in_dim, 16), nn.Tanh(), nn.Linear(16, out_dim))

        def predict(self, x):
            return PREDICTION

    class Ensemble:
        def __init__(self, members):
            self.members = members

        def predict(self, x):
            probs = []
            for member in self.members:
                probs.append(member.predict(x))
            return probs

        def mean_probs(self, x):
            probs = self.predict(x)
            return np.mean(probs, axis=0)
"""


def test_the_predictions_of_an_ensemble_s_members(tmp_path: Path) -> None:
    def found(prediction: str) -> list[int]:
        return project_rows(tmp_path, "ensemble.py", {
            "ensemble.py": ENSEMBLE.replace("PREDICTION", prediction),
            "main.py": "import torch\nfrom ensemble import Ensemble, Member\n"
                       "ens = Ensemble([Member(8, 3) for _ in range(4)])\nprint(ens.mean_probs(torch.randn(5, 8)))\n"},
            "SC207")

    assert found("self.net(x).softmax(-1)") == [24]
    assert found("self.net(x).softmax(-1).detach()") == []


# A detector's heatmaps, a dict entry of its output, handed to a plotting helper that takes their maximum over the
# classes under `no_grad` (which does not take the graph off what it was handed).
HEATMAPS = """
    import matplotlib.pyplot as plt
    import torch
    import torch.nn as nn

    class Detector(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = nn.Conv2d(3, 32, 3, stride=4, padding=1)
            self.hm = nn.Conv2d(32, 3, 1)

        def forward(self, img):
            return {"hm": self.hm(self.backbone(img)).sigmoid()}

    def save_heatmaps(heatmaps, path):
        with torch.no_grad():
            hm = PICKED.cpu().numpy()
        plt.imsave(path, hm)

    def train(model, loader, opt):
        for step, (img, target) in enumerate(loader):
            out = model(img)
            loss = nn.functional.binary_cross_entropy(out["hm"], target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 100 == 0:
                save_heatmaps(out["hm"], f"hm_{step}.png")

    def main(loader):
        model = Detector()
        train(model, loader, torch.optim.Adam(model.parameters()))
"""


def test_the_maximum_of_heatmaps_a_plotting_helper_is_handed() -> None:
    def found(picked: str) -> list[int]:
        return rows(textwrap.dedent(HEATMAPS).replace("PICKED", picked), "det.py")

    assert found("heatmaps[0].max(0)[0]") == [17]
    assert found("heatmaps[0].max(0).values") == [17]
    assert found("heatmaps[0].max(0)[1]") == []  # the indices: integers, out of the graph
    assert found("heatmaps[0].max(0).indices") == []


# A confidence computed by post-processing helpers of utils/ from the model's logits, converted outside no_grad.
POST = """
    import torch

    def decode(logits, temperature=1.0):
        return torch.softmax(logits / temperature, dim=-1)

    def top_prob(probs):
        return probs.max(dim=-1).PART
"""

PREDICT = """
    import numpy as np
    import torch
    import torch.nn as nn
    from utils.post import decode, top_prob

    def confidence(model, tokens, offsets):
        logits = model(tokens, offsets)
        return top_prob(decode(logits, temperature=2.0))

    def main():
        model = nn.Sequential(nn.Linear(16, 4))
        model.eval()
        conf = confidence(model, torch.randn(4, 16), None)
        print(np.round(conf.numpy(), 3))
"""


def test_a_confidence_derived_through_post_processing_helpers(tmp_path: Path) -> None:
    def found(part: str) -> list[int]:
        return project_rows(tmp_path, "predict.py", {"utils/__init__.py": "", "utils/post.py": POST.replace(
            "PART", part), "predict.py": PREDICT}, "SC207")

    assert found("values") == [15]
    assert found("indices") == []


# A notebook keeping a deep copy of its best model (None until the first improvement), then running it on a mixture
# and converting the mask estimate.
BEST_MODEL = """
    import copy
    import numpy as np
    import torch
    import torch.nn as nn

    class MaskNet(nn.Module):
        def __init__(self, n_freq=257, hidden=128):
            super().__init__()
            self.rnn = nn.LSTM(n_freq, hidden, batch_first=True)
            self.out = nn.Linear(hidden, n_freq)

        def forward(self, spec):
            h, _ = self.rnn(spec)
            return torch.sigmoid(self.out(h))

    model = MaskNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best_loss, best_model = float("inf"), None
    for epoch in range(10):
        mixture, target = torch.rand(4, 100, 257), torch.rand(4, 100, 257)
        loss = ((model(mixture) * mixture - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if loss.item() < best_loss:
            best_loss, best_model = loss.item(), copy.deepcopy(model)

    mixture = torch.rand(1, 100, 257)
    ESTIMATE
    np.save("mask.npy", mask_est[0].numpy())
"""


def test_the_mask_a_deep_copy_of_the_best_model_estimates() -> None:
    def found(estimate: str) -> list[int]:
        return rows(textwrap.dedent(BEST_MODEL).replace("ESTIMATE", estimate))

    assert found("mask_est = best_model(mixture)") == [31]
    assert found("mask_est = best_model(mixture).detach()") == []
    assert found("with torch.no_grad():\n    mask_est = best_model(mixture)") == []
