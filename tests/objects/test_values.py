"""What the objects floor says an expression holds: models built by helpers, config loops and constructor defaults,
typed parameters, attributes, containers; and where it stays unknown."""

from __future__ import annotations

import libcst as cst

from shapecheck.objects.calls import positional_parameters
from shapecheck.objects.values import UNKNOWN, Mapping, Seq, TorchObject
from shapecheck.shapes.evaluator import evaluator
from tests.shapes.probe import analyse, probe

# the model two tests build, with its constructor's defaults and with a partial of it
CLASSIFIER = '''
import torch
import torch.nn as nn

class Classifier(nn.Module):
    def __init__(self, in_features=784, hidden=512, n_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
'''

def test_a_model_built_with_its_constructor_defaults_runs_its_forward() -> None:
    assert probe(CLASSIFIER + '''
model = Classifier()
probe(model(torch.randn(64, 784)))
probe(Classifier(hidden=32, n_classes=3)(torch.randn(8, 784)))
probe_conflict(model(torch.randn(64, 28, 28)))
''') == ["(64, 10)", "(8, 3)",
         "`model(torch.randn(64, 28, 28))`: the input is (64, 28, 28): then in Classifier.forward, `self.fc1(x)`: "
         "x is (64, 28, 28): 28 features (last dim), but `self.fc1` = nn.Linear(in_features, hidden) expects 784"]


def test_layers_from_a_helper_and_from_a_loop_over_a_config_list() -> None:
    assert probe('''
import torch
from torch import nn

def conv_bn(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))

def make_layers(cfg, in_channels=3):
    layers = []
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            layers += [nn.Conv2d(in_channels, v, kernel_size=3, padding=1), nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)

class VGG(nn.Module):
    def __init__(self, cfg, num_classes=10):
        super().__init__()
        self.stem = conv_bn(3, 16)
        self.features = make_layers(cfg, 16)
        self.classifier = nn.Linear(128 * 8 * 8, num_classes)

    def forward(self, x):
        x = self.features(self.stem(x))
        return self.classifier(x.view(x.size(0), -1))

net = VGG([64, "M", 128, "M"])
probe(net.features(torch.randn(2, 16, 32, 32)))
probe(net(torch.randn(2, 3, 32, 32)))
probe_conflict(net(torch.randn(2, 3, 64, 64)))
''') == ["(2, 128, 8, 8)", "(2, 10)",
         "`net(torch.randn(2, 3, 64, 64))`: the input is (2, 3, 64, 64): then in VGG.forward, "
         "`self.classifier(x.view(x.size(0), -1))`: the input is (2, 32768): 32768 features (last dim), "
         "but `self.classifier` = nn.Linear(128 * 8 * 8, num_classes) expects 8192"]


def test_a_parameter_typed_with_a_class_is_an_instance_of_it() -> None:
    assert probe('''
import torch
import torch.nn as nn

class Head(nn.Module):
    def __init__(self, d_model: int, n_classes: int):
        super().__init__()
        self.proj = nn.Linear(d_model, n_classes)

    def forward(self, h):
        return self.proj(h)

def step(model: Head, h):
    probe(model(torch.randn(4, 16)))
''') == ["(4, n_classes)"]


def test_a_parameter_typed_with_a_class_of_python_is_one_opaque_object() -> None:
    # `args: argparse.Namespace` states no attribute; each one read stays the same size where it is passed on
    assert probe('''
import argparse
import types
import torch

def windows(n: int, length: int):
    return torch.rand(n, length, 2)

def train(args: argparse.Namespace, cfg: types.SimpleNamespace) -> None:
    probe(windows(32, args.seq_len))
    probe(torch.zeros(cfg.hidden, args.seq_len))
''') == ["(32, args.seq_len, 2)", "(cfg.hidden, args.seq_len)"]


def test_a_parameter_typed_int_indexes_like_an_int() -> None:
    # a dataset's `__getitem__(self, idx: int)` drops the first dim; unannotated, the index may be a slice or a
    # tensor of indices, so the result stays unknown
    assert probe('''
import torch
from torch.utils.data import Dataset

class Frames(Dataset):
    def __init__(self, n=16):
        self.frames = torch.randn(n, 6, 32, 32)

    def __getitem__(self, idx: int):
        probe(self.frames[idx])

    def get(self, idx):
        probe(self.frames[idx])
''') == ["(6, 32, 32)", None]


def test_tuples_aliases_lists_and_module_lists() -> None:
    assert probe('''
import torch
import torch.nn as nn

enc, dec = nn.Linear(8, 4), nn.Linear(4, 8)
layer = enc
blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
heads = nn.ModuleDict({"cls": nn.Linear(4, 2), "box": nn.Linear(4, 8)})
x = torch.randn(5, 8)
probe(dec(layer(x)))
probe(blocks[2](torch.randn(5, 4)))
probe(heads["box"](torch.randn(5, 4)))
probe_conflict(dec(x))
''') == ["(5, 8)", "(5, 4)", "(5, 8)",
         "`dec(x)`: x is (5, 8): 8 features (last dim), but `dec` = nn.Linear(4, 8) expects 4"]


def test_what_the_code_does_not_state_stays_unknown() -> None:
    assert probe('''
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self, flag, n):
        super().__init__()
        if flag:
            self.head = nn.Linear(16, 2)
        else:
            self.head = nn.Linear(32, 2)
        self.body = nn.Linear(n, n)
        self.swapped = nn.Linear(16, 2)

    def reset(self):
        self.swapped = nn.Linear(64, 2)

    def forward(self, x):
        probe(self.head(x))
        probe_conflict(self.head(torch.randn(3, 64)))
        probe_conflict(self.swapped(torch.randn(3, 64)))
        return self.body(x)

layers = []
for i in range(n_layers):
    layers.append(nn.Linear(4, 4))
probe(nn.Sequential(*layers)(torch.randn(2, 4)))
probe_conflict(nn.Sequential(*layers)(torch.randn(2, 8)))
''') == ["(...)", None, None, "(...)", None]


def test_a_size_init_moves_on_is_not_known_to_what_was_built_from_it() -> None:
    """deeplab's `_make_layer` builds a stage from `self.inplanes` and moves it on: a layer reads its sizes when
    asked, at the attribute's last value, so an attribute `__init__` assigns again is unknown (a layer attribute
    assigned again is still the last one)."""
    assert probe('''
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inplanes = 64
        self.width = 8
        self.layer1 = self._make_layer(64)
        self.layer2 = self._make_layer(128)
        self.head = None
        self.head = nn.Linear(self.width, 2)

    def _make_layer(self, planes):
        stage = nn.Conv2d(self.inplanes, planes * 4, 1)
        self.inplanes = planes * 4
        return stage

    def forward(self, x):
        probe_conflict(self.layer1(torch.randn(1, 64, 8, 8)))
        probe_conflict(self.layer2(torch.randn(1, 256, 8, 8)))
        probe_conflict(self.head(torch.randn(3, 16)))
        return x
''') == [None, None, "`self.head(torch.randn(3, 16))`: the input is (3, 16): 16 features (last dim), but `self.head` = nn.Linear(self.width, 2) expects 8"]


def test_a_container_forward_fills_holds_what_an_earlier_call_put_there() -> None:
    """OpenNMT's decoding cache: `__init__` stores an empty tensor in a dict, `forward` replaces it at the first step
    and reads it at later ones. A tensor buffer written by index keeps its shape."""
    assert probe('''
import torch
import torch.nn as nn

class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = (False, {"keys": torch.tensor([])})
        self.register_buffer("queue", torch.zeros(8, 16))
        self.memory = torch.zeros(8, 16)

    def forward(self, k, step):
        if step == 0:
            self.cache[1]["keys"] = k
        self.memory[0] = k[0]
        probe(self.cache[1]["keys"])
        probe(self.memory)
        return k
''') == [None, "(8, 16)"]


def test_super_init_a_base_class_and_a_dataclass_config() -> None:
    assert probe('''
from dataclasses import dataclass
import torch
import torch.nn as nn

@dataclass
class Config:
    d_model: int = 64
    vocab: int = 100

class Base(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed = nn.Embedding(config.vocab, config.d_model)

class LM(Base):
    def __init__(self, config):
        super().__init__(config)
        self.out = nn.Linear(config.d_model, config.vocab)

    def forward(self, tokens):
        return self.out(self.embed(tokens))

model = LM(Config())
probe(model(torch.randint(0, 100, (2, 7))))
probe(LM(Config(d_model=8, vocab=5))(torch.randint(0, 5, (2, 7))))
''') == ["(2, 7, 100)", "(2, 7, 5)"]


def test_a_dataclass_fields_made_by_field() -> None:
    """`field(default=...)` and a `default_factory` lambda give their values; another factory is not read."""
    assert probe('''
from dataclasses import dataclass, field
from typing import List
import torch
import torch.nn as nn

@dataclass
class Config:
    n_features: int = field(default=24)
    hidden: List[int] = field(default_factory=lambda: [64, 32])
    extra: List[int] = field(default_factory=list)

def mlp(sizes):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])

cfg = Config()
probe(mlp([cfg.n_features, *cfg.hidden, 1])(torch.randn(5, 24)))
probe(mlp([cfg.n_features, *cfg.extra, 1])(torch.randn(5, 24)))
''') == ["(5, 1)", "(...)"]


def test_a_nested_config_made_by_its_dataclass_factory() -> None:
    """`field(default_factory=ModelConfig)` is that dataclass built from its defaults; a factory that is not a
    project dataclass (a class with its own `__init__`, an import) stays unknown."""
    assert probe('''
from dataclasses import dataclass, field
import torch
import torch.nn as nn
from configs import Imported

@dataclass
class ModelConfig:
    hidden: int = 8

class Plain:
    def __init__(self, hidden=8):
        self.hidden = hidden

@dataclass
class Config:
    model: ModelConfig = field(default_factory=ModelConfig)
    plain: Plain = field(default_factory=Plain)
    imported: Imported = field(default_factory=Imported)

cfg = Config()
probe(nn.Linear(4, cfg.model.hidden)(torch.randn(5, 4)))
probe(nn.Linear(4, Config(model=ModelConfig(3)).model.hidden)(torch.randn(5, 4)))
probe(nn.Linear(4, cfg.plain.hidden)(torch.randn(5, 4)))
probe(nn.Linear(4, cfg.imported.hidden)(torch.randn(5, 4)))
''') == ["(5, 8)", "(5, 3)", "(5, cfg.plain.hidden)", "(5, cfg.imported.hidden)"]


def test_a_dataclass_config_runs_its_post_init() -> None:
    """`__post_init__` derives sizes from the fields (`head_dim = d_model // n_heads`), as the generated `__init__`
    calls it; an `init=False` field is no parameter, so positional arguments skip it. A field it sets from its old
    value (`self.hidden = self.hidden * 2`) or another method sets (`widen()`) holds no one value."""
    assert probe('''
from dataclasses import dataclass, field
import torch
import torch.nn as nn

@dataclass
class Config:
    d_model: int = 64
    n_heads: int = 4
    head_dim: int = field(init=False)
    hidden: int = 32
    width: int = 16

    def __post_init__(self):
        self.head_dim = self.d_model // self.n_heads
        self.hidden = self.hidden * 2

    def widen(self):
        self.width = 2 * self.width

cfg = Config()
probe(nn.Linear(4, cfg.head_dim)(torch.randn(5, 4)))
probe(nn.Linear(4, Config(32, 2, 8).head_dim)(torch.randn(5, 4)))
probe(nn.Linear(4, Config(32, 2, 8).hidden)(torch.randn(5, 4)))
probe(nn.Linear(4, cfg.width)(torch.randn(5, 4)))
''') == ["(5, 16)", "(5, 16)", "(...)", "(5, cfg.width)"]


def test_a_dataclass_config_has_its_dataclass_bases_fields() -> None:
    """`TrainConfig(BaseConfig)`: the base's fields come first in the generated `__init__` (positional arguments
    fill them first), with their defaults; a field stated again keeps its place and takes the new default."""
    assert probe('''
from dataclasses import dataclass
import torch
import torch.nn as nn

@dataclass
class BaseConfig:
    in_dim: int = 32
    hidden: int = 64

@dataclass
class TrainConfig(BaseConfig):
    n_classes: int = 5
    hidden: int = 128

probe(nn.Linear(4, TrainConfig().in_dim)(torch.randn(5, 4)))
probe(nn.Linear(4, TrainConfig().hidden)(torch.randn(5, 4)))
probe(nn.Linear(4, TrainConfig(8, 16, 3).n_classes)(torch.randn(5, 4)))
probe(nn.Linear(4, TrainConfig(8, 16, 3).hidden)(torch.randn(5, 4)))
''') == ["(5, 32)", "(5, 128)", "(5, 3)", "(5, 16)"]


def test_a_partial_of_a_project_class_builds_it_with_its_arguments_first() -> None:
    """`functools.partial(Classifier, in_features=32)` called with `hidden=16` builds a Classifier from both; a
    keyword of the call replaces the partial's; a partial of a partial adds to it; one of another package's class
    (`partial(nn.LayerNorm, eps=1e-6)`) stays what it was, unknown."""
    assert probe(CLASSIFIER + '''
import functools
from functools import partial

def mlp(n_in, n_out=3):
    return nn.Linear(n_in, n_out)

small = functools.partial(Classifier, in_features=32)
probe(small(hidden=16)(torch.randn(8, 32)))
probe(small(in_features=20)(torch.randn(8, 20)))
probe(partial(small, n_classes=4)()(torch.randn(8, 32)))
probe(partial(mlp, 6)(n_out=2)(torch.randn(8, 6)))
probe(partial(nn.LayerNorm, eps=1e-6)(32)(torch.randn(8, 32)))
probe_conflict(small()(torch.randn(8, 784)))
''') == ["(8, 10)", "(8, 10)", "(8, 4)", "(8, 2)", "(...)",
         "`small()(torch.randn(8, 784))`: the input is (8, 784): then in Classifier.forward, `self.fc1(x)`: x is "
         "(8, 784): 784 features (last dim), but `self.fc1` = nn.Linear(in_features, hidden) expects 32"]


def test_a_dataclass_that_nests_itself_is_not_built_forever() -> None:
    assert probe('''
from dataclasses import dataclass, field
import torch
import torch.nn as nn

@dataclass
class Node:
    width: int = 4
    child: "Node" = field(default_factory=Node)

probe(nn.Linear(4, Node().child.width)(torch.randn(5, 4)))
probe(nn.Linear(4, Node().width)(torch.randn(5, 4)))
''') == ["(...)", "(5, 4)"]


def test_a_function_of_the_file_is_run_with_its_arguments_shapes() -> None:
    assert probe('''
import torch
import torch.nn.functional as F

def split_heads(x, n_head):
    B, T, C = x.shape
    return x.view(B, T, n_head, C // n_head).transpose(1, 2)

class Attention(torch.nn.Module):
    def score(self, q, k):
        return q @ k.transpose(-2, -1)

    def forward(self, q, k):
        return self.score(q, k).softmax(-1)

q = split_heads(torch.randn(2, 5, 64), 4)
probe(q)
probe(Attention()(q, q))
probe_conflict(Attention()(q, torch.randn(2, 4, 16, 5)))
''') == ["(2, 4, 5, 16)", "(2, 4, 5, 5)",
         "`Attention()(q, torch.randn(2, 4, 16, 5))`: q is (2, 4, 5, 16): then in Attention.forward, "
         "`self.score(q, k)`: q is (2, 4, 5, 16), k is (2, 4, 16, 5): then in Attention.score, "
         "`q @ k.transpose(-2, -1)`: inner dims differ: q is (2, 4, 5, 16), k.transpose(-2, -1) is (2, 4, 5, 16); "
         "did you mean `k.transpose(-2, -1).mT`?"]


def test_a_config_loop_tells_sizes_from_markers_by_their_type() -> None:
    # `type(v) == int` / `isinstance(v, int)` pick the conv layers out of a VGG config list, pass by pass
    assert probe('''
import torch
from torch import nn

class VGG(nn.Module):
    def __init__(self, cfg, in_channels=3):
        super().__init__()
        layers = []
        for v in cfg:
            if type(v) == int:
                layers += [nn.Conv2d(in_channels, v, kernel_size=3, padding=1), nn.ReLU()]
                in_channels = v
            elif v == "M":
                layers += [nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.pools = [m for m in (1, "a", 2.0, None, [3], (4,), {}) if isinstance(m, (int, str))]

    def forward(self, x):
        return self.features(x)

def sizes(v):
    a, b, c = 5, 5, 5
    if isinstance(True, int) and type(3) is int:
        a = 1
    if type("M") != str:
        b = 1
    if isinstance(v, int):
        c = 1
    return torch.zeros(a, b, c)

model = VGG([64, "M", 128, "M"])
probe(model(torch.randn(2, 3, 32, 32)))
probe_dim(len(model.pools))
probe(sizes(3))
probe(sizes("M"))
probe(sizes(1.5))
''') == ["(2, 128, 8, 8)", "2", "(1, 5, 1)", "(1, 5, 5)", "(1, 5, 5)"]



def test_a_count_of_batches_by_true_division() -> None:
    # `range(int(len(x_train) / batch_size))`: the loop's length, so its first pass certainly runs
    assert probe('''
import torch
x = torch.randn(64, 3)
probe_dim(int(len(x) / 16))
probe_dim(len([0] * int(10 / 4)))
probe_dim(len(list(range(int(len(x) / 16)))))
''') == ["4", "2", "4"]


def test_the_length_of_a_string_is_a_size() -> None:
    # an OCR model's charset: `nn.Linear(hidden, len(ALPHABET) + 1)` (a CTC blank) has a known number of classes;
    # an f-string of stated values is that string, one with a format spec is not counted (a
    # size of its own)
    assert probe('''
import torch
import torch.nn as nn
ALPHABET = "0123456789abcdef"
probe_dim(len(ALPHABET) + 1)
probe(nn.Linear(64, len(ALPHABET) + 1)(torch.randn(8, 64)))
probe_dim(len("ab" + "c"))
probe_dim(len(f"{ALPHABET}-"))
probe_dim(len(f"{ALPHABET:>20}"))
''') == ["17", "(8, 17)", "3", "17", 'len(f"{ALPHABET:>20}")']


def test_an_attention_scale_is_a_number() -> None:
    # `self.scale = dim_head ** -0.5` and `1 / dim_head ** 0.5`: floats the scores are multiplied by, so the
    # scores keep their shape
    assert probe('''
import torch
import torch.nn as nn

class Attention(nn.Module):
    def __init__(self, dim_head=16):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.root = 1 / dim_head ** 0.5

    def forward(self, q, k):
        return (q @ k.transpose(-2, -1)) * self.scale * self.root

def scaled(x, base):
    return x * base ** -0.5

probe(Attention()(torch.randn(2, 5, 16), torch.randn(2, 7, 16)))
probe(scaled(torch.randn(3, 4), torch.randn(4)))
''') == ["(2, 5, 7)", "(3, 4)"]


def test_an_attribute_the_method_reading_it_sets() -> None:
    # a trainer's `fit` builds `self.net` and calls it; an attribute another method sets stays unknown there
    assert probe('''
import torch
import torch.nn as nn

class Trainer:
    def fit(self, x):
        self.net = nn.Linear(8, 2)
        probe(self.net(x))
        if x.size(0) > 4:
            self.head = nn.Linear(2, 3)
        probe(self.head(torch.randn(5, 2)))

    def evaluate(self, x):
        probe(self.net(x))

    def reset(self):
        self.net = nn.Linear(8, 4)

Trainer().fit(torch.randn(16, 8))
''') == ["(..., 2)", "(...)", "(...)"]


def test_a_dict_comprehension_over_names_not_stated_holds_what_each_entry_is() -> None:
    """`{task: nn.Linear(d, 1) for task in tasks}` over a parameter: its keys are not known, but every value is a
    Linear; over a stated tuple, each entry is known with its key."""
    _, ctx = analyse('''
        import torch.nn as nn
        def make_heads(tasks, d):
            return {task: nn.Linear(d, 1) for task in tasks}
        heads = make_heads(names, 8)
        stated = {task: nn.Linear(8, 1) for task in ("age", "gender")}
    ''')
    ev = evaluator(ctx)
    calls = [node.value for node in ctx.walk(ctx.module) if type(node) is cst.Assign]
    unknown, stated = ev.value(calls[0]), ev.value(calls[1])
    assert isinstance(unknown, Mapping) and not unknown.complete and not unknown.items
    assert isinstance(unknown.each, TorchObject) and unknown.each.qualname == "torch.nn.Linear"
    assert isinstance(stated, Mapping) and stated.complete and [key for key, _ in stated.items] == ["age", "gender"]


def test_a_tuple_of_a_generator_keeps_what_each_element_is() -> None:
    _, ctx = analyse('''
        import torch.nn as nn
        def make_branches(d, n):
            return tuple(nn.Linear(d, d) for _ in range(n))
        branches = make_branches(8, depth)
    ''')
    built = evaluator(ctx).value([node.value for node in ctx.walk(ctx.module) if type(node) is cst.Assign][0])
    assert isinstance(built, Seq) and built.kind == "tuple" and not built.complete
    assert isinstance(built.each, TorchObject) and built.each.qualname == "torch.nn.Linear"


def test_zip_of_a_list_and_a_tensor_of_more_rows_pairs_each_item_with_a_row() -> None:
    # 3 heads against a (4, 3, 16) tensor's 4 rows: zip stops after the 3rd, each label a (3, 16) row
    assert probe('''
import torch
logits = [torch.randn(4, 16, 3) for _ in range(3)]
labels = torch.zeros(4, 3, 16)
for logit, label in zip(logits, labels):
    probe(label)
''') == ["(3, 16)"]


def test_zip_of_a_list_and_a_tensor_of_unknown_rows_stays_unknown() -> None:
    assert probe('''
import torch
def f(n):
    logits = [torch.randn(4, 16, 3) for _ in range(3)]
    labels = torch.zeros(n, 3, 16)
    for logit, label in zip(logits, labels):
        probe(label)
''') == ["(...)"]  # n rows may be fewer than 3: which labels pair up is not known


def test_arguments_before_a_spread_of_unknown_length_bind_as_a_models_forward_binds_them() -> None:
    # `first(x, y, *views)` with views as many as the data gives: x is known, `rest` is a tuple of unknown length
    # (the project function's binding was given up as a whole before; a model's forward already bound it so)
    assert probe('''
import torch

def first(x, *rest):
    return x

def views(n):
    return [torch.randn(4, 8) for _ in range(n)]

probe(first(torch.randn(2, 3), torch.randn(5), *views(count)))
''') == ["(2, 3)"]


def test_positional_parameters_take_a_spread_over_those_left() -> None:
    x, y = (cst.Param(cst.Name(name)) for name in "xy")
    rest = cst.Param(cst.Name("rest"))
    spread = Seq((), "tuple", complete=False, each="view")
    assert positional_parameters((x, y), rest, (1,), "view") == {"x": 1, "y": "view", "rest": spread}
    assert positional_parameters((x,), rest, (1, 2, 3), None) == {"x": 1, "rest": Seq((2, 3), "tuple")}
    assert positional_parameters((x,), rest, (1, 2), "view") == {"x": 1, "rest": UNKNOWN}
    assert positional_parameters((x,), None, (1, 2), None) is None
    with_default = cst.Param(cst.Name("z"), default=cst.Integer("0"))
    assert positional_parameters((x, with_default), None, (), "view") == {"x": "view", "z": UNKNOWN}


def test_a_size_that_grows_past_a_few_terms_is_unknown() -> None:
    # generated spherical-harmonics code (e3nn): each degree's values are products of the one before with the inputs
    # and constants; normalizing the expanded polynomials took minutes on the whole file. Past the budget a value is
    # unknown, and a name bound to it one symbol of its own, so the next degree starts small again.
    lines = ["a0 = c * x + d * y + e * z"] + [f"a{k} = (a{k - 1} + c) * (a{k - 1} + d * x) + e * y" for k in range(1, 4)]
    seen = probe("\n".join(["import torch", *lines, "probe_dim(a1)", "probe_dim((a1 + c) * (a1 + d * x))",
                            "probe_dim(a2)", "probe_dim(a3)"]))
    assert seen[0].count(" + ") == 13
    assert seen[1:] == [None, "a2", "a2 * a2 + a2 * c + e * y + a2 * d * x + c * d * x"]
    assert probe("""
import torch
h, k, p, s = torch.randn(30, 3, 1, 2).shape
probe_dim((h - k + 2 * p) // s + 1)
probe_dim(h * k * p * s)
""") == ["15", "180"]


def test_an_id_looked_up_in_a_vocabulary_is_a_number() -> None:
    """`tag2id[t]` of a dict of ints the code states, and `stoi.get(w, unk)` of one a comprehension builds, for a key
    the analysis does not know: one of the ids (or a KeyError), so a list of them, cut and padded by hand, is a row
    of ints; a dict whose values are not all numbers, or a default that is not one, stays unknown."""
    assert probe('''
        import random
        import torch
        TAGS = ["O", "B-PER", "I-PER"]
        tag2id = {t: i for i, t in enumerate(TAGS)}
        words = [random.choice(["a", "b"]) for _ in range(random.randint(2, 5))]
        stoi = {w: i for i, w in enumerate(sorted(set(words)))}
        tags = [random.choice(TAGS) for _ in words]
        ids = [stoi.get(w, 1) for w in words][:8]
        labels = [tag2id[t] for t in tags][:8]
        probe(torch.tensor(ids + [0] * (8 - len(ids))))
        probe(torch.tensor(labels + [-100] * (8 - len(labels))))
        mixed = {"O": 0, "B-PER": "person"}
        kinds = [mixed[t] for t in tags][:8]
        probe(torch.tensor(kinds + [0] * (8 - len(kinds))))
        nones = [stoi.get(w, None) for w in words][:8]
        probe(torch.tensor(nones + [0] * (8 - len(nones))))
    ''') == ["(8,)", "(8,)", "(8, ...)", "(8, ...)"]
