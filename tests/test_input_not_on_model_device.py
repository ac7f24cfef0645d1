"""SC211 reads a method that moves its model in place and loops over the loader its calls hand it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from tests.helpers import project_rows, rows_in

WRAPPER = """
    import torch
    from torch.utils.data import DataLoader, TensorDataset
    class Wrapper:
        def __init__(self, model, device="cuda"):
            self.model, self.device = model, device
        def fit(self, loader):
            self.model.to(self.device)
            for x, y in loader:
                self.model(x)
"""


def rows(caller: str) -> list[int]:
    source = textwrap.dedent(WRAPPER) + textwrap.dedent(caller)
    return [finding.location.row for finding in lint_text(source, "fit.py", resolve(["SC211"])).findings]


def test_every_call_hands_the_method_a_cpu_loader() -> None:
    assert rows("""
        x = torch.randn(64, 5)
        y = -(x @ torch.randn(5, 1)) + 1
        Wrapper(torch.nn.Linear(5, 1)).fit(DataLoader(TensorDataset(x, y)))
    """) == [10]  # built in the call, read there
    assert rows("""
        x = torch.randn(64, 5)
        y = -(x @ torch.randn(5, 1)) + 1
        loader = DataLoader(TensorDataset(x, y))
        Wrapper(torch.nn.Linear(5, 1)).fit(loader)
    """) == [10]


def test_a_loader_of_unknown_tensors_or_another_call_with_an_unknown_loader_is_clean() -> None:
    assert rows("""
        loader = DataLoader(TensorDataset(features, torch.randn(64, 1)))
        Wrapper(torch.nn.Linear(5, 1)).fit(loader)
    """) == []
    assert rows("""
        wrapper = Wrapper(torch.nn.Linear(5, 1))
        wrapper.fit(DataLoader(TensorDataset(torch.randn(64, 5), torch.randn(64, 1))))
        wrapper.fit(make_loader())
    """) == []


PREDICTOR = """
    import numpy as np
    import torch
    import torch.nn as nn
    def to_tensor(rows):
        return {made}
    class Predictor:
        def __init__(self):
            self.device = torch.device("cuda")
            self.model = nn.Linear(8, 2)
            {move}
        def featurize(self, rows):
            return {made}
        def predict(self, rows):
            x = {helper}(rows)
            {between}
            with torch.no_grad():
                return self.model(x)
"""


def predicted(made: str = "torch.from_numpy(np.stack(rows))", move: str = "self.model.to(self.device)",
              helper: str = "self.featurize", between: str = "pass") -> list[int]:
    source = textwrap.dedent(PREDICTOR).format(made=made, move=move, helper=helper, between=between)
    return [finding.location.row for finding in lint_text(source, "serve.py", resolve(["SC211"])).findings]


def test_a_moved_model_fed_what_a_method_or_function_builds_on_the_cpu() -> None:
    assert predicted() == [18]
    assert predicted(helper="to_tensor") == [18]
    assert predicted(made="torch.from_numpy(np.stack(rows)).float()") == [18]
    assert predicted(made="torch.tensor([list(r) for r in rows])", move="self.model = self.model.cuda()") == [18]


def test_what_is_moved_or_not_known_to_be_on_the_cpu_is_clean() -> None:
    assert predicted(made="torch.from_numpy(np.stack(rows)).to(self.device)") == []
    assert predicted(made="torch.randn(4, 8, device=self.device)") == []
    assert predicted(made="self.cache[rows]") == []
    assert predicted(between="x = x.to(self.device)") == []


def test_a_model_not_certainly_moved_by_the_constructor_is_clean() -> None:
    assert predicted(move="pass") == []
    assert predicted(move="self.model.to(self.device); self.model = nn.Linear(8, 2)") == []
    assert predicted(move="self.model = nn.DataParallel(self.model).cuda()") == []


def test_a_batch_a_project_object_of_another_module_builds_on_the_cpu(tmp_path: Path) -> None:
    vocab = """
        import torch

        class Vocab:
            def __init__(self, words, max_len=32, pad=0):
                self.index = {w: i + 1 for i, w in enumerate(words)}
                self.max_len, self.pad = max_len, pad

            def encode(self, sentences):
                ids = torch.full((len(sentences), self.max_len), self.pad, dtype=torch.long)
                for i, sentence in enumerate(sentences):
                    tokens = [self.index.get(w, self.pad) for w in sentence.split()][: self.max_len]
                    ids[i, : len(tokens)] = torch.tensor(tokens)
                return ids

            def __call__(self, sentences):
                return self.encode(sentences).unsqueeze(0)

            def lengths(self, sentences, device):
                return torch.tensor([len(s.split()) for s in sentences], device=device)
    """
    service = """
        import torch
        import torch.nn as nn
        from vocab import Vocab

        class TaggingService:
            def __init__(self, words, n_tags):
                self.vocab = Vocab(words)
                self.net = nn.Sequential(nn.Embedding(len(words) + 1, 64), nn.Linear(64, n_tags)).cuda()

            @torch.no_grad()
            def tag(self, sentences):
                ids = self.vocab.encode(sentences)
                return self.net(ids).argmax(-1)

            @torch.no_grad()
            def lengths(self, sentences):
                n = self.vocab.lengths(sentences, "cuda")
                return self.net(n)
    """
    (tmp_path / "vocab.py").write_text(textwrap.dedent(vocab))
    path = tmp_path / "service.py"

    def found(text: str) -> list[int]:
        path.write_text(textwrap.dedent(text))
        PROJECT.forget()
        return rows_in(path, "SC211")

    assert found(service) == [14]
    assert found(service.replace("self.vocab.encode(sentences)", "self.vocab(sentences)")) == [14]
    assert found(service.replace("self.vocab.encode(sentences)", "self.vocab.encode(sentences).cuda()")) == []


def test_a_trainer_of_another_module_handed_a_loader_that_a_factory_of_a_third_builds(tmp_path: Path) -> None:
    """The trainer is built in the script, from loaders a data module's factory returns: each read where it is."""
    data_utils = """
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        def regression_tensors(n):
            x = torch.rand(n, 6)
            return x[: n - 1], (x @ torch.ones(6, 1))[: n - 1]

        def build_loaders(n_train, n_test, where="cuda"):
            fit_set = TensorDataset(*regression_tensors(n_train))
            test_set = TensorDataset(torch.rand(n_test, 6, device=where), torch.rand(n_test, 1, device=where))
            return DataLoader(fit_set, batch_size=16), DataLoader(test_set, batch_size=16)
    """
    fitter = """
        import torch


        class Fitter:
            def __init__(self, net, loader):
                self.net = net.cuda()
                self.loader = loader

            def score(self):
                total = 0.0
                for features, target in self.loader:
                    total += float(((self.net(features) - target) ** 2).mean())
                return total
    """
    run = """
        import torch.nn as nn
        from data_utils import build_loaders
        from fitter import Fitter

        def main():
            fit_loader, test_loader = build_loaders(256, 64)
            print(Fitter(nn.Linear(6, 1), LOADER).score())
    """
    (tmp_path / "data_utils.py").write_text(textwrap.dedent(data_utils))
    path = tmp_path / "fitter.py"
    path.write_text(textwrap.dedent(fitter))

    def found(loader: str, moved: str = "features") -> list[int]:
        (tmp_path / "run.py").write_text(textwrap.dedent(run).replace("LOADER", loader))
        path.write_text(textwrap.dedent(fitter).replace("self.net(features)", f"self.net({moved})"))
        PROJECT.forget()
        return rows_in(path, "SC211")

    assert found("fit_loader") == [13]
    assert found("fit_loader", moved="features.cuda()") == []
    # the test tensors are made on the device `where` names, the GPU by default: their batches need no move
    assert found("test_loader") == []


FORECASTER = """
    import numpy as np
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, Dataset
    class WindowDataset(Dataset):
        def __init__(self, series, window, horizon):
            self.series = series.astype(np.float32)
            self.window, self.horizon = window, horizon
        def __len__(self):
            return len(self.series) - self.window - self.horizon
        def __getitem__(self, i):
            past = self.series[i:i + self.window]
            future = self.series[i + self.window:i + self.window + self.horizon]
            return {past_and_future}
    class Forecaster:
        def __init__(self, model: nn.Module, device="cuda"):
            self.device = torch.device(device)
            self.model = model.to(self.device)
        def fit(self, series, epochs=5):
            loader = DataLoader(WindowDataset(series, 24, 6), batch_size=32, shuffle=True)
            for epoch in range(epochs):
                for batch in loader:
                    loss = nn.functional.mse_loss(self.model(batch["past"]), batch["future"])
"""


def forecaster_rows(past_and_future: str) -> list[int]:
    source = textwrap.dedent(FORECASTER).format(past_and_future=past_and_future)
    return [finding.location.row for finding in lint_text(source, "forecast.py", resolve(["SC211"])).findings]


def test_a_class_s_moved_model_fed_the_items_of_a_project_dataset_made_on_the_cpu() -> None:
    # the dict-yielding Dataset's items are numpy windows or tensors made from them: collated on the CPU
    assert forecaster_rows('{"past": torch.from_numpy(past), "future": torch.from_numpy(future)}') == [24]
    assert forecaster_rows('{"past": past, "future": future}') == [24]


def test_a_dataset_that_moves_its_items_or_gives_what_the_code_does_not_state_is_clean() -> None:
    assert forecaster_rows('{"past": torch.from_numpy(past).to("cuda"), "future": torch.from_numpy(future)}') == []
    assert forecaster_rows('{"past": self.transform(past), "future": future}') == []


TRAINER = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset
    def collate(items):
        return {collated}
    class Regressor:
        def __init__(self, net, device):
            self.device = device
            self.net = net
            self.net.to(self.device)
        def evaluate(self, features, targets):
            data = TensorDataset(torch.from_numpy(features), torch.from_numpy(targets))
            loader = DataLoader(data, batch_size=64{collate_fn})
            with torch.no_grad():
                for batch in loader:
                    nn.functional.mse_loss(self.net(batch[0]), batch[1])
"""


def trainer_rows(collate_fn: str = "", collated: str = "None") -> list[int]:
    source = textwrap.dedent(TRAINER).format(collate_fn=collate_fn, collated=collated)
    return [finding.location.row for finding in lint_text(source, "regressor.py", resolve(["SC211"])).findings]


def test_a_model_its_class_moves_fed_a_loader_a_method_builds_on_the_cpu() -> None:
    assert trainer_rows() == [17]
    # a collate_fn of the project that builds the batch on the CPU
    assert trainer_rows(", collate_fn=collate", "torch.tensor([x.tolist() for x, _ in items]), "
                                                "torch.tensor([y.item() for _, y in items])") == [17]


def test_a_collate_fn_that_moves_the_batch_or_a_model_moved_back_is_clean() -> None:
    assert trainer_rows(", collate_fn=collate", "[torch.stack(part).cuda() for part in zip(*items)]") == []
    assert trainer_rows(", collate_fn=collate", "tuple(torch.stack(part) for part in zip(*items))") == []
    source = textwrap.dedent(TRAINER).format(collate_fn="", collated="None").replace(
        "self.net.to(self.device)", "self.net.to(self.device)\n        self.net.cpu()")
    assert lint_text(source, "regressor.py", resolve(["SC211"])).findings == []


BUILT_IN_INIT = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset
    class Trainer:
        def __init__(self, model, train_set, val_set, device):
            self.device = device
            self.model = model.to(device)
            self.train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
            self.val_loader = DataLoader(val_set, batch_size=64)
        def train_epoch(self):
            for x, y in self.train_loader:
                x, y = x.to(self.device), y.to(self.device)
                nn.functional.cross_entropy(self.model(x), y).backward()
        @torch.no_grad()
        def validate(self):
            for x, y in self.val_loader:
                self.model(x)
    def main():
        train_set = TensorDataset(torch.randn(128, 20), torch.randint(0, 3, (128,)))
        val_set = {val_set}
        trainer = Trainer(nn.Linear(20, 3), train_set, val_set, torch.device("cuda"))
"""


def test_a_trainer_s_loader_built_in_its_constructor_from_the_dataset_each_construction_hands_it() -> None:
    def built_rows(val_set: str) -> list[int]:
        source = textwrap.dedent(BUILT_IN_INIT).format(val_set=val_set)
        return [finding.location.row for finding in lint_text(source, "trainer.py", resolve(["SC211"])).findings]

    assert built_rows("TensorDataset(torch.randn(64, 20), torch.randint(0, 3, (64,)))") == [18]
    # a dataset put on the device whole, or one the code does not show
    assert built_rows("TensorDataset(torch.randn(64, 20).cuda(), torch.randint(0, 3, (64,)).cuda())") == []
    assert built_rows("load_split('val')") == []


EVALUATOR = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset
    class Trainer:
        def __init__(self, model, device):
            self.device = device
            self.model = model.to(device)
            self.criterion = nn.MSELoss()
        @torch.no_grad()
        def evaluate_loop(self, loader):
            for x, y in loader:
                self.criterion(self.model(x), y)
    def main(to_device):
        trainer = Trainer(nn.Linear(10, 1), torch.device("cuda"))
        val_loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.randn(64, 1)), batch_size=16{})
        trainer.evaluate_loop(val_loader)
"""


def test_a_method_handed_a_cpu_loader_for_the_model_its_constructor_moved() -> None:
    for passed, expected in (("", [13]), (", collate_fn=to_device", [])):
        source = textwrap.dedent(EVALUATOR).format(passed)
        assert [finding.location.row for finding in lint_text(source, "t.py", resolve(["SC211"])).findings] \
            == expected, passed


# A forecaster moving its typed model in `__init__`, fitting on a loader it builds from the dataset `fit` is handed.
FITTING_FORECASTER = """
    import numpy as np
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, Dataset
    class WindowDataset(Dataset):
        def __init__(self, series, window=24, horizon=6):
            self.series = series.astype(np.float32)
            self.window, self.horizon = window, horizon
        def __len__(self):
            return len(self.series) - self.window - self.horizon
        def __getitem__(self, i):
            past = self.series[i:i + self.window]
            future = self.series[i + self.window:i + self.window + self.horizon]
            return {"past": torch.from_numpy(past), "future": torch.from_numpy(future)}
    class Forecaster:
        def __init__(self, model: nn.Module, device="cuda"):
            self.device = torch.device(device)
            self.model = model.to(self.device)
            self.opt = torch.optim.Adam(self.model.parameters())
        def fit(self, dataset, epochs=3):
            loader = DataLoader(dataset, batch_size=32, shuffle=True)
            for epoch in range(epochs):
                for batch in loader:
                    loss = nn.functional.mse_loss(self.model(BATCH), batch["future"])
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
    series = np.sin(np.linspace(0, 50, 500))
    forecaster = Forecaster(nn.Linear(24, 6))
    forecaster.fit(DATASET)
"""


def test_a_loader_a_method_builds_from_the_dataset_every_call_hands_it() -> None:
    def found(dataset: str, batch: str = 'batch["past"]') -> list[int]:
        source = textwrap.dedent(FITTING_FORECASTER).replace("DATASET", dataset).replace("BATCH", batch)
        return [finding.location.row for finding in lint_text(source, "forecast.py", resolve(["SC211"])).findings]

    assert found("WindowDataset(series)") == [25]
    assert found("WindowDataset(series)", 'batch["past"].to(self.device)') == []
    assert found("load_windows(series)") == []  # a dataset of unknown items may move them


def test_a_loader_a_method_builds_from_the_dataset_the_calls_of_an_importing_module_hand_it(tmp_path: Path) -> None:
    # a `src/` layout without an `__init__.py` of its own, the script beside it (`from src.forecast import ...`)
    forecaster = textwrap.dedent(FITTING_FORECASTER).replace("BATCH", 'batch["past"]')
    forecaster = forecaster[:forecaster.index("\nseries = ") + 1]

    def found(script: str, root: str = "pyproject.toml") -> list[int]:
        # without a root marker, the modules importing it are searched from the folder above `src/`
        return project_rows(tmp_path / root, "src/forecast.py", {
            root: "", "src/forecast.py": forecaster,
            "run.py": "import numpy as np\nimport torch.nn as nn\nfrom src.forecast import Forecaster, WindowDataset\n"
                      "series = np.sin(np.linspace(0, 50, 500))\n" + script}, "SC211")

    assert found("forecaster = Forecaster(nn.Linear(24, 6))\nforecaster.fit(WindowDataset(series))\n") == [25]
    assert found("forecaster = Forecaster(nn.Linear(24, 6))\nforecaster.fit(WindowDataset(series))\n",
                 root="README.md") == [25]
    # a call by the method's name on an object the module does not state may hand another dataset
    assert found("forecaster = Forecaster(nn.Linear(24, 6))\nforecaster.fit(WindowDataset(series))\n"
                 "def refit(estimator, data):\n    estimator.fit(data)\n") == []


SEQ_DATA = """
    import torch
    from torch.utils.data import Dataset
    class SeqDataset(Dataset):
        def __init__(self, x, y):
            self.x = torch.tensor(x, dtype=torch.float32)
            self.y = torch.tensor(y, dtype=torch.float32)
        def __len__(self):
            return len(self.x)
        def __getitem__(self, idx):
            return self.x[idx], self.y[idx]
"""

STEP_TRAINER = """
    import torch
    from torch.utils.data import DataLoader
    class Trainer:
        def __init__(self, model, train_set, cfg):
            self.cfg = cfg
            self.device = torch.device(cfg["device"])
            self.model = model
            self.model.to(self.device)
            self.train_loader = DataLoader(train_set, batch_size=cfg["batch_size"], shuffle=True)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])
            self.criterion = torch.nn.MSELoss()
        def _step(self, x, y):
            STEP
            return self.criterion(pred, y)
        def train_epoch(self):
            for x, y in self.train_loader:
                loss = self._step(x, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
"""

MAIN = """
    import numpy as np
    import torch
    import torch.nn as nn
    from data import SeqDataset
    from trainer import Trainer
    cfg = {"device": "cuda", "batch_size": 16, "lr": 1e-3}
    x, y = FEATURES, np.random.randn(100, 1)
    Trainer(nn.Linear(8, 1), SeqDataset(x, y), cfg).train_epoch()
"""


def test_a_trainer_s_step_helper_handed_the_batches_of_a_dataset_copied_from_numpy(tmp_path: Path) -> None:
    """`_step(x, y)` runs the model the constructor moved on what the class's loop over its loader hands it; the
    loader's dataset copies the numpy arrays the script hands it into tensors (on the CPU)."""
    (tmp_path / "data.py").write_text(textwrap.dedent(SEQ_DATA))
    path = tmp_path / "trainer.py"

    def found(step: str, features: str = "np.random.randn(100, 8)") -> list[int]:
        path.write_text(textwrap.dedent(STEP_TRAINER).replace("STEP", step))
        (tmp_path / "main.py").write_text(textwrap.dedent(MAIN).replace("FEATURES", features))
        PROJECT.forget()
        return rows_in(path, "SC211")

    assert found("pred = self.model(x)") == [14]
    assert found("pred = self.model(x.to(self.device))") == []
    assert found("pred = self.model(x)", "torch.load('features.pt')") == []  # a tensor of unknown device, copied


# An estimator whose `fit` moves its module and whose `predict` feeds it the batches of a loader it builds.
ESTIMATOR = """
    import numpy as np
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, Dataset
    class Cells(Dataset):
        def __init__(self, expression):
            self.expression = expression.astype(np.float32)
        def __len__(self):
            return len(self.expression)
        def __getitem__(self, i):
            return torch.from_numpy(self.expression[i])
    class CellTyper:
        def __init__(self, n_markers, n_types, device="cuda"):
            self.device = device
            self.module = nn.Linear(n_markers, n_types)
        def fit(self, expression, labels):
            self.module.to(self.device)
            return self
        @torch.no_grad()
        def predict(self, expression):
            preds = []
            for x in DataLoader(Cells(expression), batch_size=64):
                preds.append(self.module(X).argmax(1).cpu())
            return torch.cat(preds)
"""

CELLS = """
    import numpy as np
    from typer import CellTyper
    expression, types = np.random.rand(96, 12), np.random.randint(0, 4, 96)
    USE
"""


def test_an_estimator_s_predict_after_the_fit_that_moved_its_module(tmp_path: Path) -> None:
    path = tmp_path / "typer.py"

    def found(use: str, x: str = "x") -> list[int]:
        path.write_text(textwrap.dedent(ESTIMATOR).replace("X", x))
        (tmp_path / "train.py").write_text(textwrap.dedent(CELLS).replace("USE", use))
        PROJECT.forget()
        return rows_in(path, "SC211")

    assert found("typer = CellTyper(12, 4).fit(expression, types)\nprint(typer.predict(expression))") == [24]
    assert found("typer = CellTyper(12, 4)\ntyper.fit(expression, types)\nprint(typer.predict(expression))") == [24]
    assert found("typer = CellTyper(12, 4).fit(expression, types)\nprint(typer.predict(expression))",
                 "x.to(self.device)") == []
    # never fitted: the module is on the CPU with its batches
    assert found("typer = CellTyper(12, 4)\nprint(typer.predict(expression))") == []


# A forecaster whose constructor moves its model to `self.device`, a `_step` helper fed the dict batches of a
# window dataset that keeps the series it is handed; `fit` is handed the loader built in its call.
FORECAST_DATA = """
    from torch.utils.data import Dataset

    class WindowDataset(Dataset):
        def __init__(self, series, window=24, horizon=6):
            self.series, self.window, self.horizon = series, window, horizon

        def __len__(self):
            return len(self.series) - self.window - self.horizon

        def __getitem__(self, i):
            x = self.series[i:i + self.window]
            y = self.series[i + self.window:i + self.window + self.horizon]
            return {"past": x, "future": y}
"""

FORECAST_RUN = """
    import torch
    from torch.utils.data import DataLoader
    from forecast.data import WindowDataset
    from forecast.model import TemporalNet

    class Forecaster:
        def __init__(self, model, lr=1e-3):
            self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            self.model = model.to(self.device)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
            self.criterion = torch.nn.MSELoss()

        def _step(self, batch):
            MOVE
            return self.criterion(self.model(batch["past"]), batch["future"])

        def fit(self, loader, epochs=2):
            for _ in range(epochs):
                for batch in loader:
                    loss = self._step(batch)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()

    ds = WindowDataset(SERIES, horizon=6)
    Forecaster(TemporalNet(3, 6)).fit(DataLoader(ds, batch_size=16, shuffle=True))
"""

TEMPORAL_NET = """
    import torch.nn as nn

    class TemporalNet(nn.Module):
        def __init__(self, n_features, horizon, hidden=64):
            super().__init__()
            self.gru = nn.GRU(n_features, hidden, batch_first=True)
            self.head = nn.Linear(hidden, horizon * n_features)
            self.horizon, self.n_features = horizon, n_features

        def forward(self, past):
            out, _ = self.gru(past)
            return self.head(out[:, -1]).view(-1, self.horizon, self.n_features)
"""


def test_a_forecaster_s_step_helper_fed_the_dict_batches_of_a_dataset_keeping_a_cpu_series(tmp_path: Path) -> None:
    def found(move: str = "pass", series: str = "torch.randn(200, 3)", data: str = FORECAST_DATA) -> list[int]:
        return project_rows(tmp_path, "run.py", {
            "forecast/__init__.py": "", "forecast/data.py": data, "forecast/model.py": TEMPORAL_NET,
            "run.py": FORECAST_RUN.replace("MOVE", move).replace("SERIES", series)}, "SC211")

    assert found() == [16]
    # the item filled by key after it is made (`item["future"] = y` binds no name)
    assert found(data=FORECAST_DATA.replace('return {"past": x, "future": y}',
                                            'item = {"past": x}\n            item["future"] = y\n            return item')) == [16]
    assert found(move="batch = {k: v.to(self.device) for k, v in batch.items()}") == []
    assert found(series='torch.randn(200, 3, device="cuda")') == []
    assert found(series="load_series()") == []  # a series the code does not show


# A script whose moved model is handed to a same-file evaluation helper, with the validation loader of a project
# module's `make_loaders`; its training helper moves the batches, the evaluation forgets to.
LOADERS = """
    import numpy as np
    import torch
    from torch.utils.data import DataLoader, Dataset

    class CsvRows(Dataset):
        def __init__(self, features, labels):
            self.features = features.astype(np.float32)
            self.labels = labels

        def __len__(self):
            return len(self.labels)

        def __getitem__(self, idx):
            return torch.from_numpy(self.features[idx]), int(self.labels[idx])

    def make_loaders(batch_size):
        x, y = np.random.randn(256, 20), np.random.randint(0, 4, size=256)
        return DataLoader(CsvRows(x[:200], y[:200]), batch_size, shuffle=True), DataLoader(CsvRows(x[200:], y[200:]))
"""

EVALUATED = """
    import torch
    import torch.nn as nn
    from utils.data import make_loaders

    def evaluate(net, loader, criterion, device):
        net.eval()
        loss_sum = 0.0
        with torch.no_grad():
            for feats, labels in loader:
                MOVE
                loss_sum += criterion(net(feats), labels).item()
        return loss_sum / len(loader)

    def train_one_epoch(net, loader, criterion, optimizer, device):
        net.train()
        for feats, labels in loader:
            feats, labels = feats.to(device), labels.to(device)
            optimizer.zero_grad()
            criterion(net(feats), labels).backward()
            optimizer.step()

    def main(epochs=3):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        train_loader, val_loader = make_loaders(32)
        model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(epochs):
            train_one_epoch(model, train_loader, criterion, optimizer, device)
            print(epoch, evaluate(model, val_loader, criterion, device))
"""


def test_a_moved_model_handed_to_an_evaluation_helper_with_the_loader_of_another_module(tmp_path: Path) -> None:
    def found(move: str = "pass") -> list[int]:
        return project_rows(tmp_path, "main.py", {"utils/__init__.py": "", "utils/data.py": LOADERS,
                                                  "main.py": EVALUATED.replace("MOVE", move)}, "SC211")

    assert found() == [12]
    assert found(move="feats, labels = feats.to(device), labels.to(device)") == []


# A trainer that moves the model its factory builds and keeps its loaders as attributes, handing both to evaluation
# helpers, of its own module or of `utils/engine.py`, whose loops never move the batches.
ENGINE = """
    import torch

    @torch.no_grad()
    def accuracy(model, loader):
        model.eval()
        correct = 0
        for images, labels in loader:
            BATCH
            correct += (model(images).argmax(1) == labels).sum().item()
        return correct / len(loader.dataset)
"""

ATTRIBUTE_TRAINER = """
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, TensorDataset
    from utils.engine import accuracy

    def build_model(num_classes):
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, num_classes))

    class Trainer:
        def __init__(self, cfg):
            self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            self.model = MODEL
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"])
            self.criterion = nn.CrossEntropyLoss()
            data = TensorDataset(torch.randn(128, 1, 28, 28), torch.randint(0, 10, (128,)))
            self.train_loader = DataLoader(data, batch_size=32, shuffle=True)
            self.val_loader = DataLoader(data, batch_size=64)

        def run(self):
            for epoch in range(self.cfg["epochs"]):
                self.model.train()
                for images, labels in self.train_loader:
                    self.optimizer.zero_grad()
                    self.criterion(self.model(images.to(self.device)), labels.to(self.device)).backward()
                    self.optimizer.step()
                print(epoch, accuracy(self.model, self.val_loader))
"""


def test_a_trainer_s_moved_model_and_loader_attribute_handed_to_an_evaluation_helper(tmp_path: Path) -> None:
    def found(batch: str = "pass", model: str = "build_model(10).to(self.device)", same_file: bool = False
              ) -> list[int]:
        engine = textwrap.dedent(ENGINE).replace("BATCH", batch)
        trainer = textwrap.dedent(ATTRIBUTE_TRAINER).replace("MODEL", model)
        if same_file:
            trainer = trainer.replace("from utils.engine import accuracy\n", engine)
        return project_rows(tmp_path, "train.py", {"utils/__init__.py": "", "utils/engine.py": engine,
                                                   "train.py": trainer}, "SC211")

    assert found() == [27]  # reported at the call: the helper's module cannot see it
    assert found(same_file=True) == [14]
    assert found(batch="images = images.to(next(model.parameters()).device)") == []
    assert found(batch="images = images.to(next(model.parameters()).device)", same_file=True) == []
    assert found(model="build_model(10)") == []
    assert found(model="nn.DataParallel(build_model(10)).to(self.device)") == []
