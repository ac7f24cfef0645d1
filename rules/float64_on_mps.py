"""SC403 float64-on-mps: a float64 tensor created on, or moved to, Apple's MPS device in one expression."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import libcst as cst

from shapecheck.engine import Context, Invalid, Rule
from shapecheck.engine import flow
from shapecheck.engine.context import Binding, Point
from shapecheck.engine.records import NamedTuple
from shapecheck.engine.syntax import assigned_attributes, is_self_attribute, keyword_arg
from shapecheck.objects.callers import every_call_passes
from shapecheck.objects.classes import class_facts
from shapecheck.objects.factories import returned_by_factory, returned_by_imported, unpacked_from_factory
from shapecheck.objects.project import imported_constant
from shapecheck.objects.stored import every_construction_passes
from shapecheck.engine.expected_errors import expects_error
from shapecheck.objects.tensor_facts import dtype_kind, explicit_dtype, positional, string_value
from shapecheck.objects.values import Const, Instance
from shapecheck.shapes.evaluator import evaluator

_DEVICE = frozenset({"torch.device"})
# Torch functions that keep a numpy array's dtype.
_FROM_ARRAY = frozenset({"torch.from_numpy", "torch.as_tensor", "torch.tensor"})
# Numpy functions whose result is float64 unless given a dtype.
_NUMPY_FLOAT64 = frozenset({f"numpy.{name}" for name in (
    "loadtxt", "genfromtxt", "zeros", "ones", "empty", "linspace", "random.randn", "random.rand", "random.random",
    "random.normal", "random.uniform", "random.standard_normal", "random.random_sample", "eye", "identity",
    "logspace", "random.exponential", "random.laplace", "random.lognormal",
)})
# Numpy ufuncs whose result is float64 for a float64 array or an integer one (`np.sin(np.arange(n))`).
_FLOAT_UFUNCS = frozenset({f"numpy.{name}" for name in (
    "sin", "cos", "tan", "exp", "log", "log1p", "sqrt", "tanh", "arctan", "expm1", "log2", "log10")})
# Numpy functions joining arrays: float64 when every array joined is.
_NUMPY_JOINING = frozenset({f"numpy.{name}" for name in (
    "column_stack", "hstack", "vstack", "row_stack", "dstack", "stack", "concatenate")})
_NUMPY_FLOAT64_TYPES = frozenset({"numpy.float64", "numpy.double"})
# numpy's random generators (`rng = np.random.default_rng(seed)`, `np.random.RandomState(seed)`) and their methods
# whose draws are float64 unless given a dtype (`rng.normal(size=(n, d))`, `rng.randn(n)`)
_NUMPY_GENERATORS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator"})
_GENERATOR_FLOAT64 = frozenset({"randn", "rand", "random", "random_sample", "normal", "uniform", "standard_normal",
                                "exponential", "gamma", "beta", "lognormal", "laplace"})
_NUMPY_KEEPING = frozenset({"reshape", "copy", "transpose", "squeeze", "ravel", "flatten", "swapaxes", "mean", "std",
                            "var", "sum", "cumsum"})
# Arithmetic of a float64 array with a float64 array or a number: float64 by numpy's promotion.
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power, cst.MatrixMultiply)
_DOUBLE_CONSTRUCTORS = frozenset({"torch.DoubleTensor"})
_OTHER_CASTS = frozenset({"float", "half", "bfloat16", "int", "long", "short", "byte", "char", "bool", "cfloat"})
# Methods that keep the dtype and the device of their receiver.
_KEEPING = frozenset({"view", "reshape", "contiguous", "clone", "detach", "unsqueeze", "squeeze", "transpose",
                      "permute", "flatten", "expand", "repeat", "t", "requires_grad_", "train", "eval"})


class Placement(NamedTuple):
    """What is certain about a tensor's (or module's) dtype and device."""

    float64: bool
    mps: bool


_UNKNOWN = Placement(False, False)


# A toy environment's observation table, kept on the instance and batched to the Apple GPU: `%s` follows
# `self.obs = table[:, :-1]`.
# A spiking network's neuron group whose device is a constructor parameter defaulting to the module's "mps"; `%s`
# is its construction.
_NEURON_GROUP = """
        import numpy as np
        import torch
        DEVICE = "mps"
        class NeuronGroup:
            def __init__(self, size, tau=20.0, device=DEVICE):
                self.size, self.tau = size, tau
                self.device = device
                self.bias = self.vector()
            def vector(self):
                values = np.random.uniform(0.0, 0.7, self.size)
                return torch.from_numpy(values).to(self.device)
        group = %s
        """

_REPLAY_TABLE = """
        import numpy as np
        import torch

        class ReplayTable:
            def __init__(self, path):
                self.device = torch.device("mps")
                table = np.loadtxt(path, delimiter=",")
                self.obs = table[:, :-1]%s

            def sample(self, batch_size):
                idx = np.random.randint(0, len(self.obs), batch_size)
                return torch.from_numpy(self.obs[idx]).to(self.device)
        """


# A tabular data set that standardises its table in a method; `%s` follows the standardisation.
_STANDARDIZED = """
        import numpy as np
        import torch
        class TabularData:
            def __init__(self, path):
                self.raw = np.loadtxt(path, delimiter=",", skiprows=1)
                self.device = torch.device("mps")
            def standardized(self):
                x = self.raw[:, :-1]
                return (x - x.mean(0)) / (x.std(0) + 1e-8)%s
            def inputs(self):
                return torch.from_numpy(self.standardized()).to(self.device)
        """

# A tabular trainer on Apple silicon: the script hands `fit` its table, `fit` hands each epoch to `train_epoch`,
# which batches it through `_batch`; `%s` is the script.
_TABULAR_TRAINER = """
        import numpy as np
        import torch
        DEVICE = "mps"
        class Trainer:
            def __init__(self, model):
                self.device = DEVICE
                self.model = model.to(self.device)
            def _batch(self, x):
                return torch.from_numpy(x).to(self.device)
            def train_epoch(self, data, bs=64):
                for i in range(0, len(data), bs):
                    self.model(self._batch(data[i:i + bs]))
            def fit(self, data, epochs=10):
                for _ in range(epochs):
                    self.train_epoch(data)
        if __name__ == "__main__":
            %s
        """


class Float64OnMps(Rule):
    code = "SC403"
    name = "float64-on-mps"
    severity = "error"  # MPS has no float64: it raises
    message = ("MPS does not support float64: this tensor is float64 on \"mps\" "
               "(\"Cannot convert a MPS Tensor to float64 dtype\"); use float32")
    triggers = ("mps",)
    triggered_through_imports = True  # the device may be a constant of a module the file imports
    docs = """
        ## What it does
        Finds a float64 tensor (or module) created on or moved to the `"mps"` device in one expression:
        `torch.randn(3, dtype=torch.float64, device="mps")`, `x.to("mps", dtype=torch.float64)`,
        `x.double().to("mps")`, `x.to("mps").double()`, `model.to(torch.device("mps")).double()`, a numpy
        float64 array (`np.loadtxt`, `np.random.randn`, the draws of a generator `rng = np.random.default_rng(seed)`
        or `np.random.RandomState(seed)` such as `rng.normal(...)`, `np.zeros` without a dtype, a numpy call or
        `.astype(...)` given `float` or `np.float64`, their slices, reshapes and
        reductions, their arithmetic with each other or with numbers: `(x - x.mean(0)) / (x.std(0) + 1e-8)`,
        and `np.column_stack` / `np.concatenate` / ... of such arrays) handed to `torch.from_numpy` / `torch.tensor`
        and moved to `"mps"`, also through a name bound to such a
        tensor or a batch a loop draws from a `DataLoader` of a project `Dataset` whose `__getitem__` returns one
        at its position (`for xb, yb in loader: yb.to(device)`), and with the device in a name always bound to `"mps"` (`device = torch.device("mps")`). The array
        and the device may be parameters of a plain function that every call of it in the file hands such values
        (`def to_tensor(array, device): return torch.from_numpy(array).to(device)` ... `to_tensor(table, "mps")`). The
        device may be a constant another module of the project assigns once at its top level (`from config
        import DEVICE`, `config.DEVICE`, `settings.DEVICE`, which this file does not reassign). The
        device may be an attribute (`self.device = torch.device("mps")`, or `self.device = DEVICE` of such a
        module constant, or `self.device = device` of a constructor's parameter every construction leaves at a
        default `"mps"` or passes one), a class attribute that nothing reassigns (`device = "mps"` in a config class's body, read
        as `Config.device`, `self.device`, or `cfg.device` of `cfg = Config()` or of a parameter every call hands
        `Config()`; a dataclass's field only as the default of a construction that passes nothing,
        `cfg = TrainConfig()`, also of a dataclass of another module; `torch.device(cfg.device)` of such an
        attribute), what a function of the file or of another module returns (`device = get_device()` with `def
        get_device(): return torch.device("mps")`), and the array a constructor's parameter
        that every construction of the class hands such an array, or an attribute that one statement of the class alone
        assigns such an array (`self.obs = np.random.randn(n, 4)`; one reassigned elsewhere, `self.obs =
        obs.astype(np.float32)` in `reset()`, is not followed). An array may also be unpacked from a same-file
        function's returned tuple (`X, y = load_data(path)`, the function also of another module of the project,
        its arrays perhaps a product `X @ w`), or be what a method of the class returns
        (`torch.from_numpy(self.standardized())`). A method's parameters are what every call of it
        hands, on `self` in the class or on an instance in the script (`Trainer(model).fit(table)` ->
        `self.train_epoch(data)` -> `self._batch(data[i:i + bs])`); a call by that name on an object of unknown
        class (`baseline.fit(X)`) leaves them unknown.

        ## Why is this bad?
        Apple's Metal backend has no float64: PyTorch raises "Cannot convert a MPS Tensor to float64 dtype as the
        MPS framework doesn't support float64. Please use float32 instead." The primer: "torch.float64 is not
        well-supported on MPS. Stay in float32."

        float32 on MPS, float64 on the CPU or CUDA, and a device picked at run time
        (`device = "mps" if torch.backends.mps.is_available() else "cpu"`, or bound under an `if`) are not
        reported, nor is code that
        probes for the error (under `pytest.raises` / `assertRaises`, or in a `try` that catches it).

        ## Example
        ```python
        x = torch.randn(3, dtype=torch.float64, device="mps")
        y = torch.from_numpy(array).double().to("mps")
        ```

        ## Use instead
        ```python
        x = torch.randn(3, dtype=torch.float32, device="mps")
        y = torch.from_numpy(array).float().to("mps")
        ```

        This rule has no fix: float32 loses precision, and whether that is acceptable (or the computation should
        stay on the CPU) is yours to decide.
    """
    VALID = [
        # The standardised table cast to float32 before it is returned.
        _STANDARDIZED % ".astype(np.float32)",
        # The same rows parsed as float32; a `float` that names another type.
        """
        import numpy as np
        import torch
        from jax.numpy import float32 as float
        rows = [line.split(",") for line in open("train.csv")]
        x = torch.from_numpy(np.array(rows, dtype=np.float32)).to("mps")
        y = torch.from_numpy(np.array(rows).astype(float)).to("mps")
        """,
        # The config's device set from the command line on the instance; the dataclass constructed with a device.
        """
        import argparse
        import numpy as np
        import torch
        from dataclasses import dataclass
        class Config:
            device = "mps"
        @dataclass
        class TrainConfig:
            device: str = "mps"
        def run(cfg):
            return torch.from_numpy(np.random.randn(2048, 10)).to(cfg.device)
        args = argparse.ArgumentParser().parse_args()
        config = Config()
        config.device = args.device
        run(config)
        train_cfg = TrainConfig(device=args.device)
        x = torch.from_numpy(np.random.randn(8, 4)).to(train_cfg.device)
        """,
        # The loader handed a float32 array; one also handed a float64 one but batched to the CPU.
        """
        import numpy as np
        import torch
        class ArrayLoader:
            def __init__(self, X):
                self.X = X
            def batches(self, device):
                for i in range(0, len(self.X), 64):
                    yield torch.from_numpy(self.X[i:i + 64]).to(device)
        signals = np.load("signals.npy")
        train = list(ArrayLoader(signals.astype(np.float32)).batches("mps"))
        cpu = ArrayLoader(signals.astype(np.float64))
        test = list(cpu.batches("cpu"))
        """,
        # The trainer's table cast to float32 by the script; a `fit` of an object of unknown class (a scikit-learn
        # estimator's as likely as the trainer's) says nothing of what the trainer's `fit` is handed.
        _TABULAR_TRAINER % "Trainer(Net()).fit(np.random.randn(5000, 20).astype(np.float32))",
        _TABULAR_TRAINER % "Trainer(Net()).fit(np.random.randn(5000, 20))\n            baseline.fit(features)",
        # A device picked at run time, read through a trainer's attribute in a method judged after the file.
        """
        import numpy as np
        import torch
        TABLE = np.loadtxt("train.csv", delimiter=",")
        DEVICE = "cpu"
        if torch.backends.mps.is_available():
            DEVICE = "mps"
        class Trainer:
            def __init__(self):
                self.device = DEVICE
            def batch(self, start):
                return torch.from_numpy(TABLE[start:start + 64]).to(self.device)
        """,
        # The config's default device overridden from the command line; a dataclass field each construction sets.
        """
        import argparse
        import numpy as np
        import torch
        from dataclasses import dataclass
        class Config:
            device = "mps"
        @dataclass
        class RunConfig:
            device: str = "mps"
        args = argparse.ArgumentParser().parse_args()
        Config.device = args.device
        table = np.loadtxt("train.csv", delimiter=",")
        x = torch.from_numpy(table).to(Config.device)
        y = torch.from_numpy(table).to(RunConfig.device)
        """,
        # Normalised with a float32 array: the promotion depends on what `scale` holds, which is not stated.
        """
        import numpy as np
        import torch
        table = np.loadtxt("train.csv", delimiter=",")
        x = torch.from_numpy(table / scale).to("mps")
        """,
        # The table made float32 again by `reset()`: which of the two assignments a batch sees is not stated.
        _REPLAY_TABLE % "\n\n            def reset(self):\n                self.obs = self.obs.astype(np.float32)",
        # The table read as float32.
        _REPLAY_TABLE % ".astype(np.float32)",
        # The trainer's constructions hand it float32 arrays.
        """
        import numpy as np
        import torch
        class Trainer:
            def __init__(self, data):
                self.device = torch.device("mps")
                self.inputs = torch.from_numpy(data).to(self.device)
        trainer = Trainer(np.loadtxt("train.csv", delimiter=",", dtype=np.float32))
        """,
        # The loader converts to float32 before returning.
        """
        import numpy as np
        import torch
        def load_data(path):
            table = np.loadtxt(path).astype(np.float32)
            return table[:, :-1], table[:, -1]
        X, y = load_data("data.txt")
        X_t = torch.tensor(X).to("mps")
        """,
        # AI-Feynman after the fix: the columns cast to float32 before the move.
        """
        import numpy as np
        import torch
        variables = np.loadtxt("data.txt", usecols=(0,))
        for j in range(1, n_variables):
            variables = np.column_stack((variables, np.loadtxt("data.txt", usecols=(j,))))
        factors = torch.from_numpy(variables).float()
        factors = factors.to("mps")
        """,
        """
        import torch
        x = torch.tensor(data, dtype=torch.float, device="mps")
        y = torch.randn(3, dtype=torch.float32, device=torch.device("mps"))
        """,
        """
        import torch
        device = "mps" if torch.backends.mps.is_available() else "cpu"
        x = torch.randn(3, dtype=torch.float64, device=device)
        """,
        """
        import torch
        x = torch.randn(3, dtype=torch.float64, device="cuda")
        y = x.double().to("cpu")
        """,
        """
        import torch
        x = torch.from_numpy(array).double().float().to("mps")
        """,
        """
        import torch
        model.to("mps")
        loss = criterion(out.to("mps"), target.double().cpu())
        """,
        """
        import torch
        x = torch.randn(3, dtype=torch.float64)
        x = x.to("mps", dtype=torch.float32)
        """,
        """
        import numpy as np
        import torch
        y = np.zeros(3).astype(np.float64)
        z = torch.zeros(3, device="mps")
        """,
        """
        import torch
        try:
            a = torch.randn(1, dtype=torch.float64).to("mps")
            print("float64 works on this MPS build")
        except (RuntimeError, TypeError):
            print("MPS rejects float64, as expected")
        """,
        """
        import numpy as np
        import torch
        table = np.loadtxt("features.csv", delimiter=",", dtype=np.float32)
        x = torch.from_numpy(table[:, :-1]).to("mps")
        noise = torch.from_numpy(np.random.randn(16, 3)).float().to("mps")
        """,
        """
        import numpy as np
        import torch
        if torch.backends.mps.is_available():
            device = "mps"
        else:
            device = "cpu"
        x = torch.from_numpy(np.linspace(0, 1, 100)).to(device)
        """,

        # The binding last in the file is the "mps" one, but only its branch runs it: handed to a helper, a device
        # is "mps" only when every binding that may reach the call says so.
        """
        import numpy as np
        import torch
        if not torch.backends.mps.is_available():
            device = torch.device("cpu")
        else:
            device = torch.device("mps")
        def to_tensor(array, device):
            return torch.from_numpy(array).to(device)
        features = to_tensor(np.loadtxt("features.csv", delimiter=","), device)
        """,

        # A helper one of whose calls hands it the CPU, another a float32 array.
        """
        import numpy as np
        import torch
        def to_tensor(array, device):
            return torch.from_numpy(array).to(device)
        features = np.loadtxt("features.csv", delimiter=",")
        x = to_tensor(features, "cpu")
        y = to_tensor(features.astype(np.float32), "mps")
        z = to_tensor(features, device)
        """,
        # PymoNNtorch's neuron group built for the CPU: the script passes its own device.
        _NEURON_GROUP % 'NeuronGroup(100, device="cpu")',
    ]
    INVALID = [
        # PymoNNtorch's neuron group at its default device: a state vector numpy drew goes to "mps" as float64.
        _NEURON_GROUP % "NeuronGroup(100)",
        # The table standardised by a method of the data set: still float64.
        _STANDARDIZED % "",
        # Rows parsed by hand into a float (float64) array; a pandas column cast with `astype(float)`.
        Invalid("""
        import numpy as np
        import torch
        rows = [line.split(",") for line in open("train.csv")]
        features = np.array(rows, dtype=float)
        x = torch.from_numpy(features).to("mps")
        y = torch.tensor(frame["target"].to_numpy().astype(float)).to("mps")
        """, count=2),
        # A config object's device: a class attribute read through the instance a helper is handed, and a
        # dataclass field's default that the construction keeps.
        Invalid("""
        import numpy as np
        import torch
        from dataclasses import dataclass
        class Config:
            device = "mps"
        @dataclass
        class TrainConfig:
            lr: float = 1e-3
            device: str = "mps"
        def run(cfg):
            return torch.from_numpy(np.random.randn(2048, 10)).to(cfg.device)
        run(Config())
        cfg = TrainConfig()
        table = np.loadtxt("housing.csv", delimiter=",", skiprows=1)
        X = torch.from_numpy(table[:, :-1]).to(cfg.device)
        """, count=2),
        # A loader that keeps the array its construction is handed and batches it to the device `batches` is
        # handed; a trainer whose `step` shares its name with the optimizer's.
        """
        import numpy as np
        import torch
        class ArrayLoader:
            def __init__(self, X, batch_size=64):
                self.X = X
                self.batch_size = batch_size
            def batches(self, device):
                for i in range(0, len(self.X), self.batch_size):
                    yield torch.from_numpy(self.X[i:i + self.batch_size]).to(device)
        loader = ArrayLoader(np.load("signals.npy").astype(np.float64))
        batches = list(loader.batches("mps"))
        """,
        """
        import numpy as np
        import torch
        class Trainer:
            device = "mps"
            def __init__(self, model):
                self.model = model.to(self.device)
                self.opt = torch.optim.Adam(model.parameters())
            def step(self, xb):
                loss = self.model(torch.from_numpy(xb).to(self.device)).mean()
                loss.backward()
                self.opt.step()
            def fit(self, X, bs=32):
                for i in range(0, len(X), bs):
                    self.step(X[i:i + bs])
        Trainer(torch.nn.Linear(8, 1)).fit(np.random.rand(1000, 8))
        """,
        # The table `np.random.randn` drew (float64) follows `fit(data)` -> `train_epoch(data)` -> `_batch(...)`.
        _TABULAR_TRAINER % ("data = np.random.randn(5000, 20)\n            trainer = Trainer(Net())"
                            "\n            trainer.fit(data)"),
        # A notebook that defines the helper again: each definition's own calls say what it is handed.
        """
        import numpy as np
        import torch
        def to_tensor(array, device):
            return torch.from_numpy(array).float().to(device)
        x = to_tensor(np.loadtxt("a.csv"), "cpu")
        def to_tensor(array, device):
            return torch.from_numpy(array).to(device)
        y = to_tensor(np.loadtxt("b.csv"), "mps")
        """,
        # The device a module constant, read through the trainer's attribute; the table standardised first.
        """
        import numpy as np
        import torch
        DEVICE = torch.device("mps")
        raw = np.loadtxt("housing.csv", delimiter=",", skiprows=1)
        features = (raw[:, :-1] - raw[:, :-1].mean(0)) / (raw[:, :-1].std(0) + 1e-8)
        class Trainer:
            def __init__(self):
                self.device = DEVICE
            def inputs(self):
                return torch.from_numpy(features).to(self.device)
        """,
        # The device a class attribute of a config class and of the agent.
        Invalid("""
        import numpy as np
        import torch
        class Config:
            device = "mps"
            lr = 3e-4
        class Agent:
            device = torch.device("mps")
            def noise(self):
                return torch.from_numpy(np.random.randn(4)).to(self.device)
        x = torch.tensor(np.random.randn(8, 24)).to(Config.device)
        """, count=2),
        # The table as `np.loadtxt` reads it: float64.
        _REPLAY_TABLE % "",
        # A trainer keeps the mps device on `self` and is constructed with a table np.loadtxt read.
        """
        import numpy as np
        import torch
        class Trainer:
            def __init__(self, model, data):
                self.device = torch.device("mps")
                self.model = model.to(self.device)
                self.inputs = torch.from_numpy(data).to(self.device)
        def main(model):
            return Trainer(model, np.loadtxt("train.csv", delimiter=","))
        """,
        # Features and targets unpacked from a same-file loader of a text file.
        """
        import numpy as np
        import torch
        def load_data(path):
            table = np.loadtxt(path)
            return table[:, :-1], table[:, -1]
        X, y = load_data("data.txt")
        X_t = torch.tensor(X).to("mps")
        """,
        # The array and the device are a helper's parameters, handed by a module-level call.
        """
        import numpy as np
        import torch
        def to_batches(X, device):
            for start in range(0, len(X), 32):
                yield torch.from_numpy(X[start:start + 32]).to(device)
        X = np.random.randn(1000, 4)
        batches = list(to_batches(X, "mps"))
        """,
        # AI-Feynman's S_NN_eval.py: columns read by `np.loadtxt` and stacked, moved to "mps" before `.float()`.
        """
        import numpy as np
        import torch
        variables = np.loadtxt("data.txt", usecols=(0,))
        for j in range(1, n_variables):
            variables = np.column_stack((variables, np.loadtxt("data.txt", usecols=(j,))))
        factors = torch.from_numpy(variables[0:100])
        factors = factors.to("mps")
        factors = factors.float()
        """,
        """
        import torch
        x = torch.randn(3, dtype=torch.float64, device="mps")
        """,
        """
        import torch
        y = torch.from_numpy(array).to("mps").double()
        """,
        """
        import torch
        y = features.double().to(torch.device("mps"))
        """,
        Invalid(
            """
            import torch
            y = x.to("mps", dtype=torch.float64)
            z = x.to(device="mps:0", dtype=torch.double)
            """,
            count=2,
        ),
        """
        import torch
        y = x.to("mps", torch.float64)
        """,
        """
        import torch
        weights = torch.tensor(values, dtype=torch.float64)
        weights = weights.to("mps")
        """,
        """
        import numpy as np
        import torch
        table = np.loadtxt("features.csv", delimiter=",")
        x = torch.from_numpy(table[:, :-1]).to("mps")
        """,
        """
        import numpy as np
        import torch
        device = torch.device("mps")
        grid = torch.tensor(np.linspace(-1, 1, 64).reshape(8, 8)).to(device)
        """,
        # A helper's parameters, each call passing a float64 array and the mps device.
        """
        import numpy as np
        import torch
        def to_tensor(array, device):
            return torch.from_numpy(array).to(device)
        features = np.loadtxt("features.csv", delimiter=",")
        x = to_tensor(features, "mps")
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Calls in a plain function, judged again in `finish()` with its parameters read from the file's calls.
        self._in_functions: list[tuple[cst.Call, Point]] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute and func.attr.value not in ("to", "double", "type"):
            if keyword_arg(node, "device") is None:
                return  # the cheap test: only these methods or a `device=` argument can make it float64 on mps
        elif type(func) is not cst.Attribute and keyword_arg(node, "device") is None:
            return
        if self._on_mps(node, callers=False):
            if not expects_error(self.ctx):
                self.report(node)
        elif self.ctx.function is not None and self.ctx.function.params.params:
            self._in_functions.append((node, self.ctx.point()))

    def finish(self) -> None:
        for node, point in self._in_functions:
            with self.ctx.at(point):
                if self._on_mps(node, callers=True) and not expects_error(self.ctx):
                    self.report(node)

    def _on_mps(self, node: cst.Call, callers: bool) -> bool:
        """The call makes a float64 tensor on mps, which its receiver was not already."""
        placement = placement_of(self.ctx, node, callers=callers)
        if not (placement.float64 and placement.mps):
            return False
        func = node.func
        if type(func) is cst.Attribute and self.ctx.qualname(func) is None:
            before = placement_of(self.ctx, func.value, callers=callers)
            if before.float64 and before.mps:
                return False  # already reported where it became float64 on mps
        return True


def placement_of(ctx: Context, expr: cst.BaseExpression, before: int | None = None, depth: int = 0,
                 callers: bool = False) -> Placement:
    """With `callers`, a parameter of a plain function is what every call of it in the file passes (read in
    `finish()`, when the calls are known)."""
    if depth > 12:
        return _UNKNOWN
    if type(expr) is cst.Name or type(expr) is cst.Attribute:
        value, seq = ctx.value_of(expr, before)
        if value is expr and type(expr) is cst.Name:
            return _batch_placement(ctx, expr, before)
        return _UNKNOWN if value is expr else placement_of(ctx, value, seq, depth + 1, callers)
    if type(expr) is not cst.Call:
        return _UNKNOWN
    func = expr.func
    qualname = ctx.qualname(func)
    if qualname is not None:
        if not qualname.startswith("torch."):
            return _UNKNOWN
        dtype = explicit_dtype(expr)
        device = keyword_arg(expr, "device")
        float64 = qualname in _DOUBLE_CONSTRUCTORS or dtype is not None and dtype_kind(ctx, dtype, before) == "float64"
        if qualname in _FROM_ARRAY and dtype is None and expr.args and expr.args[0].keyword is None:
            float64 = _numpy_float64(ctx, expr.args[0].value, before, callers=callers)
        return Placement(float64, device is not None and _device_type(ctx, device.value, callers) == "mps")
    if type(func) is not cst.Attribute or ctx.is_foreign(func.value):
        return _UNKNOWN
    method = func.attr.value
    if method not in ("double", "to", "type", "cpu", "cuda") and method not in _OTHER_CASTS | _KEEPING:
        return _UNKNOWN
    receiver = placement_of(ctx, func.value, before, depth + 1, callers)
    if method == "double":
        return Placement(True, receiver.mps)
    if method in _OTHER_CASTS:
        return Placement(False, receiver.mps)
    if method in ("cpu", "cuda"):
        return Placement(receiver.float64, False)
    if method == "type":
        args = positional(expr)
        return Placement(bool(args) and _names_float64(ctx, args[0].value, before), receiver.mps)
    if method == "to":
        return _moved(ctx, expr, receiver, before, callers)
    return receiver


def _batch_placement(ctx: Context, name: cst.Name, before: int | None) -> Placement:
    """A batch a loop draws from a `DataLoader` of a project `Dataset` with the default collation (`for xb, yb in
    loader:`), where every `return` of the dataset's `__getitem__` gives, at the batch's position, a tensor that is
    float64 on the CPU (`torch.from_numpy(self.X[idx])` of `self.X = rng.normal(size=(n, d))`): stacked, it stays
    float64."""
    binding = ctx.binding(name, before)
    if binding is None or binding.kind != "for" or type(binding.statement) is not cst.For or binding.starred:
        return _UNKNOWN
    loader, seq = ctx.value_of(binding.statement.iter, binding.seq)
    if type(loader) is not cst.Call or not (ctx.qualname(loader.func) or "").endswith(".DataLoader") \
            or keyword_arg(loader, "collate_fn") is not None or any(arg.star for arg in loader.args):
        return _UNKNOWN
    dataset = keyword_arg(loader, "dataset") or (loader.args[0] if loader.args and loader.args[0].keyword is None
                                                 else None)
    built = evaluator(ctx).value(dataset.value, seq) if dataset is not None else None
    if not isinstance(built, Instance):
        return _UNKNOWN
    where = built.cls.ctx
    items = [statement for statement in built.cls.node.body.body
             if type(statement) is cst.FunctionDef and statement.name.value == "__getitem__"]
    point = where.point_after(items[0]) if len(items) == 1 else None
    if point is None:
        return _UNKNOWN
    returned = [node.value for node in where.walk(items[0].body) if type(node) is cst.Return]
    if binding.index is not None:  # `for xb, yb in loader:`: the element at the name's position of each tuple
        returned = [value.elements[binding.index].value if type(value) is cst.Tuple
                    and len(value.elements) > binding.index  # type: ignore[union-attr]
                    and all(type(e) is cst.Element for e in value.elements) else None  # type: ignore[union-attr]
                    for value in returned]
    if not returned or any(value is None for value in returned):
        return _UNKNOWN
    with where.at(point):
        placements = [placement_of(where, value, None, 1) for value in returned]  # type: ignore[arg-type]
    return Placement(True, False) if all(p.float64 and not p.mps for p in placements) else _UNKNOWN


def _moved(ctx: Context, call: cst.Call, receiver: Placement, before: int | None, callers: bool) -> Placement:
    """The placement after `.to(...)`: `to(device)`, `to(dtype)`, `to(device, dtype)`, keywords, `to(other)`."""
    args = positional(call)
    if args is None:
        return _UNKNOWN
    device = keyword_arg(call, "device")
    dtype = keyword_arg(call, "dtype")
    device_expr = device.value if device is not None else None
    dtype_expr = dtype.value if dtype is not None else None
    for arg in args:
        if dtype_kind(ctx, arg.value, before) is not None:
            dtype_expr = arg.value
        elif _device_type(ctx, arg.value, callers) is not None:
            device_expr = arg.value
        else:
            return _UNKNOWN  # a device in a variable, or `to(other_tensor)`: nothing is certain
    float64 = receiver.float64 if dtype_expr is None else dtype_kind(ctx, dtype_expr, before) == "float64"
    mps = receiver.mps if device_expr is None else _device_type(ctx, device_expr, callers) == "mps"
    return Placement(float64, mps)


def _numpy_float64(ctx: Context, expr: cst.BaseExpression, before: int | None, depth: int = 0,
                   callers: bool = False) -> bool:
    """A numpy array that is certainly float64: read by `np.loadtxt`, drawn by `np.random.randn`, made by
    `np.zeros(n)` without a dtype, and slices, transposes and reshapes of one."""
    if depth > 12:
        return False
    kind = type(expr)
    if kind is cst.Name:
        binding = ctx.binding(expr, before)
        returned = unpacked_from_factory(ctx, binding) if binding is not None else None
        if returned is not None:  # `X, y = load_data(path)` with `return arr[:, :-1], arr[:, -1]`
            with ctx.at(returned[1]):
                return _numpy_float64(ctx, returned[0], None, depth + 1)
        if binding is not None and binding.kind == "unpack" and binding.index is not None and not binding.starred \
                and type(binding.value) is cst.Call:  # the same, of a function of another module
            found = returned_by_imported(ctx, binding.value, binding.index)
            if found is not None:
                with found[2].at(found[1]):
                    return _numpy_float64(found[2], found[0], None, depth + 1)
        value, seq = ctx.value_of(expr, before)
        if value is expr:
            # a caller's own parameter is followed to its callers in turn: `fit(data)` -> `self._batch(data[i:j])`
            return callers and _every_call_passes(ctx, expr, lambda reader, passed: _numpy_float64(
                reader, passed, None, depth + 1, callers))
        return _numpy_float64(ctx, value, seq, depth + 1, callers)
    if kind is cst.Subscript:
        return _numpy_float64(ctx, expr.value, before, depth + 1, callers)
    if kind is cst.Attribute:
        if expr.attr.value == "T":
            return _numpy_float64(ctx, expr.value, before, depth + 1, callers)
        # `self.obs` that only one statement of the class assigns (`self.obs = np.random.randn(n, 4)`)
        bindings = ctx.attribute_bindings(expr)
        point = ctx.point_of(bindings[0]) if len(bindings) == 1 and bindings[0].kind == "assign" else None
        if point is None or bindings[0].value is None:
            return False
        with ctx.at(point):  # `self.X = X` of a constructor's parameter: what every construction passes
            return _numpy_float64(ctx, bindings[0].value, None, depth + 1, callers)
    if kind is cst.BinaryOperation and type(expr.operator) is cst.Divide \
            and _integer_array(ctx, expr.left, before) and (_number(expr.right) or _integer_array(ctx, expr.right,
                                                                                                 before)):
        return True  # `np.arange(64) / 10.0`: numpy's true division of an integer array is float64
    if kind is cst.BinaryOperation and type(expr.operator) in _ARITHMETIC:
        # `(features - mean) / std` of a table `np.loadtxt` read
        operands = (expr.left, expr.right)
        return any(_numpy_float64(ctx, operand, before, depth + 1, callers) for operand in operands) \
            and all(_number(operand, ctx) or _numpy_float64(ctx, operand, before, depth + 1, callers)
                    for operand in operands)
    if kind is not cst.Call:
        return False
    qualname = ctx.qualname(expr.func)
    if qualname in _NUMPY_JOINING and keyword_arg(expr, "dtype") is None and expr.args \
            and type(joined := expr.args[0].value) in (cst.Tuple, cst.List) and joined.elements:
        # `np.column_stack((variables, v))` of columns read by `np.loadtxt`
        return all(type(element) is not cst.StarredElement
                   and _numpy_float64(ctx, element.value, before, depth + 1, callers) for element in joined.elements)
    if qualname is not None and not qualname.startswith(("numpy.", "torch.")):
        found = returned_by_imported(ctx, expr)  # `features = load_features(path)` of another module
        if found is None:
            return False
        with found[2].at(found[1]):
            return _numpy_float64(found[2], found[0], None, depth + 1)
    if qualname is not None:
        dtype = keyword_arg(expr, "dtype")
        if dtype is not None:  # `np.array(rows, dtype=float)`, `np.zeros(n, dtype=np.float64)`
            return qualname.startswith("numpy.") and _numpy_float64_type(ctx, dtype.value)
        args = positional(expr)
        if qualname in ("numpy.array", "numpy.asarray") and args and len(args) == 1:
            return _float_literals(args[0].value)  # `np.array([0.5, 1.5, 2.5])`
        if qualname in _FLOAT_UFUNCS and args and len(args) == 1 and len(expr.args) == 1:
            # `np.sin(np.arange(64) / 10.0)`, `np.exp(np.random.rand(64))`
            return _numpy_float64(ctx, args[0].value, before, depth + 1, callers) \
                or _integer_array(ctx, args[0].value, before)
        return qualname in _NUMPY_FLOAT64
    func = expr.func
    if type(func) is cst.Attribute and func.attr.value in _GENERATOR_FLOAT64 and keyword_arg(expr, "dtype") is None:
        generator, _ = ctx.value_of(func.value, before)  # `rng.randn(n)` of `rng = np.random.RandomState(seed)`
        if type(generator) is cst.Call and ctx.qualname(generator.func) in _NUMPY_GENERATORS:
            return True
    returned = returned_by_factory(ctx, expr, methods=True) if type(func) is cst.Attribute else None
    if returned is not None:  # `self.standardized()` returning `(x - x.mean(0)) / x.std(0)`
        with ctx.at(returned[1]):
            return _numpy_float64(ctx, returned[0], None, depth + 1)
    if type(func) is cst.Attribute and func.attr.value == "astype":  # `np.load(path).astype(np.float64)`
        args = positional(expr)
        return bool(args) and _numpy_float64_type(ctx, args[0].value)
    return type(func) is cst.Attribute and func.attr.value in _NUMPY_KEEPING \
        and _numpy_float64(ctx, func.value, before, depth + 1, callers)


def _integer_array(ctx: Context, expr: cst.BaseExpression, before: int | None) -> bool:
    """`np.arange(64)` (of integer bounds, without a dtype), through a name bound to one: an integer array."""
    value, seq = ctx.value_of(expr, before)
    if type(value) is not cst.Call or ctx.qualname(value.func) != "numpy.arange" or keyword_arg(value, "dtype"):
        return False
    args = positional(value)
    return bool(args) and len(args) == len(value.args) and all(type(arg.value) is cst.Integer for arg in args)


def _float_literals(expr: cst.BaseExpression) -> bool:
    """A list or tuple written out of number literals, one of them at least a float (`[0.5, 1.5, 2]`, nested
    lists too): what `np.array` makes float64 of."""
    numbers: list[cst.BaseExpression] = []
    pending = [expr]
    while pending:
        current = pending.pop()
        if type(current) in (cst.List, cst.Tuple):
            if not current.elements or any(type(e) is not cst.Element for e in current.elements):  # type: ignore
                return False
            pending += [element.value for element in current.elements]  # type: ignore[attr-defined]
        elif _number(current):
            numbers.append(current.expression if type(current) is cst.UnaryOperation else current)  # type: ignore
        else:
            return False
    return any(type(number) is cst.Float for number in numbers)


def _numpy_float64_type(ctx: Context, expr: cst.BaseExpression) -> bool:
    """`np.float64`, `"float64"`, or the builtin `float`, which numpy reads as float64."""
    builtin = type(expr) is cst.Name and expr.value == "float" and ctx.binding(expr) is None
    return builtin or ctx.qualname(expr) in _NUMPY_FLOAT64_TYPES or string_value(expr) in ("float64", "double", "f8")


def _number(expr: cst.BaseExpression, ctx: Context | None = None) -> bool:
    """A number literal (`1e-8`, `-1`), or with `ctx` a parameter of a plain function whose every call, in the file
    or in a module importing it, leaves its default number or passes a number (`noise=0.1` of
    `make_regression(n)`): numpy keeps a float64 array's dtype in arithmetic with it."""
    if type(expr) is cst.UnaryOperation:
        expr = expr.expression
    if type(expr) in (cst.Integer, cst.Float):
        return True
    binding = ctx.binding(expr) if ctx is not None and type(expr) is cst.Name else None
    if binding is None or binding.kind != "param" or binding.value is None or not _number(binding.value) \
            or type(binding.statement) is not cst.FunctionDef:
        return False
    return every_call_passes(ctx, binding.statement, expr.value,  # type: ignore[arg-type]
                             lambda reader, passed: _number(passed), defaults=True)


def _device_type(ctx: Context, expr: cst.BaseExpression, callers: bool = False, depth: int = 0) -> str | None:
    """"mps" for `"mps"`, `"mps:0"`, `torch.device("mps")`, and a name always bound to one of those (also through
    another such name: `self.device = DEVICE`); another literal device's type; None otherwise. A device picked at
    run time (`"mps" if available else "cpu"`, or bound under a condition) is left alone. With `callers`, a
    function's parameter is "mps" when every call passes it. A class attribute that nothing reassigns counts
    (`device = "mps"` in the class body, read as `self.device` or `Config.device`), so does a name bound to what a
    function of the file or of another module returns (`device = get_device()`)."""
    if type(expr) is cst.Name or is_self_attribute(expr):  # `self.device = torch.device("mps")` too
        binding = ctx.binding(expr)
        if binding is not None and binding.kind == "import":  # `from config import DEVICE`
            return _imported_device(ctx, expr, depth)
        if callers and binding is not None and binding.kind == "param":
            mps = _every_call_passes(ctx, expr, lambda reader, passed: _device_type(reader, passed) == "mps")
            return "mps" if mps else None
        if binding is None and type(expr) is cst.Attribute and ctx.class_def is not None:
            return _class_device(ctx, ctx.class_def, expr.attr.value)
        if binding is None or binding.kind != "assign" or binding.value is None or not _certain(ctx, binding):
            return None
        expr = binding.value
        point = ctx.point_of(binding)
        if type(expr) is cst.Call and ctx.qualname(expr.func) in _DEVICE and len(expr.args) == 1:
            expr = expr.args[0].value  # `self.device = torch.device(cfg.device)`: the name it is made of
        elif type(expr) is cst.Call and depth < 4:
            # `device = get_device()` of a function of the file or of another module that returns one device (the
            # callee named as the binding's statement names it: a function of the module, or an import)
            with ctx.at(point) if point is not None else contextlib.nullcontext():
                returned = returned_by_factory(ctx, expr)
                found = (*returned, ctx) if returned is not None else returned_by_imported(ctx, expr)
            if found is None:
                return None
            with found[2].at(found[1]):
                return _device_type(found[2], found[0], depth=depth + 1)
        if depth < 4 and point is not None and (type(expr) is cst.Name or type(expr) is cst.Attribute
                                                and type(expr.value) is cst.Name):  # `self.device = settings.DEVICE`
            with ctx.at(point):
                return _device_type(ctx, expr, callers, depth + 1)
    elif type(expr) is cst.Attribute and type(expr.value) is cst.Name:
        binding = ctx.binding(expr.value)
        if binding is None:
            return None
        if binding.kind == "import":  # `settings.DEVICE` of `from pkg import settings`, which nothing here reassigns
            return None if _reassigned(ctx, expr.value.value, expr.attr.value) else _imported_device(ctx, expr, depth)
        if binding.kind == "class" and type(binding.statement) is cst.ClassDef:
            return _class_device(ctx, binding.statement, expr.attr.value)
        # `cfg.device` of `cfg = Config()`, or of a parameter that every call hands `Config()`
        attr = expr.attr.value
        if callers and binding.kind == "param":
            mps = _every_call_passes(ctx, expr.value, lambda reader, passed: _instance_device(reader, passed,
                                                                                                   attr) == "mps")
            return "mps" if mps else None
        return _instance_device(ctx, expr.value, attr)
    if type(expr) is cst.Call and ctx.qualname(expr.func) in _DEVICE and expr.args:
        expr = expr.args[0].value
    text = string_value(expr)
    if text is None:
        return None
    return text.split(":", 1)[0]


def _imported_device(ctx: Context, expr: cst.BaseExpression, depth: int) -> str | None:
    """The device a constant of another module of the project names (`DEVICE = torch.device("mps")` in config.py,
    assigned once at its top level), read there."""
    found = imported_constant(ctx, expr) if depth < 4 else None
    if found is None:
        return None
    value, other = found
    with other.at(other.module_point()):
        return _device_type(other, value, depth=depth + 1)


def _instance_device(ctx: Context, instance: cst.BaseExpression, name: str) -> str | None:
    """The device a config object's attribute names when the object is `Config()` (or a name bound once to it) and
    the class says it: a class attribute, or a dataclass field's default that the construction does not override.
    An attribute set on any object other than `self` anywhere in the file (`cfg.device = args.device`) may be this
    one's: then nothing is known."""
    assigned = ctx.module_fact("assigned attributes", assigned_attributes)
    if any(attribute == name and receiver != "self" for receiver, attribute, _ in assigned):
        return None
    built = evaluator(ctx).value(instance)
    if type(instance) is cst.Name:
        binding = ctx.binding(instance)
        if binding is None or binding.kind != "assign" or binding.value is None or not _certain(ctx, binding):
            return _built_device(built, name)
        instance = binding.value
    if type(instance) is not cst.Call or type(instance.func) is not cst.Name:
        return None
    binding = ctx.binding(instance.func)
    if binding is not None and binding.kind == "import":
        return _built_device(built, name)  # `Config()` of a dataclass of another module
    if binding is None or binding.kind != "class" or type(binding.statement) is not cst.ClassDef:
        return None
    return _class_device(ctx, binding.statement, name, construction=instance)


def _built_device(built: object, name: str) -> str | None:
    """The device type an attribute of a project object names, as the objects floor built the object (a dataclass
    of another module constructed with its defaults, `cfg = Config()` in the `__main__` block); None when the
    object or the attribute is not known."""
    value = built.attrs.get(name) if isinstance(built, Instance) and not (built.generic or built.tainted) else None
    text = value.value if isinstance(value, Const) and isinstance(value.value, str) else None
    return None if text is None else text.split(":", 1)[0]


def _certain(ctx: Context, binding: Binding) -> bool:
    """The binding is the value seen where the call is: in `finish()`, which reads from no node, only one made
    under no condition is (`if mps_available: device = "mps"` is not)."""
    return ctx.reach(binding) == "always" if ctx.ancestors else flow.unconditional(binding.path)


def _class_device(ctx: Context, class_def: cst.ClassDef, name: str, construction: cst.Call | None = None
                  ) -> str | None:
    """The device a plain class attribute names (`device = torch.device("mps")` in the class body), when no method
    assigns `self.<name>` and no statement of the file assigns `<Class>.<name>`. A dataclass's or an annotated
    field is left alone: each construction may pass its own; with the `construction` of a dataclass that passes
    nothing (`TrainConfig()`), the field's default is what the instance holds."""
    facts = class_facts(ctx, class_def)
    defaults = construction is not None and not construction.args and bool(class_def.decorators) \
        and all(ctx.qualname(d.decorator) == "dataclasses.dataclass" for d in class_def.decorators)
    if class_def.decorators and not defaults or facts.dynamic or name in facts.writers:
        return None
    values = [small.value for line in class_def.body.body if type(line) is cst.SimpleStatementLine
              for small in line.body if type(small) is cst.Assign
              and any(type(target.target) is cst.Name and target.target.value == name for target in small.targets)
              or defaults and type(small) is cst.AnnAssign and type(small.target) is cst.Name
              and small.target.value == name]
    if len(values) != 1 or values[0] is None or _reassigned(ctx, class_def.name.value, name):
        return None
    value = values[0]
    if type(value) is cst.Call and ctx.qualname(value.func) in _DEVICE and value.args:
        value = value.args[0].value
    text = string_value(value)
    return None if text is None else text.split(":", 1)[0]


def _reassigned(ctx: Context, owner: str, name: str) -> bool:
    """`Config.device = args.device` somewhere in the file (a command line overriding the default)."""
    assigned = ctx.module_fact("assigned attributes", assigned_attributes)
    return any(receiver == owner and attribute == name for receiver, attribute, _ in assigned)


def _every_call_passes(ctx: Context, parameter: cst.Name, holds: Callable[[Context, cst.BaseExpression], bool]
                       ) -> bool:
    """`parameter` is a parameter of the plain function the code is in, which the file calls, and every call passes
    it a value that `holds` accepts: `to_tensor(features, "mps")`."""
    function = ctx.function
    binding = ctx.binding(parameter)
    if function is None or binding is None or binding.kind != "param" or binding.statement is not function:
        return False
    class_def = ctx.class_of_method(function)
    if class_def is not None and function.name.value == "__init__":  # `Trainer(model, table)`
        return every_construction_passes(ctx, class_def, function, parameter.value, holds)
    return every_call_passes(ctx, function, parameter.value, holds, methods=True)


def _names_float64(ctx: Context, expr: cst.BaseExpression, before: int | None) -> bool:
    """`torch.float64`, `torch.DoubleTensor` or "torch.DoubleTensor" as the argument of `.type(...)`."""
    return (dtype_kind(ctx, expr, before) == "float64" or ctx.qualname(expr) in _DOUBLE_CONSTRUCTORS
            or string_value(expr) in ("torch.DoubleTensor", "torch.mps.DoubleTensor"))
