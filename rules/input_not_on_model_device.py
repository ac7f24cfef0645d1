"""SC211 input-not-on-model-device: a model moved to a device, fed batches from a CPU loader or list never moved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from shapecheck.engine import Context, Invalid, Rule
from shapecheck.engine.context import Binding, CallSite, Point
from shapecheck.engine.syntax import is_self_attribute, keyword_arg, last_name
from shapecheck.engine.walker import walk
from shapecheck.loops.first_party import imported_functions, returned_by_imported
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import (
    callers, every_call_passes, every_method_caller, helper_callers, method_callers, method_calls,
)
from shapecheck.objects.evaluator import DATA_PARALLEL
from shapecheck.objects.factories import returned_by_factory
from shapecheck.objects.modules import RETURNS_SELF
from shapecheck.objects.stored import constructor_arguments, stored_parameter
from shapecheck.loops.devices import (creates_on_cpu, device_kept_from, moves_to_cpu, moves_to_device, returned_on_cpu,
                                       yields_on_cpu)
from shapecheck.loops.mode_layers import methods_run_before
from shapecheck.shapes.evaluator import evaluator
from shapecheck.objects.tensor_facts import argument_of

_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
# Wrappers that hand on the loader's batches as they are: `enumerate(loader)`, `tqdm(loader)`, `iter(loader)`.
_PASS_THROUGH = frozenset({"enumerate", "tqdm", "iter", "zip"})
# Those whose other arguments only describe the wrapping: `enumerate(loader, 1)`, `tqdm(loader, desc="train")`.
# Not `zip(a, b)` (a batch of each) or `iter(read, None)` (a callable and its sentinel).
_DECORATED = frozenset({"enumerate", "tqdm"})
# Methods that return the module they are called on and leave it where it is; a move (`.to(device)`, or `.cpu()` and
# `.type(torch.FloatTensor)` that may take it back) is read by `moves_to_device` or ends the chain.
_SAME_MODULE = RETURNS_SELF - {"to", "cuda", "cpu", "to_empty", "type"}

_MESSAGE = ("`{model}` was moved to a device but `{batch}` comes from {source} on the CPU and is never moved: "
            "\"Expected all tensors to be on the same device\"; move it with `{batch} = {batch}.to(device)`")


def _unmoved_batches(definition: cst.FunctionDef) -> Iterator[tuple[str, str, str]]:
    """(model, batch, loader) for each `model(batch)` in a plain function's `for ... in loader:` loop, `model` and
    `loader` being its parameters, and `batch` a loop variable (or unpacked from one: `x, y = batch`) that nothing
    in the function rebinds or moves. Read from the syntax alone: the function is another module's."""
    params = [param.name.value for param in definition.params.params]
    if params[:1] in (["self"], ["cls"]):
        return
    targets = {name.value for node in walk(definition) if type(node) is cst.For
               for name in walk(node.target) if type(name) is cst.Name}
    rebound: set[str] = set()
    unpacked: set[str] = set()
    for node in walk(definition.body):
        kind = type(node)
        if kind is cst.Assign:
            names = {n.value for target in node.targets for n in walk(target.target) if type(n) is cst.Name}
            unpacks = type(node.value) is cst.Name and node.value.value in targets  # `x, y = batch`
            (unpacked if unpacks else rebound).update(names)
        elif kind in (cst.AugAssign, cst.AnnAssign) and type(node.target) is cst.Name:
            rebound.add(node.target.value)
        elif kind is cst.AsName and type(node.name) is cst.Name:
            rebound.add(node.name.value)
        elif kind is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name \
                and node.func.attr.value in ("to", "cuda"):
            rebound.add(node.func.value.value)  # moved, or meant to be
    for loop in walk(definition.body):
        if type(loop) is not cst.For:
            continue
        loader = _unwrapped(loop.iter)
        if type(loader) is not cst.Name or loader.value not in params or loader.value in rebound:
            continue
        batches = {n.value for n in walk(loop.target) if type(n) is cst.Name} | unpacked
        for call in walk(loop.body):
            if type(call) is not cst.Call or type(call.func) is not cst.Name or not call.args:
                continue
            model, first = call.func.value, call.args[0]
            fed = _batch_name(first.value)  # `x`, or a part of the batch: `batch[0]`, `batch["image"]`
            if model in params and model not in rebound and first.keyword is None and not first.star \
                    and fed is not None and fed.value in batches - rebound:
                yield model, fed.value, loader.value


def _is_builtin_call(expr: cst.BaseExpression | None, name: str) -> bool:
    """`next(x)` / `iter(x)`: a call of the builtin by its name with one positional argument."""
    return type(expr) is cst.Call and type(expr.func) is cst.Name and expr.func.value == name \
        and len(expr.args) == 1 and expr.args[0].keyword is None and not expr.args[0].star


# A binding, as its statement, name and position in an unpacking: the same for every lint that keeps the statement.
_Key = tuple[cst.CSTNode, str, int | None]


def _literal_item(ctx: Context, subscript: cst.Subscript, before: int | None) -> cst.BaseExpression | None:
    """The element a literal key or index picks from a dict or list literal the subscripted name is bound to:
    `loaders["train"]` with `loaders = {"train": DataLoader(...), "val": ...}`."""
    if len(subscript.slice) != 1 or type(subscript.slice[0].slice) is not cst.Index:
        return None
    return _item_of(subscript.slice[0].slice.value, ctx.value_of(subscript.value, before)[0])


def _item_of(key: cst.BaseExpression, container: cst.BaseExpression) -> cst.BaseExpression | None:
    """The element a literal key or index picks from a dict or list literal; else None."""
    if type(container) is cst.Dict and type(key) is cst.SimpleString:
        if any(type(element) is not cst.DictElement for element in container.elements):
            return None  # `{**defaults, ...}`
        found = [element.value for element in container.elements  # type: ignore[union-attr]
                 if type(element.key) is cst.SimpleString and element.key.evaluated_value == key.evaluated_value]
        return found[0] if len(found) == 1 else None
    if type(container) in (cst.List, cst.Tuple) and type(key) is cst.Integer:
        index = key.evaluated_value
        elements = container.elements  # type: ignore[union-attr]
        if index < len(elements) and not any(type(e) is cst.StarredElement for e in elements):
            return elements[index].value
    return None


def _batch_name(expr: cst.BaseExpression) -> cst.Name | None:
    """The batch a model is called on: `x`, or the name a constant key or index picks a part of (`batch["past"]`,
    `batch[0]`), which comes from where the batch does."""
    if type(expr) is cst.Subscript and len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index \
            and type(expr.slice[0].slice.value) in (cst.SimpleString, cst.Integer):
        expr = expr.value
    return expr if type(expr) is cst.Name else None


def _key(binding: Binding) -> _Key:
    return binding.statement, binding.name, binding.index


def _unwrapped(iterable: cst.BaseExpression) -> cst.BaseExpression:
    """The loader inside `enumerate(loader)`, `tqdm(loader)`, ..."""
    while type(iterable) is cst.Call and type(iterable.func) is cst.Name and iterable.func.value in _PASS_THROUGH \
            and iterable.args and iterable.args[0].keyword is None and not iterable.args[0].star \
            and (len(iterable.args) == 1 or iterable.func.value in _DECORATED):
        iterable = iterable.args[0].value
    return iterable


class InputNotOnModelDevice(Rule):
    code = "SC211"
    name = "input-not-on-model-device"
    message = ("the model was moved to a device but the batch comes from the CPU and is never moved: \"Expected all "
               "tensors to be on the same device\"; move it with `.to(device)`")
    triggers = (".to(", ".cuda(")
    # The visits gather the moves, and the calls of models on batches in loops (or on a dataset's item outside one);
    # `finish` replays them in order and decides with the whole file.
    scope = "statement"
    gathered = ("_events",)
    docs = """
        ## What it does
        Finds a model moved to a device (`model = Net().to(device)`, `model.cuda()`) that is called, in a loop, on
        a batch that comes straight from a `DataLoader` or a list whose tensors are certainly on the CPU and that
        is never moved (`for x, y in loader: out = model(x)`), or on an item of a torchvision dataset, in a loop
        or not (`x, y = test_data[0][0], test_data[0][1]`, then `model(x)`). The loader counts when its dataset is a
        torchvision
        dataset or a `TensorDataset` of tensors that are not moved (also one a same-file function returns:
        `DataLoader(make_split(96, seed=0))`), with no `collate_fn`; the list when its
        elements are made by torch factories without `device=`. Either may be an item of a dict or list literal
        (`for x, y in loaders["train"]:`).

        ## Why is this bad?
        The weights are on the GPU and the batch is on the CPU: the first layer raises "Expected all tensors to
        be on the same device". The primer: "Tensors must be on the same device for an op to work. Mixing CPU and
        MPS tensors raises. Move both to the same device before combining", with the idiom `model =
        MyModel().to(device)` and `x = x.to(device)`. The course chapter's error table: "Expected all tensors to
        be on the same device | Model is on GPU but data is on CPU (or vice versa) | Call .to(device) on both
        model and data".

        A same-file helper (`def validate(model, loader): for x, y in loader: model(x)`) is reported when every
        call of it, at module level or in a plain function such as `main()`, hands it a moved model and such a
        loader (`validate(net.to(device), test_loader)`, or a trainer's `accuracy(self.model, self.val_loader)`
        where its constructor moves `self.model` and builds `self.val_loader` from CPU data); a helper of one of the
        project's modules (`from engine import evaluate`) is reported at those calls when its loop feeds its model
        parameter a batch of its loader parameter that nothing in it rebinds or moves. A batch unpacked in the loop body (`for step, batch in
        enumerate(loader): x, y = batch`) is the loader's as the loop variable is, and so is a batch drawn by hand
        in a loop (`x, y = next(train_iter)` with `train_iter = iter(loader)`). So is a trainer's: `self.model =
        model.to(device)` called on batches of `self.train_loader`, when every construction of the trainer hands it
        such a loader, in this file or in the module that imports it to build the trainer. A loader or list a
        factory returns (`batches(3)`, `train_loader, val_loader = get_loaders(32)` with one `return`), of the file
        or of a project module it imports, is read in the factory, and so are the tensors of
        `TensorDataset(*make_split(96))` and their slices (`x[:n]`). A method that moves `self.model` in place
        (`self.model.to(self.device)`, in its own body outside any `if`) and calls it on the batches of a loader
        parameter is reported when every call of the method (`wrapper.fit(loader)`) hands it such a loader; so is
        one whose class's `__init__` moved the model (`trainer.evaluate(val_loader)`). A
        `TensorDataset`'s tensors may be arithmetic of CPU tensors and numbers (`x @ torch.randn(5, 1) + 0.1 *
        torch.randn(64, 1)`). A predictor class whose `__init__` moves `self.model` (outside any `if`, nothing else
        in the class setting it or moving it back) is reported where it calls the model, in a loop or not, on what
        a function or method makes on the CPU in every `return` (`x = self.featurize(rows)` of
        `return torch.from_numpy(np.stack(feats))`, cast to a dtype or not, or a local made so and filled in place:
        `ids = torch.full(...)`, `ids[i, :n] = ...`, `return ids`), of the file or of a project module, a method
        or the `__call__` of a project object (`ids = self.tokenizer(texts)` with `self.tokenizer =
        HashTokenizer()` of another module), following a `return` of another such call.

        Such a predictor or trainer class is also reported where a method calls `self.model` on the batches of a
        CPU loader the method builds itself (`loader = DataLoader(WindowDataset(series, 24, 6))` in `fit`, or of
        the dataset every call of the method hands it: `forecaster.fit(WindowDataset(series))`, here or in a
        module importing the class), or that
        its constructor builds from a dataset every construction of the class hands it (`self.val_loader =
        DataLoader(val_set)`, `Trainer(net, train_set, TensorDataset(x, y), device)`), or on a part of one
        (`batch["past"]`, `batch[0]`), also where a method (`_step(self, x, y)`) runs `self.model(x)` on what every
        call of it in the class hands it from such a loop (`loss = self._step(x, y)`). The class's model may be
        moved by its constructor, or by another method that the calls of this one follow on the same object, here
        or in a module importing the class (an estimator's `fit` moving `self.module`, then `typer =
        CellTyper(...).fit(x, y)` and `typer.predict(x)`). A `Dataset` of the project counts as CPU data when every
        `return` of its `__getitem__` gives numpy arrays (`np.stack(...)`, `x.astype(np.float32)`), numbers or
        tensors a torch factory makes without `device=` (`torch.from_numpy(window)`), or tuples, lists or dicts
        of them, reading the attributes its `__init__` sets once (`self.series = series.astype(np.float32)`, or
        `self.x = torch.tensor(x)` of the numpy array every construction hands it); so
        does a loader whose `collate_fn` is a project function whose every `return` builds such data.

        Not reported: a model wrapped in `DataParallel` (it scatters CPU batches itself), a model moved to
        `"cpu"`, a loader with any other `collate_fn` or a dataset of this project's own whose items the code
        does not state so (either may move the data: `.to(device)`, a transform, a constructor argument), and a
        batch that is moved or rebound before the call.

        ## Example
        ```python
        model = Net().to(device)
        for images, labels in train_loader:
            loss = criterion(model(images), labels)
        ```

        ## Use instead
        ```python
        model = Net().to(device)
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            loss = criterion(model(images), labels)
        ```
    """
    VALID = [
        # The split's loader comes from a dict merged with others the code does not show.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        def run(extra_loaders):
            model = nn.Linear(8, 1).cuda()
            data = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
            loaders = {"train": DataLoader(data, batch_size=8), **extra_loaders}
            with torch.no_grad():
                for x, y in loaders["train"]:
                    model(x)
        """,
        # The quickstart tutorial after its fix: the sample moved before the prediction.
        """
        import torch
        from torchvision import datasets
        from torchvision.transforms import ToTensor
        test_data = datasets.FashionMNIST(root="data", train=False, download=True, transform=ToTensor())
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10)).to(device)
        model.eval()
        x, y = test_data[0][0], test_data[0][1]
        with torch.no_grad():
            x = x.to(device)
            pred = model(x)
        """,
        # Factories whose loaders may move the data, or that return one of several things.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        def get_loaders(dataset):
            return DataLoader(dataset, batch_size=8, collate_fn=to_device), None
        def pick(n):
            if n:
                return DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
            return gpu_batches
        class Trainer:
            def __init__(self, model, loader):
                self.model = model.cuda()
                self.loader = loader
            def run(self):
                for x, in self.loader:
                    out = self.model(x)
        loader, _ = get_loaders(ds)
        Trainer(nn.Linear(4, 2), loader).run()
        Trainer(nn.Linear(4, 2), pick(1)).run()
        """,
        """
        import torch
        from torchvision import datasets, transforms
        train_loader = torch.utils.data.DataLoader(datasets.MNIST("data", train=True, download=True,
                                                                  transform=transforms.ToTensor()), batch_size=64)
        model = Net().to(device)
        for batch_idx, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            output = model(data)
        """,
        """
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        # the dataset holds tensors already on the device
        X, y = X.to(device), y.to(device)
        loader = DataLoader(TensorDataset(X, y), batch_size=32)
        model = Net().to(device)
        for xb, yb in loader:
            pred = model(xb)
        """,
        """
        import torch
        from torchvision import datasets
        loader = torch.utils.data.DataLoader(datasets.CIFAR10("data"), batch_size=128)
        model = torch.nn.DataParallel(Net()).cuda()
        for inputs, targets in loader:
            outputs = model(inputs)
        """,
        # DataParallel under another name: the wrapper is known by what the import binds, not by its spelling.
        """
        import torch
        from torch.nn.parallel import DataParallel as DP
        from torchvision import datasets
        loader = torch.utils.data.DataLoader(datasets.CIFAR10("data"), batch_size=128)
        model = DP(Net()).cuda()
        for inputs, targets in loader:
            outputs = model(inputs)
        """,
        """
        import torch
        from torchvision import datasets
        device = torch.device("cpu")
        model = Net().to(device)
        loader = torch.utils.data.DataLoader(datasets.MNIST("data"), batch_size=64)
        for x, y in loader:
            out = model(x)
        """,
        """
        import torch
        from torch.utils.data import DataLoader
        loader = DataLoader(MyDataset(root, device=device), batch_size=8, collate_fn=collate)
        model = Net().to(device)
        for x, y in loader:
            out = model(x)
        """,
        """
        import torch
        model = Net().to(torch.float64)
        samples = [torch.randn(1, 3, 32, 32) for _ in range(10)]
        for x in samples:
            y = model(x)
        """,
        # The helper moves each batch itself; the other is handed a model left on the CPU.
        """
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        device = torch.device("cuda")
        def evaluate(model, loader):
            for images, labels in loader:
                images, labels = images.to(device), labels.to(device)
                correct = (model(images).argmax(1) == labels).sum()
        def predict(model, loader):
            return [model(x) for x, in loader]
        def profile(model, loader):
            for x, y in loader:
                out = model(x)
        loader = DataLoader(TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,))), batch_size=16)
        net = torch.nn.Linear(8, 2)
        evaluate(net.to(device), loader)
        profile(torch.nn.Linear(8, 2), loader)
        """,
        # `main()` moves the batch before unpacking it, or hands over a model it never moved; a method's call of the
        # helper is not read (its names need the receiver).
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        def train(model, loader):
            for step, batch in enumerate(loader):
                batch = [t.cuda() for t in batch]
                x, y = batch
                out = model(x)
        def fit(model, loader):
            for step, batch in enumerate(loader):
                x, y = batch
                out = model(x)
        class Runner:
            def run(self, loader):
                self.net = nn.Linear(4, 2).cuda()
                fit(self.net, loader)
        def main():
            loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 2)), batch_size=8)
            train(nn.Linear(4, 2).cuda(), loader)
            model = nn.Linear(4, 2)
            fit(model, loader)
        """,
        # Trainers that move each batch, keep the model where it was given, or are handed a loader with a collate_fn.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        class Mover:
            def __init__(self, model, loader, device):
                self.device = device
                self.model = model.to(device)
                self.loader = loader
            def run(self):
                for x, y in self.loader:
                    x = x.to(self.device)
                    out = self.model(x)
        class Keeper:
            def __init__(self, model, loader):
                self.model = model
                self.loader = loader
            def run(self):
                for x, y in self.loader:
                    out = self.model(x)
        class Collated:
            def __init__(self, model, loader):
                self.model = model.cuda()
                self.loader = loader
            def run(self):
                for x, y in self.loader:
                    out = self.model(x)
        def main():
            loader = DataLoader(TensorDataset(torch.randn(32, 6), torch.randn(32, 2)), batch_size=8)
            Mover(nn.Linear(6, 2), loader, "cuda").run()
            Keeper(nn.Linear(6, 2).cuda(), loader).run()
            Collated(nn.Linear(6, 2), DataLoader(dataset, batch_size=8, collate_fn=to_gpu)).run()
        """,

        # One batch drawn before the loop, moved in it (overfitting a batch to check the model).
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        model = nn.Linear(8, 1).cuda()
        x, y = next(iter(DataLoader(TensorDataset(torch.randn(64, 8), torch.randn(64, 1)), batch_size=32)))
        for step in range(100):
            x, y = x.cuda(), y.cuda()
            loss = nn.functional.mse_loss(model(x), y)
        """,
        # aai-institute/pyDVL's TorchModel after its fix: `fit` moves the model and each batch; a wrapper moving the
        # model only under a flag, over a loader whose dataset's device is unknown.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        class TorchModel:
            def __init__(self, model, loss, device="cuda"):
                self.model, self.loss, self.device = model, loss, device
            def fit(self, loader, epochs=3):
                self.model.to(self.device)
                optimizer = torch.optim.Adam(self.model.parameters())
                for _ in range(epochs):
                    for x, y in loader:
                        x, y = x.to(self.device), y.to(self.device)
                        batch_loss = self.loss(self.model(x), y)
                        optimizer.zero_grad()
                        batch_loss.backward()
                        optimizer.step()
        class Flagged:
            def __init__(self, net, use_cuda):
                self.net, self.use_cuda = net, use_cuda
            def predict(self, loader):
                if self.use_cuda:
                    self.net.cuda()
                return [self.net(x) for x in loader]
            def score(self, loader):
                self.net.cuda()
                for x, y in loader:
                    self.net(x)
        x = torch.randn(64, 5)
        y = x @ torch.randn(5, 1) + 0.1 * torch.randn(64, 1)
        TorchModel(nn.Linear(5, 1), nn.MSELoss()).fit(DataLoader(TensorDataset(x, y), batch_size=16))
        flagged = Flagged(nn.Linear(5, 1), True)
        flagged.predict(DataLoader(TensorDataset(x), batch_size=16))
        flagged.score(make_loader())
        """,
        # Serving classes whose featurizer moves what it builds, whose model is moved only when asked, or wrapped in
        # DataParallel, which scatters CPU inputs to its devices.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        class Scorer:
            def __init__(self, device):
                self.device = device
                self.model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 4))
                self.model.to(self.device)
            def featurize(self, rows):
                return torch.from_numpy(np.stack(rows)).float().to(self.device)
            def predict(self, rows):
                x = self.featurize(rows)
                with torch.no_grad():
                    return self.model(x).argmax(1)
        class Tagger:
            def __init__(self, use_cuda):
                self.model = nn.Linear(64, 4)
                if use_cuda:
                    self.model.cuda()
            def encode(self, rows):
                return torch.tensor([list(row) for row in rows])
            def tag(self, rows):
                x = self.encode(rows)
                return self.model(x)
        class Ensemble:
            def __init__(self):
                self.model = nn.DataParallel(nn.Linear(64, 4)).cuda()
            def encode(self, rows):
                return torch.tensor([list(row) for row in rows])
            def predict(self, rows):
                x = self.encode(rows)
                return self.model(x)
        """,
        # The split a function of the file makes is put on the device there, or is a dataset of the project's own.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        def toy_regression(n, device):
            x = torch.randn(n, 4, device=device)
            return TensorDataset(x, x.sum(1, keepdim=True))
        def wav_split(root):
            return SpeechCommands(root)
        net = nn.Linear(4, 1).to(device)
        for x, y in DataLoader(toy_regression(256, device), batch_size=32):
            loss = nn.functional.mse_loss(net(x), y)
        for wav, label in DataLoader(wav_split("data"), batch_size=32):
            scores = net(wav)
        """,
    ]
    INVALID = [
        # The dataset comes from a function of the file that makes its tensors on the CPU.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        def noisy_blobs(n, seed):
            g = torch.Generator().manual_seed(seed)
            points = torch.randn(n, 2, generator=g)
            labels = torch.randint(0, 2, (n,), generator=g)
            return TensorDataset(points, labels)
        def main():
            device = "cuda" if torch.cuda.is_available() else "cpu"
            clf = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
            val_loader = DataLoader(noisy_blobs(200, seed=1), batch_size=50)
            with torch.no_grad():
                for points, labels in val_loader:
                    correct = (clf(points).argmax(1) == labels).sum()
        """,
        # The project's own `DataParallel`, an ensemble of copies of a model on one device: no scatter of batches.
        """
        import torch
        import torch.nn as nn
        from torchvision import datasets
        class DataParallel(nn.Module):
            def __init__(self, model, copies=2):
                super().__init__()
                self.copies = nn.ModuleList([model for _ in range(copies)])
            def forward(self, x):
                return torch.stack([m(x) for m in self.copies]).mean(0)
        loader = torch.utils.data.DataLoader(datasets.CIFAR10("data"), batch_size=128)
        model = DataParallel(Net()).cuda()
        for inputs, targets in loader:
            outputs = model(inputs)
        """,
        # A regressor wrapper moving its network in `train`, looping over the loader it is handed unmoved; the
        # dataset's tensors are arithmetic of CPU tensors.
        """
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        class Regressor:
            def __init__(self, net):
                self.net = net
            def train(self, batches, steps=100):
                self.net.cuda()
                opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
                for inputs, targets in batches:
                    err = (self.net(inputs) - targets).pow(2).mean()
                    opt.zero_grad()
                    err.backward()
                    opt.step()
        features = -torch.rand(256, 3) * 2.0
        reg = Regressor(torch.nn.Linear(3, 1))
        batches = DataLoader(TensorDataset(features, torch.rand(256, 1) * 2 - 1), batch_size=32)
        reg.train(batches)
        """,
        # Loaders kept in a dict by split.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        device = "cuda"
        model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
        data = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
        loaders = {"train": DataLoader(data, batch_size=8, shuffle=True), "val": DataLoader(data, batch_size=8)}
        opt = torch.optim.Adam(model.parameters())
        for epoch in range(3):
            for x, y in loaders["train"]:
                opt.zero_grad()
                nn.functional.mse_loss(model(x), y).backward()
                opt.step()
        """,
        # The PyTorch quickstart tutorial before its fix: one test sample predicted on the CPU.
        """
        import torch
        from torchvision import datasets
        from torchvision.transforms import ToTensor
        test_data = datasets.FashionMNIST(root="data", train=False, download=True, transform=ToTensor())
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10)).to(device)
        model.eval()
        x, y = test_data[0][0], test_data[0][1]
        with torch.no_grad():
            pred = model(x)
        """,
        # A trainer handed the loaders a same-file factory returns, and a list of CPU batches another one makes.
        Invalid("""
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        def get_loaders(batch_size):
            train = TensorDataset(torch.randn(256, 12), torch.randint(0, 3, (256,)))
            val = TensorDataset(torch.randn(64, 12), torch.randint(0, 3, (64,)))
            return DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(val, batch_size=batch_size)
        def batches(n):
            return [(torch.randn(8, 12), torch.randint(0, 3, (8,))) for _ in range(n)]
        class Trainer:
            def __init__(self, model, train_loader, device):
                self.device = device
                self.model = model.to(device)
                self.train_loader = train_loader
            def train_epoch(self):
                for x, y in self.train_loader:
                    loss = nn.functional.cross_entropy(self.model(x), y)
        train_loader, val_loader = get_loaders(32)
        Trainer(nn.Linear(12, 3), train_loader, torch.device("cuda")).train_epoch()
        Trainer(nn.Linear(12, 3), batches(4), torch.device("cuda")).train_epoch()
        """),
        # The loader seen through a progress bar with a description, counted from 1, or a progress bar's name.
        Invalid("""
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        from tqdm import tqdm
        loader = DataLoader(TensorDataset(torch.randn(500, 20), torch.randint(0, 5, (500,))), batch_size=50)
        model = torch.nn.Linear(20, 5).cuda()
        for epoch in range(3):
            for x, y in tqdm(loader, desc=f"epoch {epoch}"):
                out = model(x)
            for batch_idx, (data, target) in enumerate(loader, 1):
                out = model(data)
            pbar = tqdm(loader)
            for x, y in pbar:
                out = model(x)
        """, count=3),
        """
        import torch
        from torchvision import datasets, transforms
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        train_set = datasets.FashionMNIST("data", train=True, download=True, transform=transforms.ToTensor())
        train_loader = torch.utils.data.DataLoader(train_set, batch_size=64, shuffle=True)
        model = Net().to(device)
        for epoch in range(10):
            for images, labels in train_loader:
                optimizer.zero_grad()
                loss = criterion(model(images), labels.to(device))
                loss.backward()
                optimizer.step()
        """,
        """
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        X = torch.randn(1000, 20)
        y = torch.randint(0, 2, (1000,))
        loader = DataLoader(TensorDataset(X, y), batch_size=32)
        def train(model):
            model.cuda()
            for i, (xb, yb) in enumerate(loader):
                xb.to("cuda")
                pred = model(xb)
        """,
        """
        import torch
        model = torch.nn.Linear(10, 2).cuda()
        batches = [torch.randn(8, 10) for _ in range(4)]
        for x in batches:
            out = model(x)
        """,
        # A same-file helper handed the moved model and the CPU loader.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        def validate(model, loader):
            model.eval()
            with torch.no_grad():
                for images, labels in loader:
                    correct = (model(images).argmax(1) == labels).sum().item()
        test_loader = DataLoader(TensorDataset(torch.rand(64, 1, 28, 28), torch.randint(0, 10, (64,))), batch_size=32)
        net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
        validate(net.to(device), test_loader)
        """,
        # The script's `main()` builds both and hands them to `train`, which unpacks each batch in the loop body.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        def train(model, loader, optimizer, epoch):
            for step, batch in enumerate(loader):
                x, y = batch
                loss = nn.functional.cross_entropy(model(x), y)
        def main():
            device = torch.device("cuda")
            model = nn.Linear(12, 3).to(device)
            loader = DataLoader(TensorDataset(torch.randn(32, 12), torch.randint(0, 3, (32,))), batch_size=8)
            for epoch in range(3):
                train(model, loader, None, epoch)
        if __name__ == "__main__":
            main()
        """,
        # A trainer that moves the model it is given and loops over the CPU loader it was given.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        class Trainer:
            def __init__(self, model, train_loader, device):
                self.model = model.to(device)
                self.train_loader = train_loader
            def train_epoch(self):
                for x, y in self.train_loader:
                    loss = nn.functional.cross_entropy(self.model(x), y)
        def main():
            loader = DataLoader(TensorDataset(torch.randn(32, 6), torch.randint(0, 2, (32,))), batch_size=8)
            Trainer(nn.Linear(6, 2), loader, torch.device("cuda")).train_epoch()
        """,
        # Batches drawn by hand from an iterator over the loader.
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        model = nn.Linear(8, 1).to("cuda")
        loader = DataLoader(TensorDataset(torch.randn(256, 8), torch.randn(256, 1)), batch_size=32, shuffle=True)
        train_iter = iter(loader)
        for step in range(100):
            try:
                x, y = next(train_iter)
            except StopIteration:
                train_iter = iter(loader)
                x, y = next(train_iter)
            loss = nn.functional.mse_loss(model(x), y)
        """,
        # A serving class (rxn_yield_context's evaluator before its fix): the model is moved in `__init__`, the
        # features a method builds with `torch.from_numpy` stay on the CPU.
        """
        import numpy as np
        import torch
        import torch.nn as nn
        class SentimentService:
            def __init__(self, vocab):
                self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
                self.vocab = vocab
                self.model = nn.EmbeddingBag(len(vocab), 2)
                self.model.to(self.device)
                self.model.eval()
            def encode(self, texts):
                ids = [[self.vocab.get(tok, 0) for tok in text.split()][:32] for text in texts]
                return torch.from_numpy(np.array([row + [0] * (32 - len(row)) for row in ids])).long()
            def predict(self, texts):
                tokens = self.encode(texts)
                with torch.no_grad():
                    return self.model(tokens).argmax(1).tolist()
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # What the visits saw, in order, for `finish` to replay: ("moved", binding) for `model.cuda()`, which moves
        # the module bound there from then on; ("call", ...) for `model(x)` in a loop (or on a torchvision dataset's
        # item outside one) and ("stored", ...) for a trainer's `self.model(x)`, each with the bindings whose move
        # would make its model a moved one (see `_moved_parts`) and what decides it then.
        self._events: list[tuple] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        ctx = self.ctx
        if type(func) is cst.Attribute:
            if type(func.value) is cst.Name and type(ctx.parent) is cst.Expr and moves_to_device(ctx, node):
                binding = ctx.binding(func.value)  # `model.cuda()`: the module moves in place
                if binding is not None:
                    self._events.append(("moved", _key(binding)))
            elif node.args and _batch_name(node.args[0].value) is not None \
                    and node.args[0].keyword is None and not node.args[0].star:
                batch = _batch_name(node.args[0].value)
                if ctx.loop is not None:
                    self._note_stored(node, func, batch, node.args[0].value)  # type: ignore[arg-type]
                else:
                    # a trainer's `_step(self, x, y)`: `self.model(x)` on what the class's loops hand it, or on a
                    # part of it (`_step(self, batch)` running `self.model(batch["inputs"])`)
                    parameter = self._handed_parameter(batch)  # type: ignore[arg-type]
                    if parameter is not None:
                        self._events.append(("handed", node, ctx.code(func), ctx.code(node.args[0].value),
                                             parameter, ctx.function, ctx.class_def))
            if is_self_attribute(func) and node.args and type(node.args[0].value) is cst.Name \
                    and node.args[0].keyword is None and not node.args[0].star:
                self._note_made(node, func, node.args[0].value)
            return
        if type(func) is not cst.Name or not node.args:
            return
        first = node.args[0]
        batch = _batch_name(first.value)
        if first.keyword is not None or first.star or batch is None:
            return
        keys, moved = self._moved_model(func)
        if ctx.loop is None:  # one sample of a dataset, run by hand: `x, y = test_data[0][0], test_data[0][1]`
            source = self._dataset_item(batch) if (moved or keys) and batch is first.value else None
            if source is not None:
                message = _MESSAGE.format(model=func.value, batch=batch.value, source=source)
                self._events.append(("call", keys, moved, (node, message, None)))
            return
        # A moved model is reported when the batch is from a CPU loader; another may be a helper's parameter.
        source = self._cpu_source(batch) if moved or keys else None
        # `model(batch[0])`, `model(batch["image"])`: a part of the batch, from where the batch comes
        helper = self._helper(node, func, batch) if not moved else None
        if source is not None or helper is not None:
            message = _MESSAGE.format(model=func.value, batch=self.ctx.code(first.value), source=source)
            self._events.append(("call", keys, moved, (node, message if source is not None else None, helper)))

    def _note_stored(self, node: cst.Call, model: cst.Attribute, batch: cst.Name, passed: cst.BaseExpression
                     ) -> None:
        """A trainer's `self.model(x)`, with `self.model = model.to(device)` and `x` from its `self.train_loader`:
        the trainer's constructions say what loader it was given. `passed`: the argument (`x`, or `batch["x"]`)."""
        keys, moved = self._moved_parts(self.ctx.value_of(model)[0])
        here = self._moved_in_method(model)
        if not keys and not moved and not here and self.ctx.class_def is None:
            return
        loop = self._batch_loop(batch)
        iterable = loop and _unwrapped(loop.iter)
        function = self.ctx.function
        if (here or self.ctx.class_def is not None) and type(iterable) is cst.Name and function is not None:
            # `def fit(self, loader): self.model.to(self.device)` then `self.model(x)` over the loader parameter, or
            # the model moved by the class's constructor (read in `finish`): the method's calls say what loader it
            # was given
            source = self.ctx.binding(iterable)
            if source is not None and source.kind == "param" and source.statement is function:
                self._events.append(("method", node, self.ctx.code(model), batch.value, function, iterable.value,
                                     None if here else self.ctx.class_def))
                return
        stored = stored_parameter(self.ctx, iterable) if iterable is not None and batch is passed else None
        if stored is not None:
            self._events.append(("stored", keys, moved, (node, self.ctx.code(model), batch.value, *stored)))
            return
        source = self._cpu_source(batch)
        if self.ctx.class_def is not None and (source is not None or iterable is not None):
            # `self.model(past)` over a CPU loader the method builds (a forecaster's `fit`), or the constructor
            # builds from a dataset it is handed (`self.val_loader = DataLoader(val_set)`): whether the class moves
            # its model, and what its constructions hand it, are read in `finish`
            spelled = self.ctx.code(passed)
            self._events.append(("local", node, spelled, source, None if source else iterable,
                                 self.ctx.code(model), self.ctx.class_def, here))

    def _handed_parameter(self, batch: cst.Name) -> str | None:
        """The parameter of the method being visited, of a class, that `batch` is, not rebound since, or a part of:
        `inputs, targets = batch["inputs"], batch["targets"]`, `x = batch[0]` (a dict-yielding Dataset's batch
        handed whole to a step method); else None."""
        function = self.ctx.function
        binding = self.ctx.binding(batch)
        if binding is not None and binding.kind in ("unpack", "assign"):
            part = binding.paired_value() if binding.kind == "unpack" else binding.value
            picked = _batch_name(part) if type(part) is cst.Subscript else None
            binding = self.ctx.binding(picked, binding.seq) if picked is not None else None
        if self.ctx.class_def is None or function is None or binding is None or binding.kind != "param" \
                or binding.statement is not function or binding.name == "self":
            return None
        return binding.name

    def _report_handed(self, handed: list[tuple]) -> None:
        """`self.model(x)` in a method handed `x` (`loss = self._step(x, y)`), the model moved by the class's
        constructor: reported when every call of the method in the class passes a batch of a loop over a CPU
        loader (`for x, y in self.train_loader:`), read where the call is."""
        for node, model, spelled, parameter, method, class_def in handed:
            if not self._moved_by_constructor(class_def, model):
                continue
            sites = method_callers(self.ctx, method) or []
            sources = []
            for site, point in sites:
                passed = passed_argument(method, site.node, parameter)
                binding = None
                if type(passed) is cst.Name:
                    with self.ctx.at(point):
                        binding = self.ctx.binding(passed, site.seq + 1)
                        if binding is not None and binding.kind == "unpack" and type(binding.value) is cst.Name:
                            binding = self.ctx.binding(binding.value, binding.seq)  # `x, y = batch`
                comprehended = _comprehension_iterable(self.ctx, site, passed)
                if comprehended is not None:
                    # `[self._step(batch).item() for batch in self.val_loader]`: the comprehension's own loop
                    loader = _unwrapped(comprehended)
                elif site.loop is None or binding is None or binding.kind != "for" \
                        or type(binding.statement) is not cst.For \
                        or not any(inner is site.node for inner in self.ctx.walk(binding.statement.body)):
                    break
                else:
                    loader = _unwrapped(binding.statement.iter)
                handed_loader = None
                if type(loader) is cst.Name and site.function is not None:
                    with self.ctx.at(point):
                        source = self.ctx.binding(loader, site.seq + 1)
                    if source is not None and source.kind == "param" and source.statement is site.function:
                        handed_loader = self._handed_loader(site.function, loader.value)
                elif is_self_attribute(loader):  # `for batch in self.train_loader:` of the trainer's constructions
                    handed_loader = self._stored_loader(loader, class_def)
                sources.append(_cpu_loader_at(self.ctx, loader, point) or handed_loader)
            if sources and len(sources) == len(sites) and all(sources):
                self.report(node, _MESSAGE.format(model=model, batch=spelled, source=sources[0]))

    def _note_made(self, node: cst.Call, model: cst.Attribute, batch: cst.Name) -> None:
        """A predictor's `self.model(x)` with `x = self.featurize(...)`: what the project function returns, and
        whether the class moves its model, are read in `finish`."""
        binding = self.ctx.binding(batch)
        if self.ctx.class_def is None or binding is None or binding.kind != "assign" \
                or type(binding.value) is not cst.Call or self.ctx.qualname(binding.value.func) is not None:
            return
        self._events.append(("made", node, self.ctx.code(model), batch.value, binding.value, self.ctx.class_def))

    def _report_made(self, made: list[tuple[cst.Call, str, str, cst.Call, cst.ClassDef]]) -> None:
        for node, model, batch, call, class_def in made:
            point = self.ctx.point_within(call)
            if point is None or not self._moved_by_constructor(class_def, model):
                continue
            with self.ctx.at(point):
                creation = returned_on_cpu(self.ctx, call)
            if creation is not None:
                self.report(node, _MESSAGE.format(model=model, batch=batch, source=f"`{self.ctx.code(call)}` "
                                                  f"(`{creation}(...)`)"))

    def _moved_by_constructor(self, class_def: cst.ClassDef, model: str) -> bool:
        """`__init__` moves `self.model` off the CPU, in a statement of its own body outside any `if`
        (`self.model.to(self.device)`, `self.model = Net().cuda()`), and nothing else in the class sets it, moves
        it back or wraps it in DataParallel, which scatters CPU inputs itself."""
        init = next((statement for statement in class_def.body.body if type(statement) is cst.FunctionDef
                     and statement.name.value == "__init__"), None)
        if init is None:
            return False
        moved = False
        for statement in init.body.body:
            small = statement.body if type(statement) is cst.SimpleStatementLine else ()
            for part in small:
                if type(part) is cst.Expr and type(part.value) is cst.Call \
                        and type(part.value.func) is cst.Attribute and self.ctx.code(part.value.func.value) == model:
                    moved = moved or moves_to_device(self.ctx, part.value)
                elif type(part) is cst.Assign and any(self.ctx.code(t.target) == model for t in part.targets):
                    moved = self._moved_chain(part.value)
                elif type(part) is cst.AnnAssign and part.value is not None and self.ctx.code(part.target) == model:
                    moved = self._moved_chain(part.value)  # `self.model: nn.Module = model.to(self.device)`
        return moved and self._kept_moved(class_def, model, init)

    def _kept_moved(self, class_def: cst.ClassDef, model: str, init: cst.FunctionDef | None) -> bool:
        """Nothing in the class moves `model` back to the CPU, sets it outside `__init__` or wraps it in
        DataParallel, which scatters CPU inputs itself."""
        for node in self.ctx.walk(class_def):
            if type(node) is cst.Call and type(node.func) is cst.Attribute \
                    and self.ctx.code(node.func.value) == model and moves_to_cpu(self.ctx, node):
                return False
            targets = [t.target for t in node.targets] if type(node) is cst.Assign \
                else [node.target] if type(node) is cst.AnnAssign and node.value is not None else []
            if any(self.ctx.code(target) == model for target in targets) \
                    and (init is None or not any(statement is node for statement in self.ctx.walk(init))
                         or any(type(inner) is cst.Call and self.ctx.qualname(inner.func) in DATA_PARALLEL
                                for inner in self.ctx.walk(node.value))):
                return False
        return True

    def _moved_by_an_earlier_method(self, class_def: cst.ClassDef, model: str, node: cst.Call) -> bool:
        """Another method of the class moves `model` in place (`fit` with `self.module.to(self.device)`, a statement
        of its own body outside any `if`), nothing moves it back (`_kept_moved`), and the method holding `node` is
        called, in this file or in a project module importing the class, on an object that method ran on before,
        at every such call: `typer = CellTyper(...).fit(x, y)` with `fit` returning `self`, or `typer.fit(x, y)`
        earlier in the same body (an estimator's `predict` after its `fit`). A call on an object built so raises
        there, whatever other calls do."""
        methods = [statement for statement in class_def.body.body if type(statement) is cst.FunctionDef]
        method = next((m for m in methods if any(inner is node for inner in self.ctx.walk(m))), None)
        movers = {m.name.value for m in methods if m is not method and m.name.value != "__init__"
                  and _moves_in_body(self.ctx, m, model)}
        init = next((m for m in methods if m.name.value == "__init__"), None)
        if method is None or not movers or not self._kept_moved(class_def, model, init):
            return False
        chaining = {m.name.value for m in methods if _returns_self(m)}

        def built(reader: Context, receiver: cst.BaseExpression) -> cst.Call | None:
            """The construction `receiver` is bound to, through methods returning the object (`.fit(x, y)`)."""
            binding = reader.binding(receiver) if type(receiver) is cst.Name else None
            value = binding.value if binding is not None and binding.kind == "assign" else None
            while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in chaining:
                value = value.func.value
            return value if type(value) is cst.Call and last_name(value.func) == class_def.name.value else None

        sites = method_calls(self.ctx, method, lambda reader, receiver: built(reader, receiver) is not None)
        for caller in sites:
            receiver, reader = caller.site.node.func.value, caller.ctx  # type: ignore[attr-defined]
            with reader.at(caller.point):
                binding = reader.binding(receiver, caller.site.seq + 1)
            if binding is None:
                return False
            value = binding.value
            if type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in movers:
                continue  # `CellTyper(...).fit(x, y)`
            run = methods_run_before(reader, caller.site.function or reader.module, binding.statement,
                                     caller.site.node, receiver.value)
            if run is None or not run & movers:
                return False
        return bool(sites)

    def _moved_in_method(self, model: cst.Attribute) -> bool:
        """`self.model.to(self.device)` (or `.cuda()`) is a statement of the method's own body, outside any `if`,
        before the point the traversal is at: the module is on the device from there on in this method."""
        function = self.ctx.function
        if function is None or type(model.value) is not cst.Name or model.value.value != "self":
            return False
        spelled = self.ctx.code(model)
        for statement in function.body.body:
            if any(ancestor is statement for ancestor in self.ctx.ancestors):
                return False
            if _moves(self.ctx, statement, spelled):
                return True
        return False

    def _helper(self, node: cst.Call, model: cst.Name, batch: cst.Name
                ) -> tuple[cst.Call, cst.FunctionDef, str, str, str] | None:
        """`model(images)` in a helper's loop over its parameter `loader`, with `model` a parameter too: the file's
        calls of the helper say what they are (`validate(net.to(device), test_loader)`)."""
        function = self.ctx.function
        binding = self.ctx.binding(model)
        if function is None or binding is None or binding.kind != "param" or binding.statement is not function:
            return None
        loop = self._batch_loop(batch)
        iterable = loop and _unwrapped(loop.iter)
        if type(iterable) is not cst.Name:
            return None
        source = self.ctx.binding(iterable)
        if source is not None and source.kind == "param" and source.statement is function:
            return node, function, model.value, batch.value, iterable.value
        return None

    def finish(self) -> None:
        moved: set[_Key] = set()  # the bindings of modules moved by the statements replayed so far
        in_helpers: list[tuple[cst.Call, cst.FunctionDef, str, str, str]] = []
        # `self.model(x)` of a moved model, over the trainer's `self.train_loader` stored from a constructor
        # parameter: the constructions say which loader.
        in_trainers: list[tuple[cst.Call, str, str, cst.ClassDef, cst.FunctionDef, str]] = []
        in_methods: list[tuple] = []  # a method's `self.model(x)` over its loader parameter, the model moved there
        made: list[tuple[cst.Call, str, str, cst.Call, cst.ClassDef]] = []  # `self.model(x)` of `x = helper(...)`
        handed: list[tuple] = []  # `self.model(x)` of a method handed `x` by the class's loops
        for kind, *event in self._events:
            if kind == "moved":
                moved.add(event[0])
                continue
            if kind == "made":
                made.append(tuple(event))  # type: ignore[arg-type]
                continue
            if kind == "handed":
                handed.append(tuple(event))
                continue
            if kind == "method":
                in_methods.append(tuple(event))
                continue
            if kind == "local":
                node, spelled, source, drawn, model, class_def, here = event
                point = self.ctx.point_within(node) if drawn is not None else None
                if point is not None:  # read at the end of the method, its loop's names bound as they last were
                    source = _cpu_loader_at(self.ctx, drawn, point)
                if source is not None and (here or self._moved_by_constructor(class_def, model)
                                           or self._moved_by_an_earlier_method(class_def, model, node)):
                    self.report(node, _MESSAGE.format(model=model, batch=spelled, source=source))
                continue
            keys, moved_anyway, found = event
            is_moved = moved_anyway or any(key in moved for key in keys)
            if kind == "stored":
                # `self.model = model` then `self.model.to(self.device)` in the constructor moves it in place
                if is_moved or self._moved_by_constructor(found[3], found[1]):
                    in_trainers.append(found)
                continue
            node, message, helper = found
            if is_moved:
                if message is not None:
                    self.report(node, message)
            elif helper is not None:
                in_helpers.append(helper)
        self._report_trainers(in_trainers)
        self._report_made(made)
        self._report_handed(handed)
        self._report_methods(in_methods)
        self._report_imported_helpers(moved)
        for node, function, model, batch, loader in in_helpers:
            sites = helper_callers(self.ctx, function)
            if sites is not None and all(self._hands_moved_model(function, site, point, model, loader, moved)
                                         for site, point in sites):
                passed = passed_argument(function, sites[0][0].node, loader)
                fed = self.ctx.code(node.args[0].value)  # `batch[0]`: the part the model is fed
                self.report(node, _MESSAGE.format(model=model, batch=fed if type(node.args[0].value) is cst.Subscript
                                                  else batch,
                                                  source=f"the DataLoader `{self.ctx.code(passed)}` passed in"))

    def _report_imported_helpers(self, moved: set[_Key]) -> None:
        """A helper of the project's modules (`from engine import evaluate`) whose loop feeds its model parameter
        the batches of its loader parameter unmoved, handed a moved model and a CPU loader by every call here:
        reported at the calls, since the helper's file cannot see them."""
        for name, definition, other in imported_functions(self.ctx):
            for model, batch, loader in _unmoved_batches(definition):
                sites = callers(self.ctx, name)
                if sites and all(self._hands_moved_model(definition, site, point, model, loader, moved)
                                 for site, point in sites):
                    module = Path(other.filename).name
                    for site, _ in sites:
                        self.report(site.node, f"`{name}` ({module}) calls `{model}({batch})` on the batches of "
                                               f"`{loader}` without moving them, but this call hands it a model moved "
                                               "to a device and a DataLoader on the CPU: \"Expected all tensors to "
                                               "be on the same device\"; move the batch in the loop with "
                                               f"`{batch} = {batch}.to(device)`")
                    break

    def _report_trainers(self, in_trainers: list[tuple[cst.Call, str, str, cst.ClassDef, cst.FunctionDef, str]]
                         ) -> None:
        for node, model, batch, class_def, init, parameter in in_trainers:
            passed = constructor_arguments(self.ctx, class_def, init, parameter)
            sources = [_cpu_loader_at(reader, loader, point) for loader, point, reader in passed or ()]
            if sources and all(sources):
                what = "the DataLoader" if sources[0] == "a DataLoader" else "the list"
                self.report(node, _MESSAGE.format(model=model, batch=batch,
                                                  source=f"{what} `{self.ctx.code(passed[0][0])}` passed in"))

    def _stored_loader(self, loader: cst.BaseExpression, class_def: cst.ClassDef) -> str | None:
        """"the DataLoader `...` passed in" when the constructor stores `loader` (`self.train_loader`) from a
        parameter that every construction of the class, here or in the modules importing it, hands a CPU loader."""
        stored = stored_parameter(self.ctx, loader, class_def)
        if stored is None:
            return None
        passed = constructor_arguments(self.ctx, *stored)
        sources = [_cpu_loader_at(reader, argument, point) for argument, point, reader in passed or ()]
        if not sources or not all(sources):
            return None
        what = "the DataLoader" if sources[0] == "a DataLoader" else "the list"
        return f"{what} `{self.ctx.code(passed[0][0])}` passed in"  # type: ignore[index]

    def _report_methods(self, in_methods: list[tuple]) -> None:
        for node, model, batch, method, loader, class_def in in_methods:
            if class_def is not None and not self._moved_by_constructor(class_def, model):
                continue
            source = self._handed_loader(method, loader)
            if source is not None:
                self.report(node, _MESSAGE.format(model=model, batch=batch, source=source))

    def _handed_loader(self, method: cst.FunctionDef, loader: str) -> str | None:
        """"the DataLoader `...` passed in" when every call of the method `method` hands its parameter `loader` a
        CPU loader (`forecaster.fit(DataLoader(WindowDataset(series)))`); else None."""
        # the calls of this file, and those of the project's modules that import the class (`Forecaster(model)
        # .fit(loader)` in `run.py`), each read in its own module
        callers = every_method_caller(self.ctx, method)
        passed = [(passed_argument(method, caller.site.node, loader), caller.point, caller.ctx)
                  for caller in callers or ()]
        if passed and all(argument is not None and _cpu_loader_at(reader, argument, point)
                          for argument, point, reader in passed):
            argument, _, reader = passed[0]
            return f"the DataLoader `{reader.code(argument)}` passed in"  # type: ignore[arg-type]
        return None

    def _hands_moved_model(self, function: cst.FunctionDef, site: CallSite, point: Point, model: str, loader: str,
                           moved: set[_Key]) -> bool:
        """The call passes a module moved off the CPU as `model` and a CPU DataLoader as `loader`."""
        passed_model = passed_argument(function, site.node, model)
        passed_loader = passed_argument(function, site.node, loader)
        if passed_model is None or type(passed_loader) not in (cst.Name, cst.Subscript) \
                and not is_self_attribute(passed_loader):
            return False
        # a trainer's `evaluate(self.model, self.val_loader)`: the model its constructor moves
        owner = self.ctx.class_of_method(site.function) if site.function is not None else None
        held = owner is not None and is_self_attribute(passed_model) \
            and self._moved_by_constructor(owner, self.ctx.code(passed_model))
        with self.ctx.at(point):
            keys, moved_anyway = self._moved_parts(passed_model)
            if not (held or moved_anyway or any(key in moved for key in keys)):
                return False
            if type(passed_loader) in (cst.Name, cst.Subscript):  # `test_loader`, `loaders["val"]`
                return _loader_source(self.ctx, passed_loader, imports=True) is not None
            built, _ = self.ctx.value_of(passed_loader)
            binding = self.ctx.binding(passed_loader) if built is passed_loader else None
        unpacked = _unpacked_attribute(self.ctx, binding, self.ctx.code(passed_loader)) if binding else None
        if unpacked is not None:
            # `self.train_loader, self.val_loader = get_dataloaders(cfg)`: the element the factory returns there
            built, index = unpacked
            within = self.ctx.point_within(built)
            if within is None:
                return False
            with self.ctx.at(within):
                returned = returned_by_factory(self.ctx, built, index) or returned_by_imported(self.ctx, built, index)
            if returned is None:
                return False
            reader = returned[2] if len(returned) == 3 else self.ctx
            return _cpu_loader_at(reader, returned[0], returned[1]) is not None
        # `self.val_loader = DataLoader(data, ...)`: read where the constructor built it, with its names
        within = self.ctx.point_within(built) if built is not passed_loader else None
        return within is not None and _cpu_loader_at(self.ctx, built, within) is not None

    def _moved_model(self, model: cst.Name) -> tuple[tuple[_Key, ...], bool]:
        """`_moved_parts` of the module a called name is bound to."""
        binding = self.ctx.binding(model)
        if binding is None:
            return (), False
        if binding.kind != "assign" or binding.value is None:
            return (_key(binding),), False
        keys, moved = self._moved_parts(binding.value)
        return (_key(binding), *keys), moved

    def _moved_parts(self, expr: cst.BaseExpression) -> tuple[tuple[_Key, ...], bool]:
        """Whether `expr` is a module moved off the CPU: `Net().to(device).eval()`, `net.cuda()`, or a name bound to
        one (the bool); or a name whose binding a statement moves in place (`model.cuda()`), those bindings."""
        keys: tuple[_Key, ...] = ()
        if type(expr) is cst.Name:
            binding = self.ctx.binding(expr)
            if binding is not None:
                keys = (_key(binding),)
            expr, _ = self.ctx.value_of(expr)
        return keys, self._moved_chain(expr)

    def _moved_chain(self, expr: cst.BaseExpression) -> bool:
        moved = False
        for _ in range(8):  # `Net().to(device).eval()`: the chain of calls that return the module
            if type(expr) is not cst.Call:
                break
            func = expr.func
            if self.ctx.qualname(func) in DATA_PARALLEL:
                return False  # DataParallel scatters CPU batches to its devices itself
            if type(func) is not cst.Attribute:
                break
            if moves_to_device(self.ctx, expr):
                moved = True
            elif func.attr.value not in _SAME_MODULE:
                break
            expr = func.value
        return moved

    def _cpu_source(self, batch: cst.Name) -> str | None:
        """"a DataLoader" / "a list" when `batch` is a loop variable of a `for` over a CPU loader or list that
        the code is inside of, and is not rebound before this point; else None."""
        loop = self._batch_loop(batch)
        if loop is not None:
            return _loader_source(self.ctx, _unwrapped(loop.iter))
        drawn = self._drawn_from(batch)
        return _loader_source(self.ctx, drawn) if drawn is not None else self._dataset_item(batch)

    def _dataset_item(self, batch: cst.Name) -> str | None:
        """"the dataset `test_data`" when `batch` is an item of a torchvision dataset (`test_data[0][0]`), which
        gives CPU tensors; else None."""
        binding = self.ctx.binding(batch)
        if binding is None or binding.value is None:
            return None
        value = binding.value
        if binding.kind == "unpack" and type(value) is cst.Tuple and binding.index is not None \
                and binding.index < len(value.elements):
            value = value.elements[binding.index].value  # `x, y = test_data[0][0], test_data[0][1]`
        elif binding.kind != "assign":
            return None
        if type(value) is not cst.Subscript:
            return None
        while type(value) is cst.Subscript:
            value = value.value
        dataset, _ = self.ctx.value_of(value, binding.seq)
        if type(dataset) is cst.Call and (self.ctx.qualname(dataset.func) or "").startswith("torchvision.datasets."):
            return f"the dataset `{self.ctx.code(value)}`"
        return None

    def _drawn_from(self, batch: cst.Name) -> cst.BaseExpression | None:
        """The loader a batch is drawn from by hand: `x, y = next(train_iter)` with `train_iter = iter(loader)`,
        or `batch = next(iter(loader))`."""
        binding = self.ctx.binding(batch)
        if binding is None or binding.kind not in ("assign", "unpack") or not _is_builtin_call(binding.value, "next"):
            return None
        iterator = binding.value.args[0].value  # type: ignore[union-attr]  # checked by _is_builtin_call
        if type(iterator) is cst.Name:
            iterator, _ = self.ctx.value_of(iterator, binding.seq)
        return iterator.args[0].value if _is_builtin_call(iterator, "iter") else None  # type: ignore[attr-defined]

    def _batch_loop(self, batch: cst.Name) -> cst.For | None:
        """The `for` that binds `batch` and that the code is inside of, if `batch` is not rebound since; a part of
        the loop variable counts (`for step, batch in enumerate(loader): x, y = batch`)."""
        binding = self.ctx.binding(batch)
        if binding is not None and binding.kind == "unpack" and type(binding.value) is cst.Name:
            binding = self.ctx.binding(binding.value, binding.seq)
        elif binding is not None and binding.kind in ("unpack", "assign"):
            # `past, future = batch["past"], batch["future"]`, `x = batch[0]`: a part the loop variable holds
            part = binding.paired_value() if binding.kind == "unpack" else binding.value
            picked = _batch_name(part) if type(part) is cst.Subscript else None
            if picked is not None:
                binding = self.ctx.binding(picked, binding.seq)
        if binding is None or binding.kind != "for" or type(binding.statement) is not cst.For:
            return None
        loop = binding.statement
        return loop if any(ancestor is loop.body for ancestor in self.ctx.ancestors) else None


def _unpacked_attribute(ctx: Context, binding: Binding, spelled: str) -> tuple[cst.Call, int] | None:
    """The call and the place in the tuple it returns that an attribute is unpacked from: `self.train_loader,
    self.val_loader = get_dataloaders(cfg)` gives (`get_dataloaders(cfg)`, 1) for `self.val_loader`."""
    statement = binding.statement
    if type(statement) is not cst.Assign or len(statement.targets) != 1 or type(statement.value) is not cst.Call \
            or type(statement.targets[0].target) not in (cst.Tuple, cst.List):
        return None
    elements = statement.targets[0].target.elements  # type: ignore[attr-defined]
    found = [i for i, element in enumerate(elements)
             if type(element) is cst.Element and ctx.code(element.value) == spelled]
    if len(found) != 1 or any(type(element) is cst.StarredElement for element in elements):
        return None
    return statement.value, found[0]


def _comprehension_iterable(ctx: Context, site: CallSite, passed: cst.BaseExpression | None
                            ) -> cst.BaseExpression | None:
    """What a comprehension of one `for` iterates when the call is its element's and hands on its variable:
    `[self._step(batch) for batch in self.val_loader]` gives `self.val_loader`; else None."""
    if type(passed) is not cst.Name or site.function is None:
        return None
    for node in ctx.walk(site.function):
        if type(node) in (cst.ListComp, cst.GeneratorExp, cst.SetComp) and node.for_in.inner_for_in is None \
                and type(node.for_in.target) is cst.Name and node.for_in.target.value == passed.value \
                and any(inner is site.node for inner in ctx.walk(node.elt)):
            return node.for_in.iter
    return None


def _moves_in_body(ctx: Context, method: cst.FunctionDef, model: str) -> bool:
    """A statement of the method's own body, outside any `if`, moves `model` to a device in place."""
    return any(_moves(ctx, statement, model) for statement in method.body.body)


def _moves(ctx: Context, statement: cst.BaseStatement, model: str) -> bool:
    """The statement is a line that moves `model` (as the code spells it) to a device in place:
    `self.model.to(self.device)`, `self.net.cuda()`."""
    return type(statement) is cst.SimpleStatementLine and any(
        type(small) is cst.Expr and type(small.value) is cst.Call and type(small.value.func) is cst.Attribute
        and moves_to_device(ctx, small.value) and ctx.code(small.value.func.value) == model
        for small in statement.body)


def _returns_self(method: cst.FunctionDef) -> bool:
    """Every `return` of the method gives `self` (`fit` returning the estimator for chaining)."""
    returns = [node.value for node in walk(method.body) if type(node) is cst.Return]
    return bool(returns) and all(type(value) is cst.Name and value.value == "self" for value in returns)


def _cpu_loader_at(ctx: Context, loader: cst.BaseExpression, point: Point) -> str | None:
    with ctx.at(point):
        return _loader_source(ctx, loader, imports=True)


def _loader_source(ctx: Context, iterable: cst.BaseExpression, depth: int = 0, imports: bool = False) -> str | None:
    """"a DataLoader" / "a list" when `iterable` is a DataLoader of CPU tensors or a list of them, as read in `ctx`
    (where a construction or a call of another module hands it); None otherwise. With `imports` (in a `finish`,
    which may read the whole file), also what a factory of an imported project module returns."""
    value, before = ctx.value_of(iterable)
    if _unwrapped(value) is not value and depth < 2:  # `pbar = tqdm(loader)` ... `for x, y in pbar:`
        return _loader_source(ctx, _unwrapped(value), depth + 1, imports)
    if depth < 2 and (type(value) is cst.Call or type(value) is cst.Name):
        # `batches(3)`, `train_loader, val_loader = get_loaders(32)`: what a factory of the file, or of a project
        # module it imports (`from data import get_loaders`), returns, read there
        if type(value) is cst.Call:
            call, index = value, None
        else:
            binding = ctx.binding(value, before)
            call, index = (binding.value, binding.index) if binding is not None and binding.kind == "unpack" \
                and not binding.starred and binding.index is not None else (None, None)
        returned = None
        if type(call) is cst.Call:
            returned = returned_by_factory(ctx, call, index) or (
                returned_by_imported(ctx, call, index) if imports else None)
        if returned is not None:
            reader = returned[2] if len(returned) == 3 else ctx
            with reader.at(returned[1]):
                return _loader_source(reader, returned[0], depth + 1, imports)
    if type(value) is cst.Subscript and depth < 2:  # `loaders["train"]` of `loaders = {"train": ..., ...}`
        item = _literal_item(ctx, value, before)
        if item is not None:
            return _loader_source(ctx, item, depth + 1, imports)
        # `loaders["val"]` of `loaders = get_loaders()` returning a dict literal: read in the factory
        container, _ = ctx.value_of(value.value, before)
        returned = None
        if type(container) is cst.Call and len(value.slice) == 1 and type(value.slice[0].slice) is cst.Index:
            returned = returned_by_factory(ctx, container) or (
                returned_by_imported(ctx, container) if imports else None)
        if returned is not None:
            reader = returned[2] if len(returned) == 3 else ctx
            with reader.at(returned[1]):
                item = _item_of(value.slice[0].slice.value, reader.value_of(returned[0])[0])
                return _loader_source(reader, item, depth + 1, imports) if item is not None else None
        return None
    if type(value) is cst.ListComp:
        element = value.elt
        parts = [e.value for e in element.elements] if type(element) is cst.Tuple else [element]
        cpu = all(type(part) is cst.Call and creates_on_cpu(ctx, part) for part in parts)
        return "a list" if cpu else None
    if type(value) is cst.List:
        elements = [e.value for e in value.elements]
        cpu = elements and all(type(e) is cst.Call and creates_on_cpu(ctx, e) for e in elements)
        return "a list" if cpu else None
    if type(value) is cst.Call and ctx.qualname(value.func) in _LOADERS:
        collate = keyword_arg(value, "collate_fn")
        if collate is None and _cpu_dataset(ctx, value, before, imports) \
                or collate is not None and yields_on_cpu(evaluator(ctx).value(collate.value, before)):
            return "a DataLoader"
    return None


def _cpu_dataset(ctx: Context, loader: cst.Call, before: int | None, constructions: bool = False) -> bool:
    dataset = argument_of(loader, "dataset", 0)
    return dataset is not None and _cpu_dataset_value(ctx, dataset.value, before, constructions=constructions)


def _cpu_dataset_value(ctx: Context, dataset: cst.BaseExpression, before: int | None, depth: int = 0,
                       constructions: bool = False) -> bool:
    """`dataset` gives CPU tensors. With `constructions` (in a `finish`, which may read the whole file), a
    parameter of a trainer's `__init__` (`self.val_loader = DataLoader(val_set)`) is what every construction of
    the trainer passes."""
    value, before = ctx.value_of(dataset, before)
    if type(value) is cst.Name and constructions and depth < 2:
        # read in the function the name is in (`__init__`, reached from a method through `self.val_loader`)
        within = ctx.point_within(value)
        if within is not None:
            with ctx.at(within):
                binding = ctx.binding(value)
        else:
            binding = ctx.binding(value, before)
        init = binding.statement if binding is not None and binding.kind == "param" else None
        if type(init) is cst.FunctionDef and init.name.value != "__init__":
            # `def fit(self, dataset): loader = DataLoader(dataset)`: what every call of the method or helper
            # hands it (`forecaster.fit(WindowDataset(series))`)
            return every_call_passes(ctx, init, value.value, lambda reader, argument: _cpu_dataset_value(
                reader, argument, None, depth + 1, constructions), methods=True)
        class_def = ctx.class_of_method(init) if type(init) is cst.FunctionDef else None
        passed = constructor_arguments(ctx, class_def, init, value.value) if class_def is not None else None
        return bool(passed) and all(_cpu_dataset_at(reader, argument, point, depth + 1)
                                    for argument, point, reader in passed)  # type: ignore[union-attr]
    if type(value) is not cst.Call:
        return False
    qualname = ctx.qualname(value.func) or ""
    if qualname.startswith("torchvision.datasets."):
        return True
    if not qualname.startswith("torch") and yields_on_cpu(
            evaluator(ctx).value(value, before),
            lambda init, name: _cpu_data_passed(ctx, passed_argument(init, value, name, constructor=True), before)):
        return True  # a `Dataset` of the project whose `__getitem__` gives numpy arrays or CPU tensors
    if not qualname and depth < 2:
        # `DataLoader(synthetic_split(96, seed=0))`: the dataset a same-file function returns, read there
        returned = returned_by_factory(ctx, value)
        if returned is None:
            return False
        with ctx.at(returned[1]):
            return _cpu_dataset_value(ctx, returned[0], None, depth + 1)
    if qualname not in _TENSOR_DATASETS or not value.args:
        return False
    if len(value.args) == 1 and value.args[0].star == "*" and depth < 2:
        # `TensorDataset(*moving_squares(8))`: the tensors of the tuple a same-file function returns
        tensors, seq = ctx.value_of(value.args[0].value, before)
        returned = returned_by_factory(ctx, tensors) if type(tensors) is cst.Call else None
        if returned is None or type(returned[0]) is not cst.Tuple:
            return False
        with ctx.at(returned[1]):
            return all(type(element) is cst.Element and _made_on_cpu(ctx, element.value, None)
                       for element in returned[0].elements)
    # a tensor whose device is not certain makes the dataset's unknown
    return all(not arg.star and _made_on_cpu(ctx, arg.value, before) for arg in value.args)


def _cpu_data_passed(ctx: Context, passed: cst.BaseExpression | None, before: int | None) -> bool:
    """What a construction passes is a numpy array a numpy function makes (`SeqDataset(np.random.randn(100, 8),
    y)`, through a name, a generator's draw `rng.normal(...)` or a slice `x[:160]` of one), a list written out, or a tensor a torch factory makes on the CPU
    (`WindowDataset(torch.randn(200, 3))`): kept or copied into a tensor, it is on the CPU."""
    if passed is None:
        return False
    value, seq = ctx.value_of(passed, before)
    return type(value) in (cst.List, cst.ListComp) \
        or type(value) is cst.Call and (ctx.qualname(value.func) or "").startswith("numpy.") \
        or type(value) in (cst.Call, cst.Subscript) and ctx.framework_of(value, seq) == "numpy" \
        or _made_on_cpu(ctx, passed, before)


def _cpu_dataset_at(ctx: Context, dataset: cst.BaseExpression, point: Point, depth: int) -> bool:
    with ctx.at(point):
        return _cpu_dataset_value(ctx, dataset, None, depth)


def _made_on_cpu(ctx: Context, expr: cst.BaseExpression, before: int | None, depth: int = 0) -> bool:
    """`expr` is a tensor made on the CPU: a torch factory without `device=`, or arithmetic of such tensors and
    numbers (`y = x @ torch.randn(5, 1) + 0.1 * torch.randn(64, 1)` of `x = torch.randn(64, 5)`)."""
    value, before = ctx.value_of(expr, before)
    kept = device_kept_from(ctx, value)
    if kept is not None and depth < 4:  # `(x[:, 0] > 0).long()`: where `x` is
        return _made_on_cpu(ctx, kept, before, depth + 1)
    if type(value) is cst.Call:
        return creates_on_cpu(ctx, value)
    if type(value) is cst.BinaryOperation and depth < 4:
        operands = [side for side in (value.left, value.right) if type(side) not in (cst.Integer, cst.Float)]
        return bool(operands) and all(_made_on_cpu(ctx, side, before, depth + 1) for side in operands)
    if type(value) is cst.UnaryOperation and depth < 4:
        return _made_on_cpu(ctx, value.expression, before, depth + 1)
    if type(value) is cst.Subscript and depth < 4:  # `frames[:, :in_len]`: indexing keeps the device
        return _made_on_cpu(ctx, value.value, before, depth + 1)
    return False
