"""A script's or a notebook's own code is run like a function body: a name a loop rebinds, a list a call is given,
read there with the values the module's statements gave them; and a list a helper may change is no longer the
literal it was, in any run."""

from __future__ import annotations

import pytest

from tests.helpers import lint
from tests.shapes.probe import probe


def codes(source: str, *select: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.code) for f in lint(source, *select).findings]


def test_a_module_level_loop_over_layers_rebinds_its_input() -> None:
    """A notebook cell stacking layers from a config: the second layer gets what the first gave (checked in
    torch: "mat1 and mat2 shapes cannot be multiplied (3x10 and 32x32)")."""
    source = '''
import torch
import torch.nn as nn

sizes = [10, 32, 16, 4]
layers = nn.ModuleList([nn.Linear(sizes[i], sizes[i]) for i in range(len(sizes) - 1)])
x = torch.randn(3, 10)
for layer in layers:
    x = torch.relu(layer(x))
'''
    assert codes(source, "SC105") == [(9, "SC105")]
    assert codes(source.replace("sizes[i], sizes[i])", "sizes[i], sizes[i + 1])"), "SC105") == []


def test_a_list_of_tensors_given_to_a_model_at_module_level_is_the_list_written() -> None:
    source = '''
import torch
import torch.nn as nn

class MultiScale(nn.Module):
    def __init__(self, dims=(16, 16, 64)):
        super().__init__()
        self.projs = nn.ModuleList([nn.Linear(d, 32) for d in dims])

    def forward(self, feats):
        return torch.stack([proj(f) for proj, f in zip(self.projs, feats)]).sum(0)

feats = [torch.randn(4, 16), torch.randn(4, 32), torch.randn(4, 64)]
out = MultiScale()(feats)
fine = MultiScale(dims=(16, 32, 64))(feats)
'''
    assert codes(source, "SC105") == [(11, "SC105")]


def test_a_list_a_helper_may_change_is_not_the_literal_it_was() -> None:
    """`grow(cfg)` appends to its argument: after it, `cfg` holds more than was written, in a function's run and in
    the module's; `torch.stack(features)` only reads its list."""
    assert probe('''
        import torch
        import torch.nn as nn

        def make_layers(cfg, c=3):
            layers = []
            for v in cfg:
                layers += [nn.Conv2d(c, v, 3, padding=1), nn.ReLU()]
                c = v
            return nn.Sequential(*layers)

        def grow(cfg):
            cfg.append(64)

        def build():
            cfg = [16]
            grow(cfg)
            probe(make_layers(cfg)(torch.randn(2, 3, 8, 8)))
            features = [torch.randn(4, 8), torch.randn(4, 8)]
            probe(torch.stack(features))
            probe(torch.cat(features, dim=1))

        CFG = [16]
        grow(CFG)
        probe(make_layers(CFG)(torch.randn(2, 3, 8, 8)))
    ''') == ["(...)", "(2, 4, 8)", "(4, 16)", "(...)"]


def test_a_global_a_called_function_fills_is_not_the_literal_it_was() -> None:
    """`add("a", 1)` stores into the module's `CACHE` without being handed it: after any call that may run it, the
    dict holds more than was written (a false SC105 of 0 against 2 rows before): its length is a size of its own;
    `len` only reads it, and a dict no function fills stays what it was. A function's own `CACHE` is another name."""
    assert probe('''
        import torch

        CACHE = {}
        SIZES = {"a": 1}

        def add(k, v):
            CACHE[k] = v

        def local():
            SIZES = {}
            SIZES["b"] = 2
            return SIZES

        probe(torch.zeros(len(CACHE), 3))
        add("a", 1)
        probe(torch.zeros(len(CACHE), 3))
        local()
        probe(torch.zeros(len(SIZES), 3))
    ''') == ["(0, 3)", "(len(CACHE), 3)", "(1, 3)"]


def test_a_global_a_function_rebinds_holds_no_one_value() -> None:
    """`configure(64)` rebinds the module's `FEATURES` through `global`: a read after any call that may run it is not
    the 48 written (it was, before); nor is `DEPTH`, which a method declares `global` under an `if`. A name no function
    declares `global` stays what it was."""
    assert probe('''
        import torch

        FEATURES = 48
        CLASSES = 10

        DEPTH = 3

        def configure(n):
            global FEATURES
            FEATURES = n

        class Settings:
            def deepen(self, n):
                if n > 0: global DEPTH
                DEPTH = n

        configure(64)
        Settings().deepen(4)
        probe(torch.zeros(2, FEATURES))
        probe(torch.zeros(2, CLASSES))
        probe(torch.zeros(2, DEPTH))
    ''') == [None, "(2, 10)", None]


def test_an_attribute_set_from_outside_the_class_holds_any_value() -> None:
    """`w.size = 16` after `Windows(32)` (a false SC105 of 32 features before): the attributes the code sets on
    the object from outside its class are unknown at every read of the name; `setattr` with a computed name may
    set any; an object nothing sets on keeps what its constructor set."""
    assert probe('''
        import torch

        class Windows:
            def __init__(self, size, step):
                self.size = size
                self.step = step

        def main(key):
            w = Windows(32, 4)
            w.size = 16
            probe(torch.zeros(w.size, w.step))
            v = Windows(32, 4)
            setattr(v, key, 8)
            probe(torch.zeros(v.size))
            u = Windows(32, 4)
            probe(torch.zeros(u.size))

        main("size")
    ''') == ["(w.size, 4)", None, "(32,)"]


def test_a_parameters_attribute_the_function_sets_is_no_one_size() -> None:
    """`cfg.hidden = cfg.hidden * 2` between two reads of a parameter's attribute (a false SC105 before: both reads
    were one size, `nn.Linear(cfg.hidden, 4)` fed 2 * cfg.hidden features); an attribute the function leaves alone
    stays one size wherever it is read, so the same code without the write is reported."""
    source = '''
import torch
import torch.nn as nn


def build(cfg):
    first = nn.Linear(8, cfg.hidden)
    cfg.hidden = cfg.hidden * 2
    second = nn.Linear(cfg.hidden, 4)
    h = first(torch.randn(2, 8))
    return second(torch.cat([h, h], dim=1))
'''
    assert lint(source, "SC105").findings == []
    assert [f.location.row for f in lint(source.replace("    cfg.hidden = cfg.hidden * 2\n", ""), "SC105").findings] == [10]


def test_a_helper_called_on_the_first_pass_of_a_loop_is_checked_with_that_pass() -> None:
    """`if step % log_every == 0:` is taken on the first pass (step 0) of a loop that certainly runs: the helper's
    `.item()` of per-sample losses raises there (checked in torch), in a script's loop and in the function a
    model is given to: reported once, at the `.item()` both paths fail at."""
    source = '''
import torch
import torch.nn as nn

def log(step, loss):
    print(step, loss.item())

def train(model, log_every=10):
    for step in range(30):
        losses = nn.functional.mse_loss(model(torch.randn(8, 5)), torch.randn(8, 3), reduction="none").mean(1)
        if step % log_every == 0:
            log(step, losses)

model = nn.Linear(5, 3)
for step in range(30):
    losses = nn.functional.mse_loss(model(torch.randn(8, 5)), torch.randn(8, 3), reduction="none").mean(1)
    if step % 10 == 0:
        log(step, losses)
train(model)
'''
    assert codes(source, "SC107") == [(6, "SC107")]
    assert codes(source.replace("train(model)", ""), "SC107") == [(6, "SC107")]  # the script's loop alone
    script_loop = source[source.index("for step in range(30):\n    losses"):source.index("train(model)")]
    assert codes(source.replace(script_loop, ""), "SC107") == [(6, "SC107")]  # `train(model)` alone
    assert codes(source.replace("log(step, losses)", "log(step, losses.mean())"), "SC107") == []


def test_a_tensor_passed_to_forward_by_keyword() -> None:
    # `attn(x, context=ctx)`: the keyword reaches forward's `context`, not the position after `x`
    assert probe('''
import torch
import torch.nn as nn

class CrossAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.to_q = nn.Linear(32, 16)
        self.to_k = nn.Linear(64, 16)

    def forward(self, x, context=None, scale=1.0):
        return self.to_q(x) @ self.to_k(context).transpose(-1, -2) * scale

attn = CrossAttention()
probe(attn(torch.randn(2, 5, 32), context=torch.randn(2, 7, 64)))
probe(attn(torch.randn(2, 5, 32), scale=0.5, context=torch.randn(2, 3, 64)))
''') == ["(2, 5, 7)", "(2, 5, 3)"]


def test_a_scripts_main_block_runs_for_certain() -> None:
    """`if __name__ == "__main__":` is what the linted file does as a script: a loop there certainly runs its first
    pass, as at module level (checked in torch: "Boolean value of Tensor with more than one value is ambiguous");
    any other condition on `__name__` is still unknown."""
    source = '''
import torch
import torch.nn as nn

class Cell(nn.Module):
    def __init__(self, first=False):
        super().__init__()
        self.first = first
        self.conv = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        return self.first and x or self.conv(x)

if __name__ == "__main__":
    video = torch.rand(5, 2, 3, 16, 16)
    cell = Cell(True)
    for t in range(video.size(0)):
        out = cell(video[t])
'''
    assert codes(source, "SC107") == [(12, "SC107")]
    assert codes(source.replace('__name__ == "__main__"', '"__main__" == __name__'), "SC107") == [(12, "SC107")]
    assert codes(source.replace('__name__ == "__main__"', '__name__ == "train"'), "SC107") == []
    assert codes(source.replace('__name__ == "__main__"', '__name__ != "__main__"'), "SC107") == []


def test_a_loss_in_a_module_level_loop_reads_the_pair_zip_gives_on_each_pass() -> None:
    """`for head, target in zip(heads, targets)` over a (B, tasks) target: the bindings alone can't say what
    `target` is, the module's run can (checked in torch: "Expected input batch_size (8) to match target batch_size
    (2)"); the same in a function nobody calls, read in its run on its own signature."""
    source = '''
import torch
import torch.nn.functional as F
from torch import nn

heads = nn.ModuleList([nn.Linear(32, 5) for _ in range(2)])
features = torch.randn(8, 32)
targets = torch.randint(0, 5, (8, 2))
for head, target in zip(heads, targets):
    loss = F.cross_entropy(head(features), target)
'''
    assert codes(source, "SC106") == [(10, "SC106")]
    assert codes(source.replace("(8, 2)", "(2, 8)"), "SC106") == []
    in_function = source.replace("\nheads", "\ndef step():\n    heads").replace("\nfeatures", "\n    features") \
        .replace("\ntargets", "\n    targets").replace("\nfor", "\n    for").replace("\n    loss", "\n        loss")
    assert codes(in_function, "SC106") == [(11, "SC106")]



CLASSMETHOD_NET = '''
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self, in_features=6, hidden=16):
        super().__init__()
        self.fc = nn.Linear(in_features, hidden)

    @classmethod
    def from_config(cls, cfg):
        return cls(**cfg["model"])

    def forward(self, x):
        return self.fc(x)

x = torch.randn(8, 7)
'''


def messages(source: str) -> list[str]:
    return [f.message for f in lint(source, "SC105").findings]


@pytest.mark.parametrize("built", [
    'Net.from_config({"model": {"in_features": 6}})',
    'Net().from_config({"model": {"in_features": 6}})',
])
def test_a_classmethod_constructor_builds_the_class_it_is_called_on(built: str) -> None:
    """`Net.from_config(cfg)` runs `cls(**cfg["model"])` with `cls` the class (checked in torch: "mat1 and mat2
    shapes cannot be multiplied (8x7 and 6x16)"); called on an object, `cls` is still its class, never the object."""
    source = CLASSMETHOD_NET + f"model = {built}\nmodel(x)\n"
    assert [m.split(":")[0] for m in messages(source)] == ["via `model(x)`"]
    assert messages(source.replace('"in_features": 6', '"in_features": 7')) == []


def test_a_config_the_code_does_not_state_builds_nothing_known() -> None:
    source = CLASSMETHOD_NET + '''
import json
model = Net.from_config(json.load(open("config.json")))
model(x)
'''
    assert messages(source) == []


@pytest.mark.parametrize("wrapped", [
    "nn.DataParallel(Net())",
    'torch.compile(Net(), mode="reduce-overhead")',
    "nn.parallel.DistributedDataParallel(module=Net(), device_ids=[0])",
])
def test_a_wrapped_model_runs_the_models_forward(wrapped: str) -> None:
    """`nn.DataParallel(model)`, `torch.compile(model)` and DDP call the model's forward on the inputs they get
    (checked in torch on CPU for DataParallel and compile: "mat1 and mat2 shapes cannot be multiplied")."""
    source = CLASSMETHOD_NET + f"model = {wrapped}\nmodel(x)\n"
    assert [m.split(":")[0] for m in messages(source)] == ["via `model(x)`"]
    assert messages(source.replace("torch.randn(8, 7)", "torch.randn(8, 6)")) == []
