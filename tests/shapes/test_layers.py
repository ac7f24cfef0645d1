"""Layers through the evaluator's hook: what each torch.nn family gives, Sequential chains, a model's own forward,
and the mismatches SC105 reports."""

from __future__ import annotations

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from tests.helpers import codes_of, lint
from tests.shapes.probe import probe

HEADER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import OrderedDict
'''


def seen(body: str) -> list:
    return probe(HEADER + body)


def test_linear_and_embedding() -> None:
    assert seen('''
fc = nn.Linear(784, 128)
emb = nn.Embedding(1000, 64)
probe(fc(torch.randn(32, 784)))
probe(fc(torch.randn(8, 10, 784)))
probe(emb(torch.randint(0, 1000, (8, 32))))
probe(nn.Linear(16, 4)(torch.zeros(2, 16)))
probe_conflict(fc(torch.randn(32, 100)))
''') == ["(32, 128)", "(8, 10, 128)", "(8, 32, 64)", "(2, 4)",
         "`fc(torch.randn(32, 100))`: the input is (32, 100): 100 features (last dim), but `fc` = "
         "nn.Linear(784, 128) expects 784"]


def test_an_embedding_bag_gives_a_bag_per_row_of_a_2d_input() -> None:
    assert seen('''
bag = nn.EmbeddingBag(100, 16, mode="mean")
probe(bag(torch.randint(0, 100, (4, 7))))
probe(bag(torch.randint(0, 100, (20,)), torch.tensor([0, 5, 9])))
''') == ["(4, 16)", "(...)"]  # the bags of a 1-d input are its offsets: unknown


def test_linear_on_a_tensor_of_unknown_rank_keeps_its_out_features() -> None:
    assert seen('''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 64)
        self.fc2 = nn.Linear(32, 10)
    def forward(self, x):
        h = self.fc1(x)
        probe(h)
        probe_conflict(self.fc2(h))
''') == ["(..., 64)", "`self.fc2(h)`: h is (..., 64): 64 features (last dim), but `self.fc2` = nn.Linear(32, 10) "
                      "expects 32"]


def test_a_layer_on_dims_named_before_an_unknown_run_may_replace_them() -> None:
    # the run may be empty: `(B, T, S, ...)` may be (B, T, S), whose S a Linear replaces; a conv takes at most
    # spatial + 2 dims, so four named dims leave no room for more
    assert seen('''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 64)
        self.conv = nn.Conv1d(32, 16, 1)
        self.conv2d = nn.Conv2d(3, 8, 3, padding=1)
    def forward(self, x):
        t = x.transpose(1, 2)
        probe(self.fc(t))
        probe(self.conv(t))
        probe(self.conv2d(x.permute(0, 3, 1, 2)))
''') == ["(d0, d2, ..., 64)", "(d0, 16, d1)", "(d0, 8, d1, d2)"]


def test_conv_and_pool_arithmetic() -> None:
    assert seen('''
x = torch.randn(64, 1, 28, 28)
probe(nn.Conv2d(1, 32, 3, 1)(x))
probe(nn.Conv2d(1, 32, kernel_size=5, stride=2, padding=2)(x))
probe(nn.Conv2d(1, 8, 3, padding="same")(x))
probe(nn.Conv2d(1, 8, (3, 5), dilation=2)(x))
probe(nn.ConvTranspose2d(1, 4, 4, 2, 1)(x))
probe(nn.MaxPool2d(2)(x))
probe(nn.MaxPool2d(3, stride=2, padding=1)(x))
probe(nn.AvgPool2d(3, stride=2, ceil_mode=True)(torch.randn(1, 3, 6, 6)))
probe(nn.AdaptiveAvgPool2d((1, None))(x))
probe(nn.Conv1d(16, 33, 3, stride=2)(torch.randn(20, 16, 50)))
probe(nn.Conv3d(3, 6, 3)(torch.randn(2, 3, 8, 8, 8)))
probe(nn.Conv2d(3, 16, 3)(torch.randn(3, 32, 32)))
''') == ["(64, 32, 26, 26)", "(64, 32, 14, 14)", "(64, 8, 28, 28)", "(64, 8, 24, 20)", "(64, 4, 56, 56)",
         "(64, 1, 14, 14)", "(64, 1, 14, 14)", "(1, 3, 3, 3)", "(64, 1, 1, 28)", "(20, 33, 24)", "(2, 6, 6, 6, 6)",
         "(16, 30, 30)"]


def test_conv_channels_and_rank() -> None:
    assert seen('''
conv = nn.Conv2d(3, 16, 3)
probe_conflict(conv(torch.randn(8, 1, 32, 32)))
probe_conflict(conv(torch.randn(8, 3)))
probe_conflict(conv(torch.randn(8, 3, 32, 32)))
''') == ["`conv(torch.randn(8, 1, 32, 32))`: the input is (8, 1, 32, 32): 1 channels (dim -3), but `conv` = "
         "nn.Conv2d(3, 16, 3) expects 3",
         "`conv(torch.randn(8, 3))`: the input is (8, 3): 2 dims, but `conv` = nn.Conv2d(3, 16, 3) expects 3 "
         "(unbatched) or 4 (batched)", None]


def test_a_window_larger_than_the_padded_input() -> None:
    # torch: "Kernel size can't be greater than actual input size", "Output size is too small"
    assert seen('''
probe_conflict(nn.Conv2d(16, 120, 5)(torch.randn(8, 16, 4, 4)))
probe_conflict(nn.MaxPool2d(2)(torch.randn(8, 16, 1, 1)))
probe_conflict(nn.Conv2d(16, 120, 5, padding=1)(torch.randn(8, 16, 3, 3)))
probe_conflict(nn.Conv2d(16, 120, 5)(torch.randn(8, 16, 5, 5)))
probe_conflict(nn.Conv2d(16, 120, 5, padding=1)(torch.randn(8, 16, 2, 9)))
''') == ["`nn.Conv2d(16, 120, 5)(torch.randn(8, 16, 4, 4))`: the input is (8, 16, 4, 4): 4 x 4 (last 2 dims), but "
         "`nn.Conv2d(16, 120, 5)` = nn.Conv2d(16, 120, 5) expects an input its window fits (the output would be 0 x 0)",
         "`nn.MaxPool2d(2)(torch.randn(8, 16, 1, 1))`: the input is (8, 16, 1, 1): 1 x 1 (last 2 dims), but "
         "`nn.MaxPool2d(2)` = nn.MaxPool2d(2) expects an input its window fits (the output would be 0 x 0)",
         None, None,  # a padded 5x5 and a plain 5x5 input: a 1x1 output
         "`nn.Conv2d(16, 120, 5, padding=1)(torch.randn(8, 16, 2, 9))`: the input is (8, 16, 2, 9): 2 x 9 (last 2 "
         "dims), but `nn.Conv2d(16, 120, 5, padding=1)` = nn.Conv2d(16, 120, 5, padding=1) expects an input its "
         "window fits (the output would be 0 x 7)"]


def test_norms() -> None:
    assert seen('''
x = torch.randn(8, 16, 32, 32)
probe(nn.BatchNorm2d(16)(x))
probe_conflict(nn.BatchNorm2d(32)(x))
probe_conflict(nn.BatchNorm1d(16)(torch.randn(8, 12)))
probe(nn.BatchNorm1d(16)(torch.randn(8, 16, 100)))
probe_conflict(nn.GroupNorm(4, 32)(x))
probe(nn.LayerNorm(32)(x))
probe_conflict(nn.LayerNorm(64)(x))
probe_conflict(nn.LayerNorm([16, 32, 32])(x))
probe(nn.InstanceNorm1d(16)(torch.randn(16, 50)))
''') == ["(8, 16, 32, 32)",
         "`nn.BatchNorm2d(32)(x)`: x is (8, 16, 32, 32): 16 channels (dim 1), but `nn.BatchNorm2d(32)` = "
         "nn.BatchNorm2d(32) expects 32",
         "`nn.BatchNorm1d(16)(torch.randn(8, 12))`: the input is (8, 12): 12 channels (dim 1), but "
         "`nn.BatchNorm1d(16)` = nn.BatchNorm1d(16) expects 16",
         "(8, 16, 100)",
         "`nn.GroupNorm(4, 32)(x)`: x is (8, 16, 32, 32): 16 channels (dim 1), but `nn.GroupNorm(4, 32)` = "
         "nn.GroupNorm(4, 32) expects 32",
         "(8, 16, 32, 32)",
         "`nn.LayerNorm(64)(x)`: x is (8, 16, 32, 32): 32 features (last dim), but `nn.LayerNorm(64)` = "
         "nn.LayerNorm(64) expects 64",
         None, "(16, 50)"]


def test_shape_keeping_layers_flatten_and_unflatten() -> None:
    assert seen('''
x = torch.randn(8, 16, 4, 4)
probe(nn.ReLU()(x))
probe(nn.Dropout(0.1)(x))
probe(nn.Identity()(x))
probe(nn.Flatten()(x))
probe(nn.Flatten(0, 1)(x))
probe(nn.Unflatten(1, (4, 4))(x))
probe_conflict(nn.Unflatten(1, (4, 5))(x))
''') == ["(8, 16, 4, 4)", "(8, 16, 4, 4)", "(8, 16, 4, 4)", "(8, 256)", "(128, 4, 4)", "(8, 4, 4, 4, 4)",
         "`nn.Unflatten(1, (4, 5))(x)`: x is (8, 16, 4, 4): 16 elements in dim 1, but `nn.Unflatten(1, (4, 5))` = "
         "nn.Unflatten(1, (4, 5)) expects (4, 5): 20"]


def test_a_gated_linear_unit_halves_its_dim() -> None:
    """`nn.GLU(dim)` gates one half of `dim` with the other: a speech front end's `Conv1d(c, 2 * d), nn.GLU(dim=1)`
    gives d channels. An odd size, which torch refuses, is left unknown rather than guessed."""
    assert seen('''
x = torch.randn(3, 40, 60)
probe(nn.GLU(dim=1)(x))
probe(nn.GLU()(x))
probe(nn.Sequential(nn.Conv1d(40, 64, 3, stride=2, padding=1), nn.GLU(dim=1))(x))
probe(nn.GLU(1)(torch.randn(3, 5, 4)))
def frames(mels, d):
    B, C, T = mels.shape
    return nn.GLU(dim=1)(mels.view(B, 2 * d, -1))
probe(frames(x, 20))
''') == ["(3, 20, 60)", "(3, 40, 30)", "(3, 32, 30)", "(...)", "(3, 20, 60)"]


def test_recurrent_layers() -> None:
    assert seen('''
lstm = nn.LSTM(28, 64, batch_first=True, bidirectional=True, num_layers=2)
gru = nn.GRU(input_size=10, hidden_size=20)
proj = nn.LSTM(10, 20, proj_size=5)
x = torch.randn(32, 7, 28)
output, (h, c) = lstm(x)
probe(output)
out, hidden = gru(torch.randn(5, 3, 10))
probe(out)
probe(hidden)
o, state = proj(torch.randn(5, 3, 10))
probe(o)
probe_conflict(lstm(torch.randn(32, 7, 10)))
''') == ["(32, 7, 128)", "(5, 3, 20)", "(1, 3, 20)", "(5, 3, 5)",
         "`lstm(torch.randn(32, 7, 10))`: the input is (32, 7, 10): 10 features (last dim), but `lstm` = "
         "nn.LSTM(28, 64, batch_first=True, bidirectional=True, num_layers=2) expects 28"]


def test_multihead_attention() -> None:
    assert seen('''
attn = nn.MultiheadAttention(64, 8, batch_first=True)
q = torch.randn(2, 10, 64)
out, weights = attn(q, q, q)
probe(out)
probe_conflict(attn(torch.randn(2, 10, 32), q, q))
''') == ["(2, 10, 64)",
         "`attn(torch.randn(2, 10, 32), q, q)`: the input is (2, 10, 32): 32 features (last dim of the query), "
         "but `attn` = nn.MultiheadAttention(64, 8, batch_first=True) expects 64"]


def test_sequential_chains() -> None:
    assert seen('''
net = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 13 * 13, 10))
named = nn.Sequential(OrderedDict([("fc", nn.Linear(8, 4)), ("act", nn.Tanh())]))
probe(net(torch.randn(16, 1, 28, 28)))
probe(named(torch.randn(3, 8)))
probe_conflict(net(torch.randn(16, 1, 32, 32)))
''') == ["(16, 10)", "(3, 4)",
         "`net(torch.randn(16, 1, 32, 32))`: the input is (16, 1, 32, 32): 7200 features (last dim), but in `net` = "
         "nn.Sequential(...), `nn.Linear(32 * 13 * 13, 10)` expects 5408"]


def test_upsample_resizes_to_a_stated_size_or_by_a_whole_scale_factor() -> None:
    # a tuple names one size per spatial dim (a decoder's `nn.Upsample(size=(1, 32, 32))` on a 2-d image is
    # rejected); a name the code doesn't bind to a tuple may hold one, so only a written int serves every dim. A
    # whole scale factor multiplies each spatial dim; 1.5 rounds down (15 * 1.5 = 22.5 gives 22), left unread
    assert seen('''
size = (64, 64)
factor = 4
probe(nn.Upsample(size=(32, 32))(torch.randn(2, 16, 8, 8)))
probe(nn.Upsample(size=100, mode="linear")(torch.randn(2, 16, 8)))
probe(nn.Upsample(scale_factor=2.0)(torch.randn(2, 16, 8)))
probe(nn.Upsample(scale_factor=2)(torch.randn(2, 16, 7, 7)))
probe(nn.Upsample(None, factor, mode="bilinear")(torch.randn(2, 16, 7, 5)))
probe(nn.Upsample(scale_factor=1.5)(torch.randn(2, 16, 15, 15)))
probe(nn.Sequential(nn.Conv2d(3, 8, 3), nn.Upsample(size))(torch.randn(1, 3, 9, 9)))
decoder = nn.Sequential(nn.Conv2d(16, 16, 3), nn.Upsample(size=(1, 32, 32)))
probe_conflict(decoder(torch.randn(2, 16, 8, 8)))
''') == ["(2, 16, 32, 32)", "(2, 16, 100)", "(2, 16, 16)", "(2, 16, 14, 14)", "(2, 16, 28, 20)", "(...)",
         "(1, 8, 64, 64)",
         "`decoder(torch.randn(2, 16, 8, 8))`: the input is (2, 16, 8, 8): 2 spatial dims, but in `decoder` = "
         "nn.Sequential(...), `nn.Upsample(size=(1, 32, 32))` expects 3"]


def test_upsample_by_an_int_scale_factor_multiplies_each_spatial_dim() -> None:
    # a float factor rounds down and a parameter may be a tuple or a float: those stay unread; a tuple must give
    # one factor per spatial dim
    assert seen('''
class Up(nn.Module):
    def __init__(self, factor, c):
        super().__init__()
        self.up = nn.Sequential(nn.Upsample(scale_factor=factor, mode="bilinear"), nn.Conv2d(c, c, 3, padding=1))
    def forward(self, x):
        return self.up(x)
probe(nn.Upsample(scale_factor=2)(torch.randn(2, 16, 8, 8)))
probe(nn.Upsample(scale_factor=(2, 3))(torch.randn(2, 16, 8, 8)))
probe(Up(4, 16)(torch.randn(2, 16, 5, 7)))
probe(nn.Upsample(scale_factor=1.5)(torch.randn(2, 16, 8, 8)))
def f(factor):
    return nn.Upsample(scale_factor=factor)(torch.randn(2, 16, 8, 8))
probe(f(2))
probe(f(2.0))
probe_conflict(nn.Upsample(scale_factor=(2, 2, 2))(torch.randn(2, 16, 8, 8)))
''') == ["(2, 16, 16, 16)", "(2, 16, 16, 24)", "(2, 16, 20, 28)", "(...)", "(2, 16, 16, 16)", "(...)",
         "`nn.Upsample(scale_factor=(2, 2, 2))(torch.randn(2, 16, 8, 8))`: the input is (2, 16, 8, 8): 2 spatial "
         "dims, but `nn.Upsample(scale_factor=(2, 2, 2))` = nn.Upsample(scale_factor=(2, 2, 2)) expects 3"]


def test_a_sequential_hands_a_recurrent_layers_tuple_to_a_project_module() -> None:
    # `nn.Sequential(nn.GRU(...), LastStep(), nn.Linear(...))`: the GRU's (output, h_n) reaches LastStep's forward,
    # which unpacks it; a torch layer given the tuple is not followed (torch itself would reject it)
    assert seen('''
class LastStep(nn.Module):
    def forward(self, out_and_h):
        _, h = out_and_h
        return h[-1]

seq_first = nn.Sequential(nn.GRU(8, 32), LastStep(), nn.Linear(32, 3))
batch_first = nn.Sequential(nn.GRU(8, 32, batch_first=True), LastStep(), nn.Linear(32, 3))
to_a_layer = nn.Sequential(nn.GRU(8, 32), nn.Linear(32, 3))
probe(seq_first(torch.randn(16, 50, 8)))
probe(batch_first(torch.randn(16, 50, 8)))
probe(to_a_layer(torch.randn(16, 50, 8)))
''') == ["(50, 3)", "(16, 3)", "(...)"]


def test_a_sequential_subclass_with_its_own_forward_runs_that() -> None:
    # A Lua port's ConcatTable (pretrained-models.pytorch's ResNeXt): an nn.Sequential subclass whose forward runs
    # every layer on the same input, so its layers need not chain; one without a forward of its own still chains.
    source = HEADER + '''
class Table(nn.Sequential):
    def __init__(self, *args):
        super().__init__(*args)

class ConcatTable(Table):
    def forward(self, x):
        return [module(x) for module in self]

class Chain(Table):
    pass

parallel = nn.Sequential(nn.Conv2d(3, 64, 3), ConcatTable(nn.Conv2d(64, 256, 1), nn.Conv2d(64, 256, 1)))
chained = nn.Sequential(nn.Conv2d(3, 64, 3), Chain(nn.Conv2d(64, 256, 1), nn.Conv2d(64, 256, 1)))
'''
    findings = lint_text(source, "model.py", resolve(["SC105"])).findings
    assert [(f.code, source.splitlines()[f.location.row - 1].split(" = ")[0]) for f in findings] == \
        [("SC105", "chained")]


def test_constructor_parameters_are_consistent_symbols() -> None:
    assert seen('''
class MLP(nn.Module):
    def __init__(self, d_in, d_h, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_h)
        self.fc2 = nn.Linear(d_h, d_out)
        self.fc3 = nn.Linear(2 * d_h, d_out)
    def forward(self, x):
        h = self.fc1(x)
        probe(h)
        probe_conflict(self.fc2(h))
        probe_conflict(self.fc3(h))
''') == ["(..., d_h)", None,  # a size and twice itself differ, whatever (nonzero) size it is
         "`self.fc3(h)`: h is (..., d_h): d_h features (last dim), but `self.fc3` = nn.Linear(2 * d_h, d_out) expects "
         "2 * d_h"]


def test_model_forward_runs_on_the_call_shapes() -> None:
    assert seen('''
class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8 * 13 * 13, hidden)
    def forward(self, x):
        x = self.pool(F.relu(self.conv(x)))
        x = torch.flatten(x, 1)
        return self.fc(x)

model = Net(64)
probe(model(torch.randn(4, 1, 28, 28)))
probe_conflict(model(torch.randn(4, 1, 32, 32)))
probe(Net(10)(torch.randn(2, 1, 28, 28)))
''') == ["(4, 64)",
         "`model(torch.randn(4, 1, 32, 32))`: the input is (4, 1, 32, 32): then in Net.forward, `self.fc(x)`: x is "
         "(4, 1800): 1800 features (last dim), but `self.fc` = nn.Linear(8 * 13 * 13, hidden) expects 1352",
         "(2, 10)"]


def test_nested_models_and_recursion() -> None:
    assert seen('''
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
    def forward(self, x):
        return self.fc(x) + x

class Loop(nn.Module):
    def forward(self, x):
        return self(x)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block(16)
        self.head = nn.Linear(16, 2)
    def forward(self, x):
        return self.head(self.block(x))

probe(Net()(torch.randn(4, 16)))
probe(Loop()(torch.randn(4, 16)))
''') == ["(4, 2)", "(...)"]


def test_modules_not_known_for_certain_stay_unknown() -> None:
    assert seen('''
class Head(nn.Module):
    def __init__(self, n, pooled):
        super().__init__()
        self.fc = nn.Linear(n, 10) if n else nn.Identity()
        self.proj = nn.Linear(128, 10)
        if pooled:
            self.norm = nn.LayerNorm(64)
        else:
            self.norm = nn.LayerNorm(32)
        self.layers = nn.Sequential(*[nn.Linear(4, 4) for _ in range(3)])
    def reset(self):
        self.proj = nn.Linear(64, 10)
    def forward(self, x: torch.Tensor):
        y = torch.randn(2, 64)
        probe_conflict(self.proj(y))
        probe_conflict(self.norm(y))
        probe(self.fc(y))
        probe(self.layers(y))
''') == [None, None, "(...)", "(...)"]


def test_bad_constructor_arguments_are_unknown_not_errors() -> None:
    assert seen('''
kw = {}
a = nn.Linear(*sizes)
b = nn.Conv2d(3, 8, **kw)
c = nn.Linear()
d = nn.LSTM(10, 20, batch_first=flag)
e = nn.Sequential(nn.Linear(3, 4), "not a layer", nn.Linear(5, 6))
probe(a(torch.randn(2, 3)))
probe(b(torch.randn(1, 3, 8, 8)))
probe(c(torch.randn(2, 3)))
probe(d(torch.randn(5, 3, 10))[0])
probe_conflict(b(torch.randn(1, 4, 8, 8)))
probe_conflict(e(torch.randn(2, 3)))
''') == ["(...)", "(1, 8, H_out, W_out)", "(...)", "(5, 3, 20)",
         "`b(torch.randn(1, 4, 8, 8))`: the input is (1, 4, 8, 8): 4 channels (dim -3), but `b` = "
         "nn.Conv2d(3, 8, **kw) expects 3", None]


def test_layers_bound_on_several_paths_are_unknown_and_appended_ones_known() -> None:
    assert seen('''
def branches(cond):
    if cond:
        layer = nn.Linear(10, 5)
    else:
        layer = nn.Linear(20, 5)
    probe_conflict(layer(torch.randn(3, 10)))

def appended():
    layers = nn.Sequential(nn.Linear(10, 20))
    layers.append(nn.Linear(20, 5))
    probe(layers(torch.randn(3, 10)))

def kept():
    layers = nn.Sequential(nn.Linear(10, 20))
    probe(layers(torch.randn(3, 10)))
''') == [None, "(3, 5)", "(3, 20)"]  # the appended layer is known from the function's run


def test_odd_code_gives_unknown_without_errors() -> None:
    assert seen('''
class Selfish(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(self, nn.Linear(2, 2))
        self.empty = nn.Sequential()
    def forward(self, x, *rest):
        return self.layers(x)

class Later(nn.Module):
    pass

x = torch.randn(4, 2)
probe(nn.Conv2d(3, 8, kernel_size=(3,), padding=(1, 2, 3))(torch.randn(1, 3, 8, 8)))
probe(nn.Sequential(OrderedDict({"a": nn.ReLU()}))(x))
probe(nn.Linear(3)(x))
probe(Selfish()(x))
probe(Selfish().empty(x))
probe(Later()(x))
probe(Undefined()(x))
probe(nn.AdaptiveAvgPool2d((1, 2, 3))(torch.randn(1, 3, 8, 8)))
probe(nn.MaxPool2d(2, ceil_mode=True)(torch.randn(1, 3, 7, 7)))
''') == ["(1, 8, H_out, W_out)", "(4, 2)", "(...)", "(..., 2)", "(4, 2)", "(...)", "(...)", "(...)", "(1, 3, 4, 4)"]
    # Selfish: the model inside itself is unknown to its own run, the Linear after it still makes a (..., 2)


def test_recurrent_initial_state_against_layers_directions_and_batch() -> None:
    assert seen('''
encoder = nn.LSTM(50, 64, num_layers=2, batch_first=True, bidirectional=True)
tokens = torch.randn(8, 30, 50)
probe_conflict(encoder(tokens, (torch.zeros(2, 8, 64), torch.zeros(2, 8, 64))))
probe_conflict(encoder(tokens, (torch.zeros(4, 8, 64), torch.zeros(4, 8, 64))))
probe_conflict(encoder(tokens, hx=(torch.zeros(4, 8, 64), torch.zeros(4, 30, 64))))
decoder = nn.GRU(16, 32)
steps = torch.randn(1, 8, 16)
probe_conflict(decoder(steps, torch.zeros(1, 1, 32)))
probe_conflict(decoder(steps, torch.zeros(1, 8, 32)))
probe_conflict(decoder(torch.randn(5, 16), torch.zeros(1, 32)))
projected = nn.LSTM(10, 40, proj_size=8)
probe_conflict(projected(torch.randn(3, 2, 10), (torch.zeros(1, 2, 40), torch.zeros(1, 2, 40))))
probe_conflict(projected(torch.randn(3, 2, 10), (torch.zeros(1, 2, 8), torch.zeros(1, 2, 40))))
''') == [
        "`encoder(tokens, (torch.zeros(2, 8, 64), torch.zeros(2, 8, 64)))`: tokens is (8, 30, 50): the initial state "
        "h_0 is (2, 8, 64), but `encoder` = nn.LSTM(50, 64, num_layers=2, batch_first=True, bidirectional=True) "
        "expects h_0 of (4, 8, 64): (num_layers * directions, batch, hidden)",
        None,
        "`encoder(tokens, hx=(torch.zeros(4, 8, 64), torch.zeros(4, 30, 64)))`: tokens is (8, 30, 50): the initial "
        "state c_0 is (4, 30, 64), but `encoder` = nn.LSTM(50, 64, num_layers=2, batch_first=True, "
        "bidirectional=True) expects c_0 of (4, 8, 64): (num_layers * directions, batch, hidden)",
        "`decoder(steps, torch.zeros(1, 1, 32))`: steps is (1, 8, 16): the initial state h_0 is (1, 1, 32), but "
        "`decoder` = nn.GRU(16, 32) expects h_0 of (1, 8, 32): (num_layers * directions, batch, hidden)",
        None, None,
        "`projected(torch.randn(3, 2, 10), (torch.zeros(1, 2, 40), torch.zeros(1, 2, 40)))`: the input is (3, 2, 10): "
        "the initial state h_0 is (1, 2, 40), but `projected` = nn.LSTM(10, 40, proj_size=8) expects h_0 of "
        "(1, 2, 8): (num_layers * directions, batch, hidden)",
        None]


def test_a_state_the_forward_builds_when_the_call_leaves_it_out() -> None:
    assert seen('''
class Tagger(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.rnn = nn.GRU(16, hidden, batch_first=True)
    def forward(self, x, h=None):
        if h is None:
            h = torch.zeros(1, x.size(1), self.hidden)
        return self.rnn(x, h)
tagger = Tagger()
probe_conflict(tagger(torch.randn(4, 9, 16)))
probe_conflict(tagger(torch.randn(4, 9, 16), h=torch.zeros(1, 4, 32)))
probe_conflict(tagger(torch.randn(4, 9, 16), torch.zeros(1, 4, 32)))
''') == [
        "`tagger(torch.randn(4, 9, 16))`: the input is (4, 9, 16): then in Tagger.forward, `self.rnn(x, h)`: x is "
        "(4, 9, 16): the initial state h_0 is (1, 9, 32), but `self.rnn` = nn.GRU(16, hidden, batch_first=True) "
        "expects h_0 of (1, 4, 32): (num_layers * directions, batch, hidden)", None, None]


def test_flags_and_ints_held_by_names_the_code_binds() -> None:
    # A model's constructor passes its own arguments on: `bidirectional=bidirectional` with the default True.
    assert seen('''
class Encoder(nn.Module):
    def __init__(self, d=16, hidden=32, bidirectional=True, first=True, start=1):
        super().__init__()
        self.rnn = nn.GRU(d, hidden, batch_first=first, bidirectional=bidirectional)
        self.flat = nn.Flatten(start)

    def forward(self, x):
        out, h = self.rnn(x)
        return self.flat(out)

probe(Encoder()(torch.randn(4, 10, 16)))
probe(Encoder(bidirectional=False, first=False, start=0)(torch.randn(10, 4, 16)))
def unknown(flag):
    probe(nn.GRU(16, 32, bidirectional=flag)(torch.randn(10, 4, 16))[0])
''') == ["(4, 640)", "(1280,)", "(...)"]


def test_a_module_level_config_list_read_by_a_helper_stays_known() -> None:
    # Passing a list to a call may change it, unless the callee is the file's own function that only reads it, a
    # builtin that only reads it, or gets it unpacked; a helper that appends to its parameter (even through another
    # helper) makes the list unknown.
    assert seen('''
CFG = [16, "M", 32, "M"]
def make_layers(cfg, c=3):
    layers = []
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(2))
        else:
            layers += [nn.Conv2d(c, v, 3, padding=1), nn.ReLU()]
            c = v
    return nn.Sequential(*layers)
print(len(CFG), list(CFG))
probe(make_layers(CFG)(torch.randn(2, 3, 32, 32)))
def grow(cfg):
    cfg.append(64)
def grows(cfg):
    grow(cfg)
OTHER = [16, "M"]
grows(OTHER)
probe(make_layers(OTHER)(torch.randn(2, 3, 32, 32)))
''') == ["(2, 32, 8, 8)", "(...)"]


def test_pooling_and_convolution_in_torchs_own_namespace() -> None:
    assert seen('''
x = torch.randn(8, 16, 24, 24)
probe(torch.max_pool2d(x, 2))
probe(torch.conv2d(x, torch.randn(32, 16, 5, 5)))
probe(torch.avg_pool1d(torch.randn(8, 4, 10), 2))
''') == ["(8, 16, 12, 12)", "(8, 32, 20, 20)", "(8, 4, 5)"]


def test_recurrent_cells_step_and_check_their_state() -> None:
    assert seen('''
gru = nn.GRUCell(16, 32)
lstm = nn.LSTMCell(input_size=16, hidden_size=8)
x = torch.randn(4, 16)
probe(gru(x))
h, c = lstm(x, (torch.zeros(4, 8), torch.zeros(4, 8)))
probe(c)
probe(nn.RNNCell(16, 5)(torch.randn(16)))
probe_conflict(gru(x, torch.zeros(4, 64)))
probe_conflict(lstm(x, (torch.zeros(4, 8), torch.zeros(2, 8))))
probe_conflict(gru(torch.randn(4, 10)))
probe_conflict(gru(torch.randn(4, 7, 16)))
probe_conflict(gru(x, torch.zeros(4, 32)))
''') == ["(4, 32)", "(4, 8)", "(5,)",
         "`gru(x, torch.zeros(4, 64))`: x is (4, 16): the initial state h_0 is (4, 64), but `gru` = nn.GRUCell(16, 32) "
         "expects h_0 of (4, 32): (batch, hidden)",
         "`lstm(x, (torch.zeros(4, 8), torch.zeros(2, 8)))`: x is (4, 16): the initial state c_0 is (2, 8), but "
         "`lstm` = nn.LSTMCell(input_size=16, hidden_size=8) expects c_0 of (4, 8): (batch, hidden)",
         "`gru(torch.randn(4, 10))`: the input is (4, 10): 10 features (last dim), but `gru` = nn.GRUCell(16, 32) "
         "expects 16",
         "`gru(torch.randn(4, 7, 16))`: the input is (4, 7, 16): 3 dims, but `gru` = nn.GRUCell(16, 32) expects 1 "
         "(unbatched) or 2 (batched)",
         None]


def test_the_parameters_a_layers_constructor_sizes() -> None:
    """`fc.weight` of an `nn.Linear(3, 5)` is (5, 3); a bias it doesn't build, or a layer built with `**kwargs`,
    stays unknown."""
    assert probe('''
import torch
import torch.nn as nn

class Queries(nn.Module):
    def __init__(self, n, d, **options):
        super().__init__()
        self.embed = nn.Embedding(n, d)
        self.proj = nn.Linear(d, d, bias=False)
        self.other = nn.Linear(d, **options)

    def forward(self, x):
        return self.embed.weight.unsqueeze(0).expand(x.size(0), -1, -1)

fc = nn.Linear(3, 5)
queries = Queries(10, 8)
probe(fc.weight.t())
probe(fc.bias)
probe(queries(torch.randn(2, 3, 8)))
probe(queries.proj.weight)
probe(queries.proj.bias)
probe(queries.other.weight)
''') == ["(3, 5)", "(5,)", "(2, 10, 8)", "(8, 8)", None, None]



def test_a_chain_that_rejects_any_input_is_reported_where_built_unless_its_sizes_come_from_the_constructor() -> None:
    # a LayerNorm of another width than the Linear's rejects any input; a BatchNorm1d would not: its channels are
    # dim 1 of a 3-d input, which the Linear leaves as it is
    source = '''
import torch
import torch.nn as nn


class Projector(nn.Module):
    def __init__(self, hidden=2048):
        super().__init__()
        self.fixed = nn.Sequential(nn.Linear(512, 128), nn.LayerNorm(2048))
        self.configured = nn.Sequential(nn.Linear(512, 128), nn.LayerNorm(hidden))

    def forward(self, x):
        return self.configured(self.fixed(x))


z = Projector()(torch.randn(8, 512))
'''
    findings = lint_text(source, "model.py", resolve(["SC105"])).findings
    assert [(f.location.row, "LayerNorm(hidden)" in f.message) for f in findings] == [(9, False), (13, True)]


def test_a_layers_input_passed_by_keyword() -> None:
    assert seen('''
attn = nn.MultiheadAttention(embed_dim=32, num_heads=2, batch_first=True)
x = torch.randn(4, 12, 32)
probe(attn(query=x, key=x, value=x)[0])
probe_conflict(attn(query=x, key=x, value=x, key_padding_mask=torch.zeros(12, 4, dtype=torch.bool)))
probe(nn.Linear(32, 8)(input=x))
probe(nn.Linear(32, 8)(x=x))
''') == ["(4, 12, 32)",
         "`attn(query=x, key=x, value=x, key_padding_mask=torch.zeros(12, 4, dtype=torch.bool))`: x is (4, 12, 32): "
         "key_padding_mask is (12, 4), but `attn` = nn.MultiheadAttention(embed_dim=32, num_heads=2, batch_first=True) "
         "expects key_padding_mask of (4, 12): (batch, source length)", "(4, 12, 8)", "(..., 8)"]


def test_an_initial_state_a_forward_stores_on_self_is_read_there() -> None:
    assert seen('''
class Stateful(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 32)
        self.hidden = None

    def forward(self, x):
        self.hidden = (torch.zeros(1, 1, 32), torch.zeros(1, 1, 32))
        probe(self.hidden[0])
        out, self.hidden = self.lstm(x, self.hidden)
        return out

probe_conflict(Stateful()(torch.randn(12, 4, 6)))
''') == ["(1, 1, 32)", "`Stateful()(torch.randn(12, 4, 6))`: the input is (12, 4, 6): then in Stateful.forward, "
                       "`self.lstm(x, self.hidden)`: x is (12, 4, 6): the initial state h_0 is (1, 1, 32), but "
                       "`self.lstm` = nn.LSTM(6, 32) expects h_0 of (1, 4, 32): (num_layers * directions, batch, "
                       "hidden)"]


def test_a_time_major_rnn_output_is_row_major_and_a_batch_first_one_unknown() -> None:
    # a time-major RNN writes its (L, N, D * H) output fresh; batch first, it hands back a transposed view of it
    source = HEADER + '''
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(16, 32)

    def forward(self, x):
        T, B, _ = x.shape
        out, _ = self.rnn(x)
        return out.permute(1, 0, 2).view(B, -1)

class Flat(Tagger):
    def forward(self, x):
        out, _ = self.rnn(x)
        return out.view(out.size(0) * out.size(1), -1)

def unknown(flag, x):
    T, B, _ = x.shape
    return nn.GRU(16, 32, batch_first=flag)(x)[0].transpose(0, 1).view(B, -1)
'''
    findings = lint_text(source, "model.py", resolve(["SC101"])).findings
    assert [source.splitlines()[f.location.row - 1].strip() for f in findings] == \
        ["return out.permute(1, 0, 2).view(B, -1)"]


def test_a_forward_of_star_inputs_runs_on_what_the_call_spreads() -> None:
    """`forward(self, x, *rest)`: the named input first, the rest a tuple of the others; a spread list of unknown
    length says neither how many there are nor which is which."""
    assert seen('''
class Joined(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x, *rest):
        return self.fc(torch.cat(rest, dim=0))

a = torch.randn(4, 8)
pair = [a, torch.randn(6, 8)]
probe(Joined()(a, a, a))
probe(Joined()(*pair))
probe(Joined()(a, *pair))
probe(Joined()(*tensors))
''') == ["(8, 2)", "(6, 2)", "(10, 2)", "(...)"]


def test_a_layers_size_attribute_is_the_argument_it_was_built_with() -> None:
    """`head.out_channels` is what `nn.Conv2d(16, 1, 3)` was given, so a loss chosen on it (one class: BCE) is
    known; `kernel_size`, which a conv keeps as a tuple, is no int the call passed."""
    source = '''
import torch
from torch import nn

head = nn.Conv2d(16, 1, kernel_size=3)
probe_dim(head.out_channels)
probe_dim(head.kernel_size)
criterion = nn.CrossEntropyLoss() if head.out_channels > 1 else nn.BCEWithLogitsLoss()
loss = criterion(torch.randn(2, 1, 8, 8), torch.rand(2, 3, 8, 8))
'''
    assert probe(source) == ["1", "head.kernel_size"]
    assert [(f.location.row, f.code) for f in lint(source, "SC104").findings] == [(9, "SC104")]


HEADS = '''
import torch.nn as nn

class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(64, 51, 3), nn.Conv2d(64, 34, 3))

    def forward(self, feats):
        {use}

def build(width):
    layers = nn.Sequential(nn.Linear(width, 8), nn.Linear(16, 4))
    {local}
'''


def test_a_sequential_only_taken_apart_is_a_container_and_one_run_as_a_chain_is_checked() -> None:
    def reported(use: str, local: str = "return [layer for layer in layers]") -> list[int]:
        return [f.location.row for f in lint(HEADS.format(use=use, local=local), "SC105").findings]

    held = "return [h(f) for h, f in zip(self.head, feats)] + [self.head[0](feats[0]), len(self.head)]"
    assert reported(held) == []
    assert reported("for i, h in enumerate(self.head):\n            feats[i] = h(feats[i])") == []
    assert reported("return list(self.head.children())") == []
    # run as one chain, handed to code that may run it, or never used in the class: the chain is checked
    for use in ("return self.head(feats[0])", "return run(self.head, feats)", "return self.head", "return feats"):
        assert reported(use) == [7], use
    # a local Sequential returned from its builder may be called wherever it goes; one only iterated is not run
    assert reported(held, "return layers") == [13]
    assert reported(held, "return [layer for layer in layers]") == []



def test_a_conv_input_of_unknown_rank_whose_first_dim_is_not_the_channels_is_a_batch() -> None:
    """`obs[None, ...]` of an observation of unknown shape into `Conv2d(4, ...)`: unbatched, its first dim would
    be the 4 channels, so it is the batch of one. When the first dim could be the channels, or more dims are
    named, nothing more is assumed."""
    assert seen('''
def act(obs, frames):
    conv = nn.Conv2d(4, 16, 8, stride=4)
    probe(conv(obs[None, ...]))
    probe(nn.Conv2d(1, 16, 3)(obs[None, ...]))
    probe(conv(frames[None, None, ...]))
''') == ["(1, 16, H_out, W_out)", "(..., 16, H_out, W_out)", "(...)"]


def test_a_packed_batch_through_a_recurrent_layer() -> None:
    """A padded batch packed for an RNN: its final states are (D * num_layers, B, H) whatever `batch_first`, its
    output padded again is (B, T, D * H) batch first (time first by default), T the `total_length` asked for or a
    length of its own; embedded ids of unknown leading dims are a batch. The packed value is no tensor: `.data` is
    not read as one."""
    assert seen('''
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

lstm = nn.LSTM(16, 32, num_layers=2, bidirectional=True)
frames = torch.randn(50, 8, 16)
packed = pack_padded_sequence(frames, torch.full((8,), 50), enforce_sorted=False)
out, (h, c) = lstm(packed)
probe(h)
padded, lengths = pad_packed_sequence(out, total_length=50)
probe(padded)
probe(lengths)
probe(packed.data)
probe(out.data)
first = nn.GRU(16, 24, batch_first=True)
batch = torch.randn(4, 30, 16)
seq, last = first(pack_padded_sequence(batch, torch.full((4,), 30), batch_first=True))
probe(last)
probe(pad_packed_sequence(seq, batch_first=True)[0])
table = nn.Embedding(100, 16)
def encode(ids, lengths):
    steps, state = first(pack_padded_sequence(table(ids), lengths, batch_first=True, enforce_sorted=False))
    probe(state)
    probe(pad_packed_sequence(steps, batch_first=True, total_length=ids.size(1))[0])
''') == ["(4, 8, 32)", "(50, 8, 64)", "(8,)", None, None, "(1, 4, 24)", "(4, T, 24)", "(1, B, 24)",
         "(B, ids.size(1), 24)"]


_SPEAKER_ID = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class UtteranceEncoder(nn.Module):
    def __init__(self, n_feats: int, width: int):
        super().__init__()
        self.width = width
        self.lstm = nn.LSTM(n_feats, width, batch_first=True, bidirectional=True)
        self.score = nn.Linear(2 * width, 1)

    def forward(self, feats, lengths):
        packed = pack_padded_sequence(feats, lengths.cpu(), batch_first=True, enforce_sorted=False)
        steps, (h_n, _) = self.lstm(packed)
        steps, _ = pad_packed_sequence(steps, batch_first=True)
        frames = %s
        summary = torch.cat((h_n[0], h_n[1]), dim=-1)
        weights = torch.softmax(frames @ summary.unsqueeze(-1), dim=1)
        return (weights * frames).sum(1)
'''


def test_directions_merged_one_way_for_the_steps_and_another_for_the_summary() -> None:
    """Frames whose two directions are added ((B, T, width)) against a summary that concatenates them ((B, 2 *
    width)) cannot be multiplied, whatever the sizes; frames that keep both directions are the look-alike."""
    assert codes_of(lint(_SPEAKER_ID % "steps[..., :self.width] + steps[..., self.width:]", "SC105")) == ["SC105"]
    assert codes_of(lint(_SPEAKER_ID % "steps", "SC105")) == []
