"""SC217 modules-in-plain-list: submodules an `nn.Module` keeps in a plain list, tuple or dict attribute."""

from __future__ import annotations


import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name
from shapecheck.engine.walker import walk
from shapecheck.objects.modules import builds_module
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.changes import in_place_changes
from shapecheck.objects.values import UNKNOWN, ClassValue, Const, Imported, Instance, Mapping, Opaque, Seq, TorchObject
from shapecheck.shapes.activations import is_torch_module_class
from shapecheck.objects.torch_layers import CONTAINERS, WEIGHTED, torch_layer
from shapecheck.shapes.evaluator import evaluator

_PLAIN = (cst.List, cst.Tuple, cst.Dict, cst.ListComp, cst.DictComp)
_GROWERS = frozenset({"append", "extend", "insert"})

# VGG's `make_layers`: a local list filled by branches appending different layers, returned as it is; the class
# that uses it follows.
_VGG_LAYERS = """
        import torch.nn as nn

        def make_layers(cfg, in_channels=3):
            layers = []
            for v in cfg:
                if v == "M":
                    layers.append(nn.MaxPool2d(2))
                else:
                    layers.append(nn.Conv2d(in_channels, v, 3, padding=1))
                    in_channels = v
            return layers
%s"""

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is what `self.blocks` stores.
_HELPER_BLOCKS = """
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.fc = nn.Linear(d, d)

        def make_blocks(depth, d):
            return [Block(d) for _ in range(depth)]

        class Tower(nn.Module):
            def __init__(self, depth, d):
                super().__init__()
                self.blocks = %s
        """

# A multi-task model's heads, one per task name from the config, built by a helper: `%s` is what it returns.
_TASK_HEADS = """
        import torch.nn as nn

        def make_heads(tasks, d):
            return %s

        class MultiTask(nn.Module):
            def __init__(self, tasks, d):
                super().__init__()
                self.trunk = nn.Sequential(nn.Linear(d, d), nn.ReLU())
                self.heads = make_heads(tasks, d)

            def forward(self, x):
                h = self.trunk(x)
                return {task: head(h) for task, head in self.heads.items()}
        """


@record
class _Store:
    """A plain container written to `self.<attr>` in a module class, and what the class does with it."""

    node: cst.Assign
    value: cst.BaseExpression  # what the assignment writes: the container, or a local name bound to one
    literal: cst.BaseExpression  # the container as written: `[...]`, `{...}`, a comprehension
    weighted: bool  # it holds a module with parameters, as built or as grown later
    kind: tuple[str, str]  # what the code stores and the torch container that registers it: ("dict", "ModuleDict")


# An Inception-style block that keeps the branches it is handed in a plain list; `%s` follows it.
_PARALLEL = """
        import torch
        import torch.nn as nn

        class Parallel(nn.Module):
            def __init__(self, branches):
                super().__init__()
                self.branches = []
                for branch in branches:
                    self.branches.append(branch)

            def forward(self, x):
                return torch.cat([branch(x) for branch in self.branches], dim=1)
        %s
        """


class ModulesInPlainList(Rule):
    code = "SC217"
    name = "modules-in-plain-list"
    severity = "error"  # the layers never train and are missing from the checkpoint
    message = ("submodules kept in a plain Python list, tuple or dict are not registered: their parameters are not in "
               "`.parameters()` or `state_dict()` and `.to()` does not move them")
    fixable = "unsafe"
    triggers = ("nn.", "Module")
    # Each method's stores, growths and registrations are gathered as it is visited and replayed in order by
    # `finish`, which decides with the whole class.
    scope = "statement"
    gathered = ("_events",)
    docs = """
        ## What it does
        Finds an `nn.Module` that stores layers with parameters in a plain Python list, tuple or dict attribute:
        `self.heads = [nn.Linear(d, 1) for _ in range(k)]`, `self.encoders = (nn.Linear(...), nn.Linear(...))`,
        `self.layers = {"a": nn.Conv2d(...)}`, or `self.blocks = []` filled by `self.blocks.append(Block(c))` (or a
        dict filled by `self.towers[name] = nn.Linear(...)`), also through a local list stored as it is
        (`heads = [...]; self.heads = heads`), through `list(...)` / `tuple(...)` of a comprehension
        (`tuple(nn.Linear(d, 1) for _ in horizons)`) and in nested lists. The layers are known by their constructor: a
        `torch.nn` layer that owns weights, a class of the project that subclasses `nn.Module` (imported ones
        too, and through a base class of another module: `class MLPExpert(BaseModule)`), a helper of the project that builds one (`def make_head(d): return nn.Sequential(...)`), or a class
        picked by name from a dict of classes the code states whole, one of which owns weights
        (`[ACTIVATIONS[name]() for name in activations]` with `"prelu": nn.PReLU` among them). The store may be
        annotated (`self.acts: List[nn.Module] = [...]`). A helper may
        build the container too: `self.features = make_layers(cfg)` of a function that fills a local list by `append`
        and returns it as it is. The layers may be the constructor's parameter's (`for layer in layers:
        self.layers.append(layer)`), when every construction of the class in the file hands it a list holding one
        (`Merge([conv_branch(d, k) for k in sizes])`, in another module's constructor too).

        ## Why is this bad?
        `nn.Module` registers a submodule only when it is assigned as an attribute itself, or held by a torch
        container. The primer: "Any nn.Parameter assigned as an attribute (or any submodule whose own params
        include them) is automatically registered. layer.parameters() returns all of them — that's what you pass
        to the optimizer." A plain list is neither: the layers in it are left out of `model.parameters()`, so the
        optimizer never updates them; `model.to(device)` leaves them on the CPU; `state_dict()` does not save
        them; `model.eval()` does not switch them. The model trains, with those layers frozen at their random
        initial weights.

        A list of parameter-free layers (`nn.ReLU()`, `nn.Dropout(p)`, or a module of the project that provably
        holds none: a direct `nn.Module` subclass storing only such layers, numbers, and values it does arithmetic
        on) loses no weights and is not reported; nor
        is a list the class later wraps (`self.layers = nn.ModuleList(self.layers)`, `nn.Sequential(*self.layers)`,
        or `super().__init__(*self.layers)` in a subclass of `nn.Sequential`) or whose elements it hands to one (`nn.Sequential(self.noisy[0], nn.ReLU(), self.noisy[1])`)
        or registers itself (`add_module`), nor a list holding a model passed in (keeping a teacher out of
        `.parameters()` on purpose). A registration of one container's elements (`self.add_module(f"cnn_{key}",
        self.cnns[key])`) registers that container only: a dict of dense layers filled beside it is still reported.

        ## Example
        ```python
        class Forecaster(nn.Module):
            def __init__(self, hidden, horizons):
                super().__init__()
                self.heads = [nn.Linear(hidden, 1) for _ in horizons]
        ```

        ## Use instead
        ```python
        class Forecaster(nn.Module):
            def __init__(self, hidden, horizons):
                super().__init__()
                self.heads = nn.ModuleList([nn.Linear(hidden, 1) for _ in horizons])
        ```

        ## Fix
        Unsafe: wraps the list or tuple in `nn.ModuleList(...)` and a dict with string keys in `nn.ModuleDict(...)`.
        The layers then appear in `state_dict()` under new keys (`heads.0.weight`), so checkpoints saved before
        the fix do not load into the fixed model without `strict=False`, and an optimizer built before would miss
        them.
    """
    VALID = [
        # Each dict's layers registered by name as they are stored, one container after the other.
        """
        import torch.nn as nn
        class MultiModalEncoder(nn.Module):
            def __init__(self, image_channels, vector_dims):
                super().__init__()
                self.cnns = {}
                self.denses = {}
                for key, c in image_channels.items():
                    self.cnns[key] = nn.Conv2d(c, 16, 3)
                    self.add_module("cnn_{}".format(key), self.cnns[key])
                for key, d in vector_dims.items():
                    self.denses[key] = nn.Linear(d, 16)
                    self.add_module(f"dense_{key}", self.denses[key])
        """,
        # The same local dict wrapped when stored; widths by name in a plain dict.
        """
        import torch.nn as nn

        class Fusion(nn.Module):
            def __init__(self, modality_dims, d=256):
                super().__init__()
                projections, widths = {}, {}
                for name, dim in modality_dims.items():
                    projections[name] = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, d))
                    widths[name] = dim
                self.projections = nn.ModuleDict(projections)
                self.widths = widths
        """,
        # x-transformers' TTT wrappers: each is put into the network by `set_module_by_path`, which registers it
        # there; the plain dict keeps handles to them by path.
        """
        import torch.nn as nn
        from functools import reduce

        def set_module_by_path(model, path, new_mod):
            *parts, last = path.split(".")
            setattr(reduce(getattr, parts, model), last, new_mod)

        class LowRankLinear(nn.Module):
            def __init__(self, dim, rank):
                super().__init__()
                self.down = nn.Linear(dim, rank, bias=False)
                self.up = nn.Linear(rank, dim, bias=False)

        class Wrapper(nn.Module):
            def __init__(self, net, paths):
                super().__init__()
                self.net = net
                self.ttt_wrappers = dict()
                for path in paths:
                    wrapper = LowRankLinear(512, 16)
                    set_module_by_path(net, path, wrapper)
                    self.ttt_wrappers[path] = wrapper
        """,
        # A heterogeneous graph's per-node-type projections registered through `nn.ModuleDict`; the widths a
        # plain dict of numbers.
        """
        import torch.nn as nn

        class HeteroEncoder(nn.Module):
            def __init__(self, node_types, dims, hidden):
                super().__init__()
                self.in_dims = dict(zip(node_types, dims))
                self.input_proj = nn.ModuleDict(dict(zip(node_types, [nn.Linear(d, hidden) for d in dims])))
        """,
        # the helper's list unpacked into `nn.Sequential`, here and inside a second helper
        _VGG_LAYERS % """
        def make_head(d, n):
            layers = [nn.Flatten()]
            layers.append(nn.Linear(d, n))
            return nn.Sequential(*layers)

        class VGG(nn.Module):
            def __init__(self, cfg=(64, "M", 128, "M")):
                super().__init__()
                self.features = nn.Sequential(*make_layers(cfg))
                self.head = make_head(128, 10)
        """,
        # a helper's list of blocks wrapped at the store; lists of numbers, an empty dict of names, and one
        # parameter-free activation repeated
        _TASK_HEADS % "nn.ModuleDict({task: nn.Linear(d, 1) for task in tasks})",
        _HELPER_BLOCKS % """nn.ModuleList(make_blocks(depth, d))
                self.widths = list(range(depth))
                self.names = dict()
                self.acts = [nn.ReLU()] * depth""",
        """
        import torch.nn as nn
        class Forecaster(nn.Module):
            def __init__(self, hidden, horizons):
                super().__init__()
                self.heads = nn.ModuleList([nn.Linear(hidden, 1) for _ in horizons])
                self.towers = nn.ModuleDict({"a": nn.Linear(hidden, 4)})
        """,
        """
        import torch.nn as nn
        class MLP(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                layers = []
                for a, b in zip(sizes, sizes[1:]):
                    layers += [nn.Linear(a, b), nn.ReLU()]
                self.net = nn.Sequential(*layers)
        """,
        """
        import torch.nn as nn
        class Blocks(nn.Module):
            def __init__(self, depth, c):
                super().__init__()
                self.layers = []
                for _ in range(depth):
                    self.layers.append(nn.Conv2d(c, c, 3))
                self.layers = nn.ModuleList(self.layers)
        """,
        """
        import torch.nn as nn
        class Stack(nn.Module):
            def __init__(self, depth, c):
                super().__init__()
                self.blocks = [nn.Linear(c, c) for _ in range(depth)]
                self.body = nn.Sequential(*self.blocks)
        """,
        """
        import torch.nn as nn
        class Named(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.convs = [nn.Conv2d(c, c, 3) for _ in range(3)]
                for i, conv in enumerate(self.convs):
                    self.add_module(f"conv{i}", conv)
        """,
        """
        import torch
        import torch.nn as nn
        # parameter-free layers, tensors and numbers in plain lists
        class Head(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.fc = nn.Linear(c, c)
                self.acts = [nn.ReLU(), nn.Dropout(0.1)]
                self.scales = [1, 2, 4]
                self.anchors = [torch.zeros(2), torch.ones(2)]
        """,
        """
        import torch.nn as nn
        # not a module: a plain object may keep layers in a list
        class Registry:
            def __init__(self):
                self.layers = [nn.Linear(4, 4), nn.Linear(4, 2)]
        """,
        """
        import torch.nn as nn
        # a teacher kept out of parameters() on purpose, and a local list never stored
        class Student(nn.Module):
            def __init__(self, teacher):
                super().__init__()
                self._teacher = [teacher]
                self.fc = nn.Linear(8, 8)
                heads = [nn.Linear(8, 1) for _ in range(3)]
                self.head = heads[0]
        """,
        """
        import torch.nn as nn
        # wrapped by a method written above `__init__`, or by a base class's method
        class Net(nn.Module):
            def build(self):
                self.body = nn.Sequential(*self.layers)
            def __init__(self):
                super().__init__()
                self.layers = [nn.Linear(4, 4), nn.Linear(4, 2)]
                self.build()
        class Base(nn.Module):
            def finalize(self):
                self.net = nn.Sequential(*self.layers)
        class Child(Base):
            def __init__(self):
                super().__init__()
                self.layers = [nn.Conv2d(3, 8, 3)]
                self.finalize()
        """,
        """
        import torch.nn as nn
        # the list also built the registered Sequential: storing it too loses nothing
        class Stack(nn.Module):
            def __init__(self, dim, depth):
                super().__init__()
                layers = [nn.Linear(dim, dim) for _ in range(depth)]
                self.net = nn.Sequential(*layers)
                self.layers = layers
        """,
        """
        import torch.nn as nn
        # the list keeps handles to layers a Sequential owns, to resample their noise later (noisy-net DQN agents)
        class NoisyHead(nn.Module):
            def __init__(self, features, actions):
                super().__init__()
                self.noisy = [nn.Linear(features, 64), nn.Linear(64, actions)]
                self.head = nn.Sequential(self.noisy[0], nn.ReLU(), self.noisy[1])
        """,
        """
        import torch
        import torch.nn as nn
        # project modules that hold no parameters (a pooling layer and a window size): nothing to lose
        class Smooth(nn.Module):
            def __init__(self, window):
                super().__init__()
                self.window = window
                self.pool = nn.AvgPool1d(window, stride=1)
            def forward(self, x):
                pad = x[:, :, :1].repeat(1, 1, self.window - 1)
                return self.pool(torch.cat([pad, x], dim=2))
        class MultiSmooth(nn.Module):
            def __init__(self, windows):
                super().__init__()
                self.smoothers = [Smooth(w) for w in windows]
        """,
        """
        import mlx.nn as nn
        # MLX registers modules held in lists
        class TinyMlp(nn.Module):
            def __init__(self, dim, depth):
                super().__init__()
                self.layers = [nn.Linear(dim, dim) for _ in range(depth)]
        """,
        # An Inception-style block handed its branches: only pooling and identity, which hold no parameters; and a
        # block handed a list its caller received, which no construction in view shows.
        _PARALLEL % """

        class Stem(nn.Module):
            def __init__(self, c, extra):
                super().__init__()
                self.conv = nn.Conv2d(3, c, 3, padding=1)
                self.pool = Parallel([nn.Identity(), nn.MaxPool2d(3, 1, 1)])
                self.extra = Parallel(extra)
        """,
        # A registry of activations that hold no parameters, picked by name into a plain list: nothing is lost;
        # and an annotated store of an `nn.ModuleList`.
        """
        from typing import Dict, Type
        import torch.nn as nn
        ACTIVATIONS: Dict[str, Type[nn.Module]] = {"relu": nn.ReLU, "gelu": nn.GELU, "tanh": nn.Tanh}
        class MLP(nn.Module):
            def __init__(self, dims, activations):
                super().__init__()
                self.layers: nn.ModuleList = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))
                self.acts = [ACTIVATIONS[name]() for name in activations]
            def forward(self, x):
                for layer, act in zip(self.layers, self.acts):
                    x = act(layer(x))
                return x
        """,
        # The class is a ModuleList: the list it keeps a handle to is the one its base's constructor registers.
        """
        import torch.nn as nn
        class ResidualStack(nn.ModuleList):
            def __init__(self, dim, depth):
                self.blocks = [nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim)) for _ in range(depth)]
                super().__init__(self.blocks)
            def forward(self, x):
                for block in self:
                    x = x + block(x)
                return x
        """,
    ]
    INVALID = [
        # The image encoders are registered by name as they are stored; the dense ones, kept in another dict, are
        # not (RLlib's ComplexInputNetwork).
        """
        import torch.nn as nn
        class ComplexInput(nn.Module):
            def __init__(self, obs_space):
                super().__init__()
                self.cnns = {}
                self.flatten = {}
                for key, (kind, size) in obs_space.items():
                    if kind == "image":
                        self.cnns[key] = nn.Conv2d(size, 16, 3)
                        self.add_module("cnn_{}".format(key), self.cnns[key])
                    else:
                        self.flatten[key] = nn.Linear(size, 16)
        """,
        # Per-modality projections set by name in a local dict, then stored on the module as it is.
        """
        import torch.nn as nn

        class Fusion(nn.Module):
            def __init__(self, modality_dims, d=256):
                super().__init__()
                projections = {}
                for name, dim in modality_dims.items():
                    projections[name] = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, d))
                self.projections = projections
        """,
        # A mixture of experts filled by name in a loop, each expert built in a local first.
        """
        import torch.nn as nn

        class MoE(nn.Module):
            def __init__(self, names, d):
                super().__init__()
                self.gate = nn.Linear(d, len(names))
                self.experts = {}
                for name in names:
                    expert = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                    self.experts[name] = expert
        """,
        # The same projections in a plain dict built by `dict(zip(...))`: the optimizer never sees them.
        """
        import torch.nn as nn

        class HeteroEncoder(nn.Module):
            def __init__(self, node_types, dims, hidden):
                super().__init__()
                self.input_proj = dict(zip(node_types, (nn.Linear(d, hidden) for d in dims)))
        """,
        # VGG's `make_layers`: a local list filled by branches appending different layers, returned as it is
        _VGG_LAYERS % """
        class VGG(nn.Module):
            def __init__(self, cfg=(64, "M", 128, "M")):
                super().__init__()
                self.features = make_layers(cfg)

            def forward(self, x):
                for layer in self.features:
                    x = layer(x)
                return x
        """,
        # a helper's list of blocks, a list repeated from one block, and an empty list() filled by append
        _HELPER_BLOCKS % "make_blocks(depth, d)",
        # Inception-style branches: a helper's tuple of a generator of layers
        """
        import torch.nn as nn

        def make_branches(d, n):
            return tuple(nn.Conv2d(d, d, 3, padding=1) for _ in range(n))

        class MultiBranch(nn.Module):
            def __init__(self, d, n):
                super().__init__()
                self.branches = make_branches(d, n)

            def forward(self, x):
                return sum(branch(x) for branch in self.branches)
        """,
        # the helper's dict of heads over task names the file does not state
        Invalid(_TASK_HEADS % "{task: nn.Linear(d, 1) for task in tasks}",
                fixed=(_TASK_HEADS % "{task: nn.Linear(d, 1) for task in tasks}").replace(
                    "self.heads = make_heads(tasks, d)", "self.heads = nn.ModuleDict(make_heads(tasks, d))")),
        """
        import torch.nn as nn

        class Ensemble(nn.Module):
            def __init__(self, d, n):
                super().__init__()
                self.encoders = [nn.Sequential(nn.Linear(d, d), nn.ReLU())] * n
        """,
        """
        import torch.nn as nn

        class ConvStack(nn.Module):
            def __init__(self, d, n):
                super().__init__()
                self.convs = list()
                for _ in range(n):
                    conv = nn.Conv1d(d, d, 3, padding=1)
                    self.convs.append(conv)
        """,
        # One head per horizon, kept in a tuple built from a generator.
        Invalid("""
        import torch
        import torch.nn as nn
        class Forecaster(nn.Module):
            def __init__(self, d, horizons=(1, 7, 30)):
                super().__init__()
                self.body = nn.GRU(d, 32, batch_first=True)
                self.heads = tuple(nn.Linear(32, 1) for _ in horizons)
            def forward(self, x):
                out, _ = self.body(x)
                return torch.cat([head(out[:, -1]) for head in self.heads], dim=1)
        """, fixed="""
        import torch
        import torch.nn as nn
        class Forecaster(nn.Module):
            def __init__(self, d, horizons=(1, 7, 30)):
                super().__init__()
                self.body = nn.GRU(d, 32, batch_first=True)
                self.heads = nn.ModuleList(tuple(nn.Linear(32, 1) for _ in horizons))
            def forward(self, x):
                out, _ = self.body(x)
                return torch.cat([head(out[:, -1]) for head in self.heads], dim=1)
        """),
        Invalid(
            """
            import torch.nn as nn
            class Forecaster(nn.Module):
                def __init__(self, hidden, horizons):
                    super().__init__()
                    self.heads = [nn.Linear(hidden, 1) for _ in horizons]
            """,
            fixed="""
            import torch.nn as nn
            class Forecaster(nn.Module):
                def __init__(self, hidden, horizons):
                    super().__init__()
                    self.heads = nn.ModuleList([nn.Linear(hidden, 1) for _ in horizons])
            """,
        ),
        Invalid(
            """
            import torch.nn as nn
            class Siamese(nn.Module):
                def __init__(self, d):
                    super().__init__()
                    self.encoders = (nn.Linear(d, 16), nn.Linear(d, 16))
                    self.towers = {"a": nn.Conv2d(3, 8, 3), "b": nn.Conv2d(3, 8, 3)}
            """,
            fixed="""
            import torch.nn as nn
            class Siamese(nn.Module):
                def __init__(self, d):
                    super().__init__()
                    self.encoders = nn.ModuleList([nn.Linear(d, 16), nn.Linear(d, 16)])
                    self.towers = nn.ModuleDict({"a": nn.Conv2d(3, 8, 3), "b": nn.Conv2d(3, 8, 3)})
            """,
            count=2,
        ),
        Invalid(
            """
            import torch.nn as nn
            def make_head(dim):
                return nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))
            class Ensemble(nn.Module):
                def __init__(self, dim, k):
                    super().__init__()
                    heads = [make_head(dim) for _ in range(k)]
                    self.heads = heads
            """,
            fixed="""
            import torch.nn as nn
            def make_head(dim):
                return nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))
            class Ensemble(nn.Module):
                def __init__(self, dim, k):
                    super().__init__()
                    heads = [make_head(dim) for _ in range(k)]
                    self.heads = nn.ModuleList(heads)
            """,
        ),
        """
        import torch.nn as nn
        # a grid of layers in nested lists
        class Grid(nn.Module):
            def __init__(self, dim, rows, cols):
                super().__init__()
                self.cells = [[nn.Linear(dim, dim) for _ in range(cols)] for _ in range(rows)]
        """,
        """
        import torch.nn as nn
        class MultiTask(nn.Module):
            def __init__(self, dim, tasks):
                super().__init__()
                self.towers = {}
                for task in tasks:
                    self.towers[task] = nn.Linear(dim, 1)
        """,
        Invalid(
            """
            import torch.nn as nn
            class Block(nn.Module):
                def __init__(self, c):
                    super().__init__()
                    self.conv = nn.Conv1d(c, c, 3, padding=1)
            class Net(nn.Module):
                def __init__(self, c, depth):
                    super().__init__()
                    self.blocks = []
                    for _ in range(depth):
                        block = Block(c)
                        self.blocks.append(block)
            """,
            fixed="""
            import torch.nn as nn
            class Block(nn.Module):
                def __init__(self, c):
                    super().__init__()
                    self.conv = nn.Conv1d(c, c, 3, padding=1)
            class Net(nn.Module):
                def __init__(self, c, depth):
                    super().__init__()
                    self.blocks = nn.ModuleList()
                    for _ in range(depth):
                        block = Block(c)
                        self.blocks.append(block)
            """,
        ),
        # a project module that stores what it is handed, never doing arithmetic on it: it may be a layer
        """
        import torch.nn as nn
        class Residual(nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner
            def forward(self, x):
                return x + self.inner(x)
        class Tower(nn.Module):
            def __init__(self, blocks):
                super().__init__()
                self.blocks = [Residual(b) for b in blocks]
        """,
        # An ensemble of pretrained models of torchvision: each has weights that `.to()` and the optimizer miss.
        """
        import torch
        import torch.nn as nn
        import torchvision
        class Ensemble(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.members = [torchvision.models.resnet18(num_classes=10) for _ in range(n)]
            def forward(self, x):
                return torch.stack([m(x) for m in self.members]).mean(0)
        """,
        # An Inception-style block handed its convolution branches by the network that builds it (texar's
        # MergeLayer before its fix): its plain list holds them, and they never train.
        _PARALLEL % """

        def conv_branch(c, k):
            return nn.Sequential(nn.Conv2d(c, 16, k, padding=k // 2), nn.BatchNorm2d(16), nn.ReLU())

        class InceptionStem(nn.Module):
            def __init__(self, c, kernel_sizes):
                super().__init__()
                self.conv = nn.Conv2d(3, c, 3, padding=1)
                branches = [conv_branch(c, k) for k in kernel_sizes]
                self.mix = Parallel(branches)

            def forward(self, x):
                return self.mix(self.conv(x))
        """,
        # Normalisation layers picked by name from a registry that holds batch and group norm: whichever the config
        # names, its affine weights and running statistics stay out of `.parameters()` and `state_dict()`.
        """
        import torch.nn as nn
        NORM_LAYERS = {"batch": nn.BatchNorm2d, "instance": nn.InstanceNorm2d, "none": nn.Identity}
        class ConvStack(nn.Module):
            def __init__(self, channels, norm="batch"):
                super().__init__()
                self.convs = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(channels, channels[1:]))
                self.norms = [NORM_LAYERS[norm](c) for c in channels[1:]]
            def forward(self, x):
                for conv, norm in zip(self.convs, self.norms):
                    x = norm(conv(x)).relu()
                return x
        """,
        # A typed attribute holding its heads in a plain list.
        """
        from typing import List
        import torch.nn as nn
        class MultiTaskHead(nn.Module):
            def __init__(self, d, tasks):
                super().__init__()
                self.heads: List[nn.Linear] = [nn.Linear(d, n) for n in tasks.values()]
        """,
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # In source order: ("store", (class, attribute), the assignment, its value, the plain container, whether it
        # holds a weighted layer) for a plain container written to `self.<attribute>`; ("rebind", key) for
        # anything else written there; ("grow", key, whether what goes in is weighted); ("registering", class)
        # for a class that registers layers by names we can't see (`add_module(f"conv{i}", conv)`, `setattr(self,
        # name, layer)`); ("wrapped", key) for an attribute a torch container is built from (`nn.Sequential(*self.
        # layers)`).
        self._events: list[tuple] = []

    def _attribute(self, expr: cst.BaseExpression) -> tuple[cst.ClassDef, str] | None:
        """(class, "heads") for `self.heads` in a method of a module class."""
        class_def = self.ctx.class_def
        if class_def is None or self.ctx.function is None or type(expr) is not cst.Attribute \
                or type(expr.value) is not cst.Name or expr.value.value != "self":
            return None
        if not is_torch_module_class(self.ctx, class_def, imported=True):  # also on a base of another module
            return None
        return class_def, expr.attr.value

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            self._store(node, node.targets[0].target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:  # `self.acts: List[nn.Module] = [...]` stores as a plain assignment does
            self._store(node, node.target, node.value)

    def _store(self, node: cst.Assign | cst.AnnAssign, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if type(target) is cst.Subscript:  # `self.towers[name] = nn.Linear(...)` grows a plain dict
            self._grow(target.value, (value,))
            return
        key = self._attribute(target)
        if key is None:
            return
        literal = self._local_container(value) if type(value) is cst.Name else _converted(self.ctx, value)
        if type(literal) in _PLAIN or type(literal) is cst.GeneratorExp:
            grown = self._local_growth(value) if type(value) is cst.Name else ()
            weighted = any(self._is_weighted(e) for e in (*_elements(literal), *grown))  # type: ignore[arg-type]
            self._events.append(("store", key, node, value, literal, weighted, _kind(literal, value)))
        elif type(value) is cst.Call and torch_layer(self.ctx, value) is None \
                and (kind := self._returned_plain(value) or self._returned_filled(value)) is not None:
            self._events.append(("store", key, node, value, value, True, kind))
        else:
            self._events.append(("rebind", key))

    def _returned_plain(self, call: cst.Call) -> tuple[str, str] | None:
        """What a function of the project returns when it is a plain list, tuple or dict of layers with parameters
        (`self.blocks = make_blocks(depth)` where it returns `[Block(d) for _ in range(depth)]`, `self.heads =
        make_heads(names)` where it returns `{n: nn.Linear(d, 1) for n in names}`), as `_kind` says it."""
        built = evaluator(self.ctx).value(call)
        if isinstance(built, Seq):
            items, kind = built.items, (built.kind, "ModuleList")
        elif isinstance(built, Mapping):
            items, kind = tuple(value for _, value in built.items), ("dict", "ModuleDict")
        else:
            return None
        return kind if any(_weighted_object(item) for item in (*items, built.each) if item is not None) else None

    def _returned_filled(self, call: cst.Call) -> tuple[str, str] | None:
        """A function of the file that fills a local plain list or dict with layers and returns it as it is (VGG's
        `make_layers(cfg)`: `layers = []`, then `layers.append(nn.MaxPool2d(2))` or `layers.append(nn.Conv2d(...))`
        by the entry, `return layers`), as `_kind` says it. The objects floor keeps no element of a list whose
        branches append different layers; what the function appends says enough here."""
        binding = self.ctx.binding(call.func) if type(call.func) is cst.Name else None
        if binding is None or binding.kind != "def" or type(binding.statement) is not cst.FunctionDef:
            return None
        helper = binding.statement
        returned = {ret.value.value if type(ret.value) is cst.Name else None
                    for ret in self.ctx.walk(helper.body) if type(ret) is cst.Return}
        if len(returned) != 1 or None in returned:
            return None
        name = cst.Name(returned.pop())  # type: ignore[arg-type]
        built = [node.value for node in self.ctx.walk(helper.body) if type(node) is cst.Assign
                 and any(type(t.target) is cst.Name and t.target.value == name.value for t in node.targets)]
        literal = _converted(self.ctx, built[0]) if len(built) == 1 else None
        if type(literal) not in _PLAIN or _handed(self.ctx, name, helper):
            return None
        grown = self._local_growth(name, helper)
        weighted = any(self._is_weighted(e) for e in (*_elements(literal), *grown))  # type: ignore[arg-type]
        return _kind(literal, literal) if weighted else None  # type: ignore[arg-type]

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._grow(node.target, _elements(node.value))

    def _grow(self, container: cst.BaseExpression, items: tuple[cst.BaseExpression, ...]) -> None:
        """`items` go into `container`: a plain container stored on self now holds a weighted layer if one does."""
        key = self._attribute(container)
        if key is not None:
            weighted = any(self._is_weighted(item) and not self._handed_elsewhere(item) for item in items)
            self._events.append(("grow", key, weighted))
            for item in items:
                passed = self._item_of_parameter(item)
                if not weighted and passed is not None:
                    self._events.append(("grow passed", key, *passed))

    def _item_of_parameter(self, item: cst.BaseExpression) -> tuple[cst.FunctionDef, str] | None:
        """(`__init__`, "layers") for `layer` of `for layer in layers: self._layers.append(layer)` in a constructor
        with a `layers` parameter: what goes in is what the class's constructions hand it."""
        function = self.ctx.function
        binding = self.ctx.binding(item) if type(item) is cst.Name else None
        if function is None or function.name.value != "__init__" or binding is None or binding.kind != "for" \
                or type(binding.statement) is not cst.For or type(binding.statement.iter) is not cst.Name:
            return None
        iterated = self.ctx.binding(binding.statement.iter, binding.seq)
        if iterated is None or iterated.kind != "param" or iterated.statement is not function:
            return None
        return function, binding.statement.iter.value

    def _passed_weighted(self, class_def: cst.ClassDef, init: cst.FunctionDef, parameter: str) -> bool:
        """Every construction of the class in the file hands `parameter` a list or tuple holding a layer with
        parameters (`MergeLayer([conv_branch(d, k) for k in sizes])`), as the objects floor builds it. A layer
        class is mostly built in another module's constructor: its names are read where that method ends."""
        ctx = self.ctx
        sites = ctx.calls_to(class_def.name.value)
        if not sites or any(type(site.node.func) is not cst.Name for site in sites):
            return False
        for site in sites:
            argument = passed_argument(init, site.node, parameter, constructor=True)
            point = ctx.point_after(site.function) if site.function is not None else ctx.module_point()
            if argument is None or point is None:
                return False
            with ctx.at(point):
                # a local list handed to the construction is what it was built as: the floor widens a list it
                # hands to a call, which may change it, but this constructor only reads it; so where nothing else
                # changes it but by adding (which keeps what it holds), the literal tells what it holds
                value, _ = ctx.value_of(argument)
                literal = type(value) in (cst.List, cst.Tuple, cst.ListComp) and (
                    type(argument) is not cst.Name
                    or _only_grown(site.function or ctx.module, argument.value, site.node))
                built = evaluator(ctx).value(value if literal else argument)
            if not isinstance(built, Seq) or not any(
                    _weighted_object(item) for item in (*built.items, built.each) if item is not None):
                return False
        return True

    def _handed_elsewhere(self, item: cst.BaseExpression) -> bool:
        """A local layer that the function also hands to a call other than the one growing a container: the dict
        may keep handles to layers that call registers (x-transformers' `set_module_by_path(net, path, wrapper)`
        then `self.ttt_wrappers[path] = wrapper`)."""
        function = self.ctx.function
        if type(item) is not cst.Name or function is None:
            return False
        return any(type(node) is cst.Call
                   and not (type(node.func) is cst.Attribute and node.func.attr.value in _GROWERS)
                   and any(type(arg.value) is cst.Name and arg.value.value == item.value for arg in node.args)
                   for node in self.ctx.walk(function.body))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Name and func.value == "setattr":
            self._events.append(("registering", self.ctx.class_def))
        if type(func) is not cst.Attribute:
            return
        name = func.attr.value
        if name in _GROWERS:
            if node.args:
                grown = node.args[-1].value
                self._grow(func.value, _elements(grown) if name == "extend" else (grown,))
        elif name in ("add_module", "register_module"):
            self._register(node)
        else:
            self._note_wrapped(node)

    def _register(self, call: cst.Call) -> None:
        """`self.add_module(name, self.cnns[key])` registers what that one container holds, and says nothing of
        another the class fills beside it (RLlib's complex-input model registers its CNNs this way and leaves the
        dense encoders of `self.flatten` unregistered); any other module handed in may be in any container."""
        module = call.args[1].value if len(call.args) == 2 and not call.args[1].star else None
        key = self._attribute(module.value) if type(module) is cst.Subscript else None
        self._events.append(("wrapped", key) if key is not None else ("registering", self.ctx.class_def))

    def _note_wrapped(self, call: cst.Call) -> None:
        """`nn.Sequential(*self.blocks)`, `nn.ModuleList(self.heads)`: the elements are registered through it. So
        are elements handed over one by one (`nn.Sequential(self.noisy[0], nn.ReLU(), self.noisy[1])`, a list kept
        as handles to layers the container owns); which elements are left out is not followed. In a subclass of a
        container, `super().__init__(*self.layers)` is that container's constructor."""
        if torch_layer(self.ctx, call) not in CONTAINERS and not self._container_init(call):
            return
        for arg in call.args:
            value = arg.value
            key = self._attribute(value.value if type(value) is cst.Subscript else value)
            if key is not None:
                self._events.append(("wrapped", key))

    def _container_init(self, call: cst.Call) -> bool:
        """`super().__init__(...)` (or `super(MLP, self).__init__(...)`) in a class whose base is `nn.Sequential`,
        `nn.ModuleList` or `nn.ModuleDict`."""
        func, class_def = call.func, self.ctx.class_def
        if class_def is None or type(func) is not cst.Attribute or func.attr.value != "__init__" \
                or type(func.value) is not cst.Call or type(func.value.func) is not cst.Name \
                or func.value.func.value != "super":
            return False
        for base in class_def.bases:
            qualname = self.ctx.qualname(base.value) or ""
            if qualname.startswith("torch.nn.") and qualname.rsplit(".", 1)[-1] in CONTAINERS:
                return True
        return False

    def finish(self) -> None:
        # (class, attribute) -> the plain container stored there; None once the attribute holds anything else
        stores: dict[tuple[cst.ClassDef, str], _Store | None] = {}
        registering: set[cst.ClassDef | None] = set()
        wrapped: set[tuple[cst.ClassDef, str]] = set()
        for kind, *event in self._events:
            if kind == "store":
                key, node, value, literal, weighted, kind = event
                # a second write rebinds it: `self.layers = nn.ModuleList(self.layers)`, or anything else
                stores[key] = _Store(node, value, literal, weighted, kind) if key not in stores else None
            elif kind == "rebind" and event[0] in stores:
                stores[event[0]] = None
            elif kind == "grow":
                store = stores.get(event[0])
                if store is not None and event[1]:
                    store.weighted = True
            elif kind == "grow passed":
                store = stores.get(event[0])
                if store is not None and not store.weighted and self._passed_weighted(event[0][0], *event[1:]):
                    store.weighted = True
            elif kind == "registering":
                registering.add(event[0])
            elif kind == "wrapped":
                wrapped.add(event[0])
        for (owner, attr), store in stores.items():
            if store is None or not store.weighted or (owner, attr) in wrapped or owner in registering \
                    or self._base_reads(owner, attr):
                continue
            kind, container = store.kind
            self.report(store.node, f"submodules kept in a plain Python {kind} are not registered: their parameters "
                                    f"are not in `.parameters()` or `state_dict()` and `.to()` does not move them; "
                                    f"use `nn.{container}`", self._fix(store))

    def _local_container(self, name: cst.Name) -> cst.BaseExpression | None:
        """The plain container a local name was built as, when the function hands it to no call (a list also
        given to `nn.Sequential(*layers)` is registered there)."""
        literal, _ = self.ctx.value_of(name)
        if type(literal) not in _PLAIN or self.ctx.function is None or _handed(self.ctx, name, self.ctx.function):
            return None
        return literal

    def _local_growth(self, name: cst.Name, function: cst.FunctionDef | None = None) -> tuple[cst.BaseExpression, ...]:
        """What the function (the one being visited unless given) appends to a local list or sets in a local dict:
        `heads.append(nn.Linear(d, 1))`, `heads += [...]`, `heads[name] = nn.Linear(d, k)`."""
        grown: list[cst.BaseExpression] = []
        for node in self.ctx.walk((function or self.ctx.function).body):  # type: ignore[union-attr]
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.args \
                    and node.func.attr.value in _GROWERS and type(node.func.value) is cst.Name \
                    and node.func.value.value == name.value:
                value = node.args[-1].value
                grown += _elements(value) if node.func.attr.value == "extend" else (value,)
            elif type(node) is cst.AugAssign and type(node.target) is cst.Name and node.target.value == name.value:
                grown += _elements(node.value)
            elif type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Subscript \
                    and type(subscripted := node.targets[0].target.value) is cst.Name and subscripted.value == name.value:
                grown.append(node.value)  # `heads[name] = nn.Linear(d, k)`
        return tuple(grown)

    def _base_reads(self, class_def: cst.ClassDef, attr: str) -> bool:
        """A base class of this file reads `self.<attr>`: it may register what the subclass stores there (a base's
        `build()` wrapping `self.layers` in `nn.Sequential`), which this rule does not follow."""
        for base in class_def.bases:
            binding = self.ctx.binding(base.value) if type(base.value) is cst.Name else None
            if binding is None or binding.kind != "class":
                continue
            for node in self.ctx.walk(binding.statement):
                if type(node) is cst.Attribute and node.attr.value == attr and type(node.value) is cst.Name \
                        and node.value.value == "self":
                    return True
        return False

    def _fix(self, store: _Store) -> Fix | None:
        value = store.value
        container = store.kind[1]
        spelled = self.ctx.spelling(f"torch.nn.{container}")
        if spelled is None:
            return None
        if type(value) is cst.Name:  # `self.heads = heads`: `self.heads = nn.ModuleList(heads)`
            return Fix(f"Wrap in `{spelled}` (unsafe: the layers' state_dict keys change)",
                       ((value, cst.Call(cst.parse_expression(spelled), [cst.Arg(value)])),), "unsafe")
        if type(store.literal) is cst.Dict and not all(type(e) is cst.DictElement and type(e.key) is cst.SimpleString
                                                       for e in store.literal.elements):
            return None  # ModuleDict keys must be strings
        if type(value) is cst.DictComp:
            return None
        if type(value) is cst.Tuple:
            value = cst.List([e.with_changes(comma=cst.MaybeSentinel.DEFAULT) if i == len(value.elements) - 1
                              else e for i, e in enumerate(value.elements)])
        args = [] if not _elements(value) and type(value) in (cst.List, cst.Dict) else [cst.Arg(value)]
        wrapped = cst.Call(cst.parse_expression(spelled), args)
        return Fix(f"Wrap in `{spelled}` (unsafe: the layers' state_dict keys change)",
                   ((store.value, wrapped),), "unsafe")

    def _is_weighted(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """`expr` is built here as a module that owns parameters: a weighted torch.nn layer, a torch container of
        one, or a module class of the project; through a local name bound to one."""
        if depth > 4:
            return False
        if type(expr) in _PLAIN or type(expr) is cst.GeneratorExp:  # nested: `[[nn.Linear(...), ...] for ...]`
            return any(self._is_weighted(e, depth + 1) for e in _elements(expr))
        if type(expr) is cst.Name:
            value, _ = self.ctx.value_of(expr)
            return value is not expr and type(value) is cst.Call and self._is_weighted(value, depth + 1)
        if type(expr) is not cst.Call:
            return False
        layer = torch_layer(self.ctx, expr)
        if layer is not None:
            if layer in CONTAINERS:
                return any(self._is_weighted(e, depth + 1) for arg in expr.args for e in _elements(arg.value))
            return layer in WEIGHTED
        if type(expr.func) is cst.Subscript:
            return self._registry_weighted(expr.func)
        if type(expr.func) not in (cst.Name, cst.Attribute) or dotted_name(expr.func) is None:
            return False
        return _weighted_object(evaluator(self.ctx).value(expr))

    def _registry_weighted(self, entry: cst.Subscript) -> bool:
        """`ACTIVATIONS[name]()` with `ACTIVATIONS` a dict of layer classes the code states whole, one of which
        owns parameters (`"prelu": nn.PReLU`): whichever name the configuration picks, the code allows that one."""
        registry = evaluator(self.ctx).value(entry.value)
        if not isinstance(registry, Mapping) or not registry.complete or not registry.items:
            return False
        weighted = False
        for _, cls in registry.items:
            if isinstance(cls, Imported) and cls.qualname.startswith("torch.nn."):
                weighted = weighted or cls.qualname.rsplit(".", 1)[-1] in WEIGHTED
            elif isinstance(cls, ClassValue):
                weighted = weighted or _weighted_object(Instance(cls, generic=True))
            else:
                return False  # a factory function or a value the analysis does not know: what it builds is not stated
        return weighted


def _weighted_object(built: object, depth: int = 0) -> bool:
    """An object the objects floor built that owns parameters: a project module, a weighted torch.nn layer, or a
    torch container (made by a helper, `def make_head(d): return nn.Sequential(...)`) holding one."""
    if isinstance(built, Instance):
        return is_torch_module_class(built.cls.ctx, built.cls.node, imported=True) and not _parameter_free(built, depth)
    if not isinstance(built, TorchObject):
        return False
    if builds_module(built.qualname):  # a torchvision / timm / transformers model: it has weights
        return True
    name = built.qualname.rsplit(".", 1)[-1]
    if name in CONTAINERS and built.items is not None and depth < 4:
        values = [v for _, v in built.items.items] if isinstance(built.items, Mapping) else list(built.items.items)
        if built.items.each is not None:  # the layers of a loop of unknown length: `nn.Sequential(*[...])`
            values.append(built.items.each)
        return any(_weighted_object(value, depth + 1) for value in values)
    return name in WEIGHTED


_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


# Methods through which a module gains parameters or submodules by names the attributes don't show.
def _only_grown(scope: cst.CSTNode, name: str, handed: cst.Call) -> bool:
    """Nothing in `scope` changes the list `name` but by adding to it (`append`, `extend`, `insert`): no item set
    or deleted, no other changing method (`clear`, `pop`), and no call but `handed` given it."""
    for change in in_place_changes(scope):
        through = change.through
        if change.at is handed or change.kind == "method" and change.at.func.attr.value in _GROWERS:  # type: ignore
            continue
        if change.kind == "target":
            if type(through) is not cst.Subscript:
                continue
            through = through.value
        if type(through) is cst.Name and through.value == name:
            return False
    return True


_REGISTERS = frozenset({"register_parameter", "add_module", "register_module", "setattr"})


def _parameter_free(instance: Instance, depth: int) -> bool:
    """A project module that provably holds no parameters: a direct `nn.Module` subclass whose `__init__` stores
    only parameter-free torch layers, numbers and strings, parameter-free project modules, and values it does
    arithmetic on (a module supports none: `(self.kernel_size - 1) // 2`). Anything else, an attribute set outside
    `__init__`, or a registration by name, may hold weights."""
    node, ctx = instance.cls.node, instance.cls.ctx
    if instance.generic or instance.tainted or instance.items is not None or depth >= 4 or len(node.bases) != 1 \
            or ctx.qualname(node.bases[0].value) != "torch.nn.Module":
        return False
    stored, arithmetic = _self_attributes(node)
    if stored is None or not stored <= set(instance.attrs) or _stores_parameter(ctx, node):
        return False
    return all(_free_value(value, name in arithmetic, depth) for name, value in instance.attrs.items())


def _stores_parameter(ctx: Context, class_def: cst.ClassDef) -> bool:
    """The class stores an `nn.Parameter` on `self` (`self.weight = nn.Parameter(torch.randn(d_in, d_out))`): it
    owns that weight, whatever the objects floor made of the tensor the call wraps (an expert of another module,
    built with sizes the construction does not state, is read with an unknown weight)."""
    return any(type(node) is cst.Assign and type(node.value) is cst.Call
               and ctx.qualname(node.value.func) in _PARAMETER_CLASSES for node in walk(class_def))


def _free_value(value: object, in_arithmetic: bool, depth: int) -> bool:
    if isinstance(value, (Const, int, float, str)):
        return True
    if isinstance(value, Seq):
        return all(_free_value(item, False, depth) for item in value.items) and value.complete
    if isinstance(value, Instance):
        return _parameter_free(value, depth + 1)
    if isinstance(value, TorchObject):
        name = value.name
        return value.qualname.startswith("torch.nn.") and not builds_module(value.qualname) \
            and name not in WEIGHTED and name not in CONTAINERS and name != "Parameter"
    return (value is UNKNOWN or isinstance(value, Opaque)) and in_arithmetic


def _self_attributes(class_def: cst.ClassDef) -> tuple[set[str] | None, set[str]]:
    """The attributes any method of the class assigns on `self`, and those it reads as an operand of arithmetic or
    a comparison; None for the first when the class registers by name."""
    stored: set[str] = set()
    arithmetic: set[str] = set()

    def self_attr(expr: cst.BaseExpression) -> str | None:
        if type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self":
            return expr.attr.value
        return None

    for node in walk(class_def):
        if type(node) in (cst.Assign, cst.AnnAssign, cst.AugAssign):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            stored.update(name for t in targets if (name := self_attr(t)) is not None)
        elif type(node) is cst.Call and (dotted_name(node.func) or "").rsplit(".", 1)[-1] in _REGISTERS:
            return None, arithmetic
        elif type(node) is cst.BinaryOperation:
            arithmetic.update(name for e in (node.left, node.right) if (name := self_attr(e)) is not None)
        elif type(node) is cst.Comparison:
            operands = [node.left, *(c.comparator for c in node.comparisons)]
            arithmetic.update(name for e in operands if (name := self_attr(e)) is not None)
    return stored, arithmetic


def _handed(ctx: Context, name: cst.Name, function: cst.FunctionDef) -> bool:
    """The function hands the local container to a call (`nn.Sequential(*layers)` registers what it holds)."""
    return any(type(node) is cst.Call and any(type(arg.value) is cst.Name and arg.value.value == name.value
                                              for arg in node.args)  # type: ignore[attr-defined]
               for node in ctx.walk(function.body))


def _converted(ctx: Context, value: cst.BaseExpression) -> cst.BaseExpression:
    """What `list(...)` / `tuple(...)` of a comprehension or a literal holds (`tuple(nn.Linear(d, 1) for _ in
    horizons)` is a plain tuple of layers), an empty `list()` / `dict()` (filled later by `append` or by item), and
    a repeated list (`[block] * n`: n references to the same layers), `dict(zip(keys, values))` as a dict of the
    values; `value` itself otherwise."""
    if type(value) is cst.Call and type(value.func) is cst.Name and value.func.value in ("list", "tuple", "dict") \
            and ctx.binding(value.func) is None:
        if not value.args:
            return cst.Dict([]) if value.func.value == "dict" else cst.List([])
        if value.func.value != "dict" and len(value.args) == 1 and value.args[0].keyword is None \
                and not value.args[0].star and type(value.args[0].value) in (*_PLAIN, cst.GeneratorExp):
            return value.args[0].value
        values = _zipped_values(ctx, value.args[0]) if value.func.value == "dict" and len(value.args) == 1 else None
        if values is not None:
            # `dict(zip(names, [nn.Linear(d, hidden) for d in dims]))`: a dict whose values are the layers
            return cst.Dict([cst.DictElement(cst.Name("_"), element) for element in _elements(values)])
    if type(value) is cst.BinaryOperation and type(value.operator) is cst.Multiply:
        repeated = [side for side in (value.left, value.right) if type(side) is cst.List]
        if len(repeated) == 1:
            return repeated[0]
    return value


def _zipped_values(ctx: Context, arg: cst.Arg) -> cst.BaseExpression | None:
    """The values of `zip(keys, values)` handed to `dict(...)`, when they are a plain container or a comprehension."""
    zipped = arg.value
    if arg.keyword is not None or arg.star or type(zipped) is not cst.Call or type(zipped.func) is not cst.Name \
            or zipped.func.value != "zip" or ctx.binding(zipped.func) is not None or len(zipped.args) != 2 \
            or any(a.keyword is not None or a.star for a in zipped.args):
        return None
    values = zipped.args[1].value
    return values if type(values) in (*_PLAIN, cst.GeneratorExp) else None


def _elements(value: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
    """The values a container expression holds: list and tuple elements, dict values, a comprehension's element,
    or the expression itself when it is a single value (an unpacked `*others` is none of ours)."""
    kind = type(value)
    if kind is cst.List or kind is cst.Tuple:
        return tuple(e.value for e in value.elements if type(e) is cst.Element)  # type: ignore[attr-defined]
    if kind is cst.Dict:
        return tuple(e.value for e in value.elements if type(e) is cst.DictElement)  # type: ignore[attr-defined]
    if kind is cst.ListComp or kind is cst.GeneratorExp:
        return (value.elt,)  # type: ignore[attr-defined]
    if kind is cst.DictComp:
        return (value.value,)  # type: ignore[attr-defined]
    return (value,)


def _kind(value: cst.BaseExpression, stored: cst.BaseExpression) -> tuple[str, str]:
    """What the code wrote (`stored`, holding `value`) and the torch container that registers it: ("list",
    "ModuleList")."""
    if type(value) in (cst.Dict, cst.DictComp):
        return "dict", "ModuleDict"
    converted = type(stored) is cst.Call and dotted_name(stored.func) == "tuple"
    return ("tuple" if type(value) is cst.Tuple or converted else "list"), "ModuleList"
