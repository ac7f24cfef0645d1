"""Objects and calls: which layer a name or argument holds when a helper builds it, and what the code a call runs
finds, reported where the caller wrote it."""

from __future__ import annotations

from tests.helpers import lint
from tests.shapes.probe import probe


def rows(source: str, code: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint(source, code).findings]


def codes(source: str, *select: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.code) for f in lint(source, *select).findings]


def test_a_stack_of_helper_blocks_is_reported_at_the_block_that_does_not_fit() -> None:
    """Two blocks from one helper share its `nn.Sequential(...)`: the finding names the caller's argument."""
    found = rows('''
import torch.nn as nn

def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())

encoder = nn.Sequential(block(1, 16), block(16, 32), block(64, 64))
decoder = nn.Sequential(block(64, 32), block(32, 16))
''', "SC105")
    assert found == [(7, "`block(64, 64)` expects 64, but the layers before it give 32 channels (dim -3) "
                         "(`block(16, 32)`)")]


def test_a_models_return_annotation_stands_where_its_forward_says_less() -> None:
    """An encoder given as an annotated parameter, whose forward ends in a layer the analysis doesn't model: its
    jaxtyping return annotation is what a call gives."""
    found = rows('''
import torch
from torch import Tensor, nn
from jaxtyping import Float

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = make_body()
    def forward(self, x: Float[Tensor, "B 3 H W"]) -> Float[Tensor, "B 256"]:
        return self.body(x).flatten(1)

class Probe(nn.Module):
    def __init__(self, encoder: Encoder, classes: int = 10):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(512, classes)
    def forward(self, images):
        return self.head(self.encoder(images))
''', "SC105")
    assert found == [(19, "`self.head(self.encoder(images))`: the input is (B, 256): 256 features (last dim), but "
                          "`self.head` = nn.Linear(512, classes) expects 512")]


def test_a_return_annotation_the_arguments_contradict_promises_nothing() -> None:
    """Channels-last features given to a forward annotated channels first: SC108 reports the call, and the result's
    later uses (a loss on per-step labels, a helper annotated with the same names) are not findings of their own, made
    of the sizes the rejected argument bound (the time axis read as 8 where the labels say 50)."""
    source = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 16, 3, padding=1)
        self.out = nn.Conv1d(16, 4, 1)
    def forward(self, x: Float[Tensor, "B 8 T"]) -> Float[Tensor, "B 4 T"]:
        return self.out(torch.relu(self.conv(x)))

def masked_mean(scores: Float[Tensor, "B 4 T"], mask: Float[Tensor, "B T"]) -> Float[Tensor, "B 4"]:
    return (scores * mask[:, None]).sum(-1) / mask.sum(-1, keepdim=True)

model = Tagger()
labels = torch.randint(0, 4, (2, 50))
scores = model(torch.randn(2, {layout}))
loss = F.cross_entropy(scores, labels)
pooled = masked_mean(scores, torch.ones(2, 50))
'''
    assert codes(source.format(layout="50, 8"), "SC106", "SC108") == [(21, "SC108")]
    # laid out as annotated, the promise stands: (2, 4, 50) scores against (2, 50) labels and mask, and a shorter
    # sequence is the loss's finding and the helper's
    assert codes(source.format(layout="8, 50"), "SC106", "SC108") == []
    assert codes(source.format(layout="8, 40"), "SC106", "SC108") == [(22, "SC106"), (23, "SC108")]


MULTI_HEAD = '''
import torch
import torch.nn as nn

class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.tasks = nn.ModuleDict({{"age": nn.Linear(64, 1), "kind": nn.Linear(128, 5)}})
        {extra}
    def forward(self, h):
        return {{name: task(h) for name, task in self.tasks.items()}}, [task(h) for task in self.tasks.values()]

MultiTask()(torch.randn(4, 64))
'''


def test_the_layers_of_a_module_dict_through_its_views() -> None:
    found = rows(MULTI_HEAD.format(extra=""), "SC105")
    assert [row for row, _ in found] == [11]
    assert "then in MultiTask.forward, `task(h)`: h is (4, 64): 64 features (last dim), but `task` = " \
           "nn.Linear(128, 5) expects 128" in found[0][1]


def test_a_module_dict_entry_replaced_after_it_is_built() -> None:
    assert rows(MULTI_HEAD.format(extra='self.tasks["kind"] = nn.Linear(64, 5)'), "SC105") == []


def test_a_list_of_batches_handed_to_a_helper_is_run_through() -> None:
    """The tensors come into the helper inside a list (of tuples): the call is still run on them."""
    found = rows('''
import torch
import torch.nn as nn

def evaluate(model, batches):
    for x, y in batches:
        out = model(x)

def first(model, data):
    return model(data[0])

fc = nn.Linear(10, 3)
evaluate(fc, [(torch.randn(8, 12), torch.zeros(8))])
first(fc, {"a": torch.randn(8, 10)})
first(fc, [torch.randn(8, 12)])
''', "SC105")
    assert [row for row, _ in found] == [7, 10]  # where each call fails: in the helper it runs
    assert found[0][1].startswith("via `evaluate(fc, [(torch.randn(8, 12), torch.zeros(8))])`: then in evaluate, "
                                  "`model(x)`: x is (8, 12): 12 features (last dim)")


def test_a_models_tensor_attributes_and_int_arguments_reach_its_forward() -> None:
    """`rope(10)` runs forward with `seq_len` 10, and `rope.inv_freq` (a buffer the constructor registered) is read
    from outside the class: the frequencies are (10, 8), which a (..., 16) query can't take (checked in torch)."""
    source = '''
import torch
import torch.nn as nn

class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)))

    def forward(self, seq_len):
        freqs = torch.outer(torch.arange(seq_len, dtype=self.inv_freq.dtype), self.inv_freq)
        return freqs.cos(), freqs.sin()

def apply_rotary(x, cos, sin):
    return x * cos + x.flip(-1) * sin

rope = RotaryEmbedding(16)
cos, sin = rope(10)
y = apply_rotary(torch.randn(2, 4, 10, 16), cos, sin)
'''
    assert rows(source, "SC105") == [(15, "via `apply_rotary(torch.randn(2, 4, 10, 16), cos, sin)`: cos is (10, 8), sin is "
                                          "(10, 8): then in apply_rotary, `x * cos`: x is (2, 4, 10, 16) and cos is "
                                          "(10, 8): 16 and 8 don't broadcast")]
    assert rows(source.replace("freqs.cos(), freqs.sin()", "torch.cat((freqs, freqs), -1).cos(), "
                                                           "torch.cat((freqs, freqs), -1).sin()"), "SC105") == []


def test_a_model_passed_to_a_helper_brings_its_layers() -> None:
    """`sample(decoder)` passes no tensor, but the model: the latents the helper builds meet its first layer."""
    source = '''
import torch
import torch.nn as nn

class Decoder(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.net = nn.Sequential(nn.ConvTranspose2d(latent, 8, 4, stride=2, padding=1), nn.Sigmoid())

    def forward(self, z):
        return self.net(z)

@torch.no_grad()
def sample(decoder, n=6):
    return decoder(torch.randn(n, 8, 4, 4))

images = sample(Decoder().eval())
fine = sample(Decoder(latent=8))
'''
    assert [row for row, _ in rows(source, "SC105")] == [11]


def test_a_tensor_held_in_a_dict_is_read() -> None:
    """`batch["label"]` of a dict literal, in the method that gets the batch."""
    source = '''
import torch
import torch.nn as nn

class Ranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = nn.Linear(32, 1)
        self.loss_fn = nn.BCEWithLogitsLoss()

    def forward(self, feats):
        return self.scorer(feats)

    def compute_loss(self, batch):
        return self.loss_fn(self(batch["feats"]), batch["label"])

model = Ranker()
model.compute_loss({"feats": torch.randn(16, 32), "label": torch.rand(16)})
model.compute_loss({"feats": torch.randn(16, 32), "label": torch.rand(16, 1)})
'''
    assert [row for row, _ in rows(source, "SC104")] == [15]


def test_an_nn_sequential_subclass_is_checked_where_it_hands_its_layers_to_torch() -> None:
    found = rows('''
import torch.nn as nn

class Head(nn.Sequential):
    def __init__(self, d, hidden):
        super().__init__(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, hidden * 2), nn.Linear(hidden, d))

class Fine(nn.Sequential):
    def __init__(self, d, hidden):
        layers = [nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d)]
        super().__init__(*layers)
''', "SC105")
    assert found == [(6, "`nn.Linear(hidden, d)` expects hidden, but the layers before it give 2 * hidden features "
                         "(last dim) (`nn.Linear(hidden, hidden * 2)`)")]


def test_a_dict_comprehension_runs_each_entry() -> None:
    """`{name: head(h) for name, head in self.heads.items()}`: each head meets the features."""
    source = '''
import torch
import torch.nn as nn

class MultiTask(nn.Module):
    def __init__(self, age_in=256):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(40, 256), nn.ReLU())
        self.heads = nn.ModuleDict({"gender": nn.Linear(256, 2), "age": nn.Linear(age_in, 1)})

    def forward(self, x):
        h = self.backbone(x)
        return {name: head(h) for name, head in self.heads.items()}

out = MultiTask()(torch.randn(8, 40))
wrong = MultiTask(age_in=128)(torch.randn(8, 40))
'''
    assert codes(source, "SC105") == [(13, "SC105")]


def test_a_mask_that_cannot_cover_the_scores_is_found_in_a_called_forward() -> None:
    """nanoGPT's causal buffer is (1, 1, block_size, block_size): used whole, it fits only sequences of block_size
    tokens; cut to `[:, :, :T, :T]` it fits any (checked in torch)."""
    source = '''
import torch
import torch.nn as nn

class CausalAttention(nn.Module):
    def __init__(self, block_size=16):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, q, k):
        T = q.size(-2)
        att = q @ k.transpose(-2, -1)
        return att.masked_fill(self.bias == 0, float("-inf")).softmax(-1)

attn = CausalAttention()
y = attn(torch.randn(2, 4, 10, 8), torch.randn(2, 4, 10, 8))
'''
    assert codes(source, "SC105") == [(13, "SC105")]
    assert codes(source.replace("self.bias == 0", "self.bias[:, :, :T, :T] == 0"), "SC105") == []


def test_a_tensor_the_call_passes_is_not_none_in_the_callee() -> None:
    """`if targets is None:` in a forward given targets takes the other branch, so its loss runs on every call."""
    source = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(32, 65)

    def forward(self, x, targets=None):
        logits = self.head(x)
        if targets is None:
            loss = None
        else:
            loss = F.cross_entropy(logits, targets)
        return logits, loss

model = LM()
logits, _ = model(torch.randn(4, 8, 32))
_, loss = model(torch.randn(4, 8, 32), torch.randint(0, 65, (4, 8)))
'''
    assert [row for row, _ in rows(source, "SC106")] == [16]  # at the loss, via the call


def test_a_dict_a_models_forward_returns_is_read_by_key() -> None:
    source = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Linear(64, 5)

    def forward(self, x):
        return {"logits": self.cls(x).unsqueeze(1), "features": x}

def compute_loss(model, x, labels):
    out = model(x)
    return F.cross_entropy(out["logits"], labels)

compute_loss(Detector(), torch.randn(8, 64), torch.randint(0, 5, (8,)))
out = Detector()(torch.randn(8, 64))
F.cross_entropy(out["logits"].squeeze(1), torch.randint(0, 5, (8,)))
'''
    assert [row for row, _ in rows(source, "SC106")] == [16]  # at the loss in the helper, via the call


def test_an_object_with_its_own_call_method_runs_it() -> None:
    # a loss or wrapper class of the project (not a module): `criterion(pred, y)` runs `__call__` on the shapes
    source = '''
import torch
import torch.nn as nn

class WeightedMSE:
    def __init__(self, model, weight=1.0):
        self.model = model
        self.weight = weight
        self.loss = nn.MSELoss()

    def __call__(self, x, y):
        prediction = self.model(x)
        return prediction * self.weight, self.loss(prediction, y)

criterion = WeightedMSE(nn.Linear(3, 1))
probe(criterion(torch.randn(32, 3), torch.randn(32, 1))[0])
criterion(torch.randn(32, 5), torch.randn(32, 1))
criterion(torch.randn(32, 3), torch.randn(32))
'''
    assert probe(source) == ["(32, 1)"]
    assert [(row, message.split(": then in ")[1]) for row, message in
            sorted(rows(source, "SC104") + rows(source, "SC105"))] == [
        (12, "WeightedMSE.__call__, `self.model(x)`: x is (32, 5): 5 features (last dim), but `self.model` = "
             "nn.Linear(3, 1) expects 3"),
        (13, "WeightedMSE.__call__, `mse_loss` input and target shapes differ: `prediction` is (32, 1), `y` is "
             "(32,); they broadcast to (32, 32) (PyTorch only warns). Make them the same shape: `.squeeze(-1)` the "
             "prediction or `.unsqueeze(-1)` the target")]


def test_a_list_passed_to_a_function_nested_in_another_stays_what_it_was() -> None:
    # `test(test_data, net)` inside `run()`: the nested `test` only reads the list, as a module-level one would;
    # one that appends to it leaves it a list of unknown length
    source = '''
import torch
import torch.nn as nn

net = nn.Linear(10, 1)
test_data = [[torch.randn(10), torch.randn(1)]]
train_data = [[torch.randn(10), torch.randn(1)]]

def run():
    def test(data, model):
        for y, target in data:
            pred = model(y)
            hit = pred.argmax(1) == target

    def train(data, model):
        data.append([torch.randn(10), torch.randn(1)])
        for y, target in data:
            pred = model(y)
            hit = pred.argmax(1) == target

    test(test_data, net)
    train(train_data, net)
'''
    assert [(row, message.split(": then in ")[1]) for row, message in rows(source, "SC105")] == [
        (13, "test, `pred.argmax(1)`: dim 1 is out of range for pred, a 1-d tensor (1,): dims go from -1 to 0")]



def test_a_function_defined_in_a_call_reads_that_calls_values() -> None:
    """A closure over the caller's arguments fails on them, once per call (two calls, two runs); one that fails
    whatever the arguments is reported where it is, not at the calls."""
    assert codes('''
import torch
import torch.nn as nn

w = nn.Linear(8, 8)


def graph_conv(adj, x):
    def propagate():
        return torch.bmm(adj, w(x))
    return propagate()


def broken(adj):
    def propagate():
        return torch.bmm(torch.randn(2, 3, 4), torch.randn(2, 5, 4))
    return propagate()


good = graph_conv(torch.rand(2, 6, 6), torch.randn(2, 6, 8))
bad = graph_conv(torch.rand(2, 6, 5), torch.randn(2, 6, 8))
other = broken(torch.rand(2, 6, 6))
''', "SC105") == [(10, "SC105"), (16, "SC105")]


def test_a_chain_a_helper_builds_from_its_arguments_is_reported_at_the_call() -> None:
    """`build([8, 16])` gives a chain whose last layer reads `sizes[0]`: wrong for these sizes only, so reported
    at the call; a helper whose chain is wrong whatever its arguments is reported inside it, once."""
    assert codes('''
import torch
import torch.nn as nn


def make():
    return nn.Sequential(nn.Linear(4, 8), nn.Linear(16, 2))


def build(sizes):
    layers = []
    prev = 4
    for h in sizes:
        layers.append(nn.Linear(prev, h))
        prev = h
    layers.append(nn.Linear(sizes[0], 2))
    return nn.Sequential(*layers)


net = make()
y = net(torch.randn(3, 4))
good = build([8, 8])
z = good(torch.randn(3, 4))
bad = build([8, 16])
w = bad(torch.randn(3, 4))
''', "SC105") == [(7, "SC105"), (25, "SC105")]


def test_a_call_that_passes_only_sizes_or_leaves_a_config_default_is_run() -> None:
    """`main()` with `def main(cfg=CONFIG)`: the default is the module's dict, which the function read on its own
    leaves unknown; `build(12)` passes an int. Both are run with what they state; a call with nothing known isn't."""
    found = rows('''
import torch
import torch.nn as nn

CONFIG = {"input_dim": 13, "batch_size": 6}


def main(cfg=CONFIG):
    feats = torch.randn(cfg["batch_size"], 7, cfg["input_dim"])
    return nn.Linear(12, 4)(feats)


def build(width, depth=2):
    return nn.Linear(10, 3)(torch.randn(depth, width))


def unknown(cfg):
    return nn.Linear(10, 3)(torch.randn(2, cfg.width))


main()
build(12)
build(10)
unknown(object())
''', "SC105")
    assert found == [
        (10, "via `main()`: then in main, `nn.Linear(12, 4)(feats)`: feats is (6, 7, 13): 13 features (last dim), "
             "but `nn.Linear(12, 4)` = nn.Linear(12, 4) expects 12"),
        (14, "via `build(12)`: then in build, `nn.Linear(10, 3)(torch.randn(depth, width))`: the input is (2, 12): "
             "12 features (last dim), but `nn.Linear(10, 3)` = nn.Linear(10, 3) expects 10")]


def test_a_tensor_from_a_models_parameters_makes_the_initial_state() -> None:
    """`next(self.parameters()).new_zeros(...)` (pytorch/examples' `init_hidden`): any parameter is a tensor, and
    `new_zeros` needs no more of it; `next(iter(loader))` is a batch like those a loop over it gets."""
    found = rows('''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LM(nn.Module):
    def __init__(self, nhid=48, nlayers=2):
        super().__init__()
        self.nhid, self.nlayers = nhid, nlayers
        self.rnn = nn.LSTM(32, nhid, nlayers)

    def forward(self, x, hidden):
        return self.rnn(x, hidden)

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid * 2)


model = LM()
out, hidden = model(torch.randn(35, 10, 32), model.init_hidden(10))
loader = DataLoader(TensorDataset(torch.randn(64, 5), torch.randn(64)), batch_size=8)
x, y = next(iter(loader))
nn.Linear(7, 2)(x)
''', "SC105")
    assert [row for row, _ in found] == [14, 25]
    assert "the initial state c_0 is (2, 10, 96)" in found[0][1]
    assert found[1][1] == ("`nn.Linear(7, 2)(x)`: x is (8, 5): 5 features (last dim), but `nn.Linear(7, 2)` = "
                           "nn.Linear(7, 2) expects 7")


def test_old_forum_code_wraps_its_tensors_in_variable() -> None:
    """`Variable(torch.zeros(...))` (pre-0.4 autograd) is the tensor it wraps, and `random_` fills in place: an
    `init_hidden` that swaps batch and hidden is caught where the GRU takes it."""
    found = rows('''
import torch
import torch.nn as nn
from torch.autograd import Variable


class RNN(nn.Module):
    def __init__(self, n_chars, hidden_size, n_layers=2):
        super(RNN, self).__init__()
        self.hidden_size, self.n_layers = hidden_size, n_layers
        self.encoder = nn.Embedding(n_chars, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)

    def forward(self, input, hidden):
        encoded = self.encoder(input)
        return self.gru(encoded.view(1, input.size(0), -1), hidden)

    def init_hidden(self, batch_size, swapped=False):
        if swapped:
            return Variable(torch.zeros(self.n_layers, self.hidden_size, batch_size))
        return Variable(torch.zeros(self.n_layers, batch_size, self.hidden_size))


rnn = RNN(100, 50)
inp = Variable(torch.LongTensor(16).random_(0, 100))
rnn(inp, rnn.init_hidden(16))
rnn(inp, rnn.init_hidden(16, swapped=True))
''', "SC105")
    assert [row for row, _ in found] == [16]
    assert "the initial state h_0 is (2, 50, 16)" in found[0][1]


def test_layers_a_sequential_subclass_adds_by_name_run_in_that_order() -> None:
    """`self.add_module(name, layer)` after `super().__init__(...)` (torchvision's DenseNet blocks): the layers
    run after those handed to the constructor, a name added again keeps its place; a ModuleList subclass that adds
    one is no longer known."""
    found = rows('''
import torch
import torch.nn as nn


class Encoder(nn.Sequential):
    def __init__(self, channels: int, out_dim: int):
        super().__init__(nn.Flatten(1))
        self.add_module("proj", nn.Linear(channels, out_dim))
        self.add_module("act", nn.ReLU())


class Replaced(nn.Sequential):
    def __init__(self, channels: int):
        super().__init__()
        self.add_module("proj", nn.Linear(channels, 8))
        self.add_module("flatten", nn.Flatten(1))
        self.add_module("proj", nn.Linear(8, 8))


class Blocks(nn.ModuleList):
    def __init__(self):
        super().__init__([nn.Linear(4, 4)])
        self.add_module("extra", nn.Linear(9, 9))

    def forward(self, x):
        for block in self:
            x = block(x)
        return x


Encoder(3, 64)(torch.randn(2, 3, 4, 4))
Encoder(48, 64)(torch.randn(2, 3, 4, 4))
Replaced(4)(torch.randn(2, 4))
Replaced(4)(torch.randn(2, 8))
Blocks()(torch.randn(2, 4))
''', "SC105")
    assert [row for row, _ in found] == [32, 34]


def test_a_sequential_subclass_filled_by_a_loop_of_unknown_length_holds_no_known_layers() -> None:
    """DeepLab's `_ResLayer(nn.Sequential)` adds `"block{}".format(i + 1)` for `i in range(n_layers)`, with
    `n_layers` from the config (`n_blocks[0]`): the blocks it holds, hence the channels it gives, are not known, and
    reading it as the empty `super().__init__()` (64 channels passed through to a conv taking 256) was wrong; so are
    those `setattr` registers under a name it computes, however many. With the count the code writes out, the
    blocks run as they were added, and a conv after them taking other channels is the bug."""
    found = rows('''
import torch
import torch.nn as nn


class _ResLayer(nn.Sequential):
    def __init__(self, n_layers, in_ch, out_ch):
        super(_ResLayer, self).__init__()
        for i in range(n_layers):
            self.add_module(
                "block{}".format(i + 1),
                nn.Conv2d(in_ch if i == 0 else out_ch, out_ch, 1, bias=False),
            )


class _SetLayer(nn.Sequential):
    def __init__(self, n_layers, in_ch, out_ch):
        super().__init__()
        for i in range(n_layers):
            setattr(self, "block%d" % (i + 1), nn.Conv2d(in_ch if i == 0 else out_ch, out_ch, 1))


def run(stage, x):
    h = nn.Conv2d(3, 64, 7, 2, 3)(x)
    return nn.Conv2d(256, 48, 1)(stage(h))


x = torch.randn(2, 3, 64, 64)
run(_ResLayer(n_blocks[0], 64, 256), x)
run(_ResLayer(3, 64, 128), x)
nn.Conv2d(256, 48, 1)(_SetLayer(3, 64, 256)(nn.Conv2d(3, 64, 7, 2, 3)(x)))
''', "SC105")
    assert len(found) == 1 and found[0][0] == 25 and found[0][1].startswith("via `run(_ResLayer(3, 64, 128), x)`")


def test_blocks_an_empty_sequential_gets_by_add_module_run_in_that_order() -> None:
    """Darknet's `create_modules` (YOLOv3 ports): each block is `nn.Sequential()` filled by
    `block.add_module(name, layer)` in a loop over a config list, kept in a ModuleList that `forward` runs in turn:
    its first conv fed grayscale frames is the bug; the same blocks fed the channels they take stay silent, and so
    does a block whose layers hang on a flag the code does not state (each path's block differs: none is known)."""
    found = rows('''
import torch
import torch.nn as nn

DEFS = [("conv", 16, 3, 1), ("maxpool", None, 2, 2), ("conv", 32, 3, 1)]


def create_modules(defs, in_channels, batch_norm):
    module_list = nn.ModuleList()
    channels = in_channels
    for kind, filters, kernel, stride in defs:
        block = nn.Sequential()
        if kind == "conv":
            block.add_module("conv", nn.Conv2d(channels, filters, kernel, stride, padding=kernel // 2))
            if batch_norm:
                block.add_module("bn", nn.BatchNorm2d(filters))
            block.add_module("leaky", nn.LeakyReLU(0.1))
            channels = filters
        else:
            block.add_module("maxpool", nn.MaxPool2d(kernel, stride))
        module_list.append(block)
    return module_list


class Darknet(nn.Module):
    def __init__(self, in_channels, batch_norm=True):
        super().__init__()
        self.module_list = nn.ModuleList()
        channels = in_channels
        for kind, filters, kernel, stride in DEFS:
            block = nn.Sequential()
            if kind == "conv":
                block.add_module("conv", nn.Conv2d(channels, filters, kernel, stride, padding=kernel // 2))
                block.add_module("act", nn.LeakyReLU(0.1))
                channels = filters
            else:
                block.add_module("maxpool", nn.MaxPool2d(kernel, stride))
            self.module_list.append(block)

    def forward(self, x):
        for block in self.module_list:
            x = block(x)
        return x


Darknet(3)(torch.randn(4, 1, 32, 32))
Darknet(1)(torch.randn(4, 1, 32, 32))
x = torch.randn(4, 3, 32, 32)
for block in create_modules(DEFS, 3, torch.cuda.is_available()):
    x = block(x)
y = torch.randn(4, 3, 32, 32)
for block in create_modules(DEFS, 1, False):
    y = block(y)
''', "SC105")
    assert [row for row, _ in found] == [42, 53]


def test_layers_named_by_their_index_in_the_config_run_in_that_order() -> None:
    """YOLOv3 ports name each layer by its index in the config (`f"conv_{i}"`, `"leaky_{}".format(i)`, DenseNet's
    `"denselayer%d" % (i + 1)`): on a pass of a loop over a list the code writes out, the name is known, so a body
    built in one `nn.Sequential()` runs in the order it was filled: fed grayscale frames, its first conv is the bug;
    fed RGB, silent. A name the code reads from data, or formats with a spec, leaves the body unknown (each is
    silent on grayscale frames too)."""
    found = rows('''
import torch
import torch.nn as nn

DEFS = [(16, 3), (32, 3), (64, 1)]


def create_body(defs, in_channels):
    body = nn.Sequential()
    channels = in_channels
    for i, (filters, kernel) in enumerate(defs):
        body.add_module(f"conv_{i}", nn.Conv2d(channels, filters, kernel, padding=kernel // 2))
        body.add_module("bn_%d" % i, nn.BatchNorm2d(filters))
        body.add_module("leaky_{}".format(i), nn.LeakyReLU(0.1))
        channels = filters
    return body


def named_by(defs, names):
    body = nn.Sequential()
    for i, (filters, kernel) in enumerate(defs):
        body.add_module(names[i], nn.Conv2d(3, filters, kernel))
    return body


def padded_names(defs):
    body = nn.Sequential()
    for i, (filters, kernel) in enumerate(defs):
        body.add_module(f"conv_{i:03d}", nn.Conv2d(3, filters, kernel))
    return body


create_body(DEFS, 3)(torch.randn(4, 1, 32, 32))
create_body(DEFS, 3)(torch.randn(4, 3, 32, 32))
named_by(DEFS, read_names())(torch.randn(4, 1, 32, 32))
padded_names(DEFS[:1])(torch.randn(4, 1, 32, 32))
''', "SC105")
    assert [row for row, _ in found] == [33]


def test_a_loop_over_a_tensors_sizes_multiplies_them_out() -> None:
    """The 60-minute blitz's `num_flat_features`: a loop over `x.size()[1:]` goes through the sizes, so LeNet fed
    28x28 images flattens 256 features where its first layer takes 400 (a tensor of unknown rank says nothing)."""
    found = rows('''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc1(x.view(-1, self.num_flat_features(x)))

    def num_flat_features(self, x):
        num_features = 1
        for s in x.size()[1:]:
            num_features *= s
        return num_features


net = Net()
net(torch.randn(4, 1, 32, 32))
net(torch.randn(4, 1, 28, 28))
''', "SC105")
    assert [row for row, _ in found] == [17]
    assert "is (4, 256): 256 features (last dim)" in found[0][1]


def test_a_layer_under_an_attribute_in_a_comprehension_is_checked() -> None:
    """Kim's TextCNN pools each convolution with `conv(emb).max(dim=2).values`: the element is an expression, so the
    call under the attribute is checked on each pass, as a bare call would be."""
    found = rows('''
import torch
import torch.nn as nn


class TextCNN(nn.Module):
    def __init__(self, embed_dim=300, sizes=(3, 4, 5)):
        super().__init__()
        self.embedding = nn.Embedding(1000, 128)
        self.convs = nn.ModuleList([nn.Conv1d(embed_dim, 8, k) for k in sizes])

    def forward(self, tokens):
        emb = self.embedding(tokens).permute(0, 2, 1)
        pooled = [conv(emb).max(dim=2).values for conv in self.convs]
        return torch.cat(pooled, dim=1)


TextCNN(128)(torch.randint(0, 1000, (6, 50)))
TextCNN()(torch.randint(0, 1000, (6, 50)))
''', "SC105")
    assert [row for row, _ in found] == [14]
    assert "emb is (6, 128, 50): 128 channels (dim -2)" in found[0][1]


def test_a_helper_that_detaches_an_rnn_state_keeps_it_known() -> None:
    """pytorch/examples' `repackage_hidden`: `isinstance(h, torch.Tensor)` is true of a tensor, false of a tuple of
    them (whose parts it recurses into), so the state it hands back is the one `init_hidden` made."""
    found = rows('''
import torch
import torch.nn as nn


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def run(state, cell, other):
    gru = nn.GRU(8, 16, 2)
    lstm = nn.LSTM(8, 16, 2)
    x = torch.randn(5, 3, 8)
    gru(x, repackage_hidden(state))
    lstm(x, repackage_hidden((state, cell)))
    gru(x, other if isinstance(other, (list, tuple)) else repackage_hidden(other))


run(torch.zeros(1, 3, 16), torch.zeros(2, 3, 16), torch.zeros(1, 3, 16))
''', "SC105")
    assert [row for row, _ in found] == [16]
    assert "the initial state h_0 is (1, 3, 16)" in found[0][1]


def test_layers_cloned_with_deepcopy_are_the_layer_they_copy() -> None:
    """The annotated transformer's `clones(layer, n)`: `copy.deepcopy` gives an object like the one it copies, so
    the layers of the stack are known and a (B, 1, T) mask that can't broadcast to the (B, h, T, T) scores is
    caught inside them."""
    found = rows('''
import copy
import math
import torch
import torch.nn as nn


def clones(module, n):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])


class Attention(nn.Module):
    def __init__(self, h, d_model):
        super().__init__()
        self.h, self.d_k = h, d_model // h
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, mask):
        b = x.size(0)
        q = self.proj(x).view(b, -1, self.h, self.d_k).transpose(1, 2)
        scores = (q @ q.transpose(-2, -1) / math.sqrt(self.d_k)).masked_fill(mask == 0, -1e9)
        return (scores.softmax(-1) @ q).transpose(1, 2).reshape(b, -1, self.h * self.d_k)


class Encoder(nn.Module):
    def __init__(self, layer, n):
        super().__init__()
        self.layers = clones(layer, n)

    def forward(self, x, mask):
        for layer in self.layers:
            x = layer(x, mask)
        return x


encoder = Encoder(Attention(4, 64), 2)
src = torch.randn(3, 10, 64)
encoder(src, torch.ones(3, 1, 1, 10))
encoder(src, torch.ones(3, 1, 10))
''', "SC105")
    assert [row for row, _ in found] == [21]
    assert "4 and 3 don't broadcast" in found[0][1]


def test_super_forward_of_a_sequential_subclass_runs_its_layers() -> None:
    """A U-Net block that joins its skip connection, then calls `super().forward(x)`: its layers run on the joined
    tensor. A module it also sets as an attribute runs after them in torch, so such a subclass is not known."""
    found = rows('''
import torch
import torch.nn as nn
import torch.nn.functional as F


class UpBlock(nn.Sequential):
    def __init__(self, in_ch: int, out_ch: int):
        super().__init__(nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.ReLU())

    def forward(self, x, skip):
        return super().forward(torch.cat([F.interpolate(x, scale_factor=2), skip], dim=1))


class WithHead(nn.Sequential):
    def __init__(self):
        super().__init__(nn.Linear(4, 8))
        self.head = nn.Linear(8, 2)


UpBlock(64, 16)(torch.randn(2, 32, 8, 8), torch.randn(2, 32, 16, 16))
UpBlock(32, 16)(torch.randn(2, 32, 8, 8), torch.randn(2, 32, 16, 16))
nn.Linear(2, 1)(WithHead()(torch.randn(3, 4)))
''', "SC105")
    assert [row for row, _ in found] == [12]
    assert "(2, 64, 16, 16)" in found[0][1]


def test_a_construction_runs_its_init_on_the_arguments_it_passes() -> None:
    """A dataset that checks what it is given in `__init__` is checked on what each construction passes; a class
    built with nothing known, or whose checks reduce first, is not reported."""
    found = rows('''
import torch
from torch.utils.data import Dataset

class Images(Dataset):
    def __init__(self, raw, targets, num_classes):
        self.images = raw.float() / 255.0
        assert (self.images >= 0) and (self.images <= 1)
        if (targets < 0).any() or (targets >= num_classes).any():
            raise ValueError("target out of range")

    def __len__(self):
        return len(self.images)

Images(torch.randint(0, 256, (12, 1, 28, 28)), torch.zeros(12, dtype=torch.long), 3)
Images(torch.randint(0, 256, (1,)), torch.zeros(12, dtype=torch.long), 3)
''', "SC107")
    assert [row for row, _ in found] == [8]  # in `__init__`, where the traceback ends
    assert found[0][1].startswith("via `Images(torch.randint(0, 256, (12, 1, 28, 28)), ")


def test_a_column_the_target_is_shaped_to_in_a_loss_asks_for_no_broadcast_of_the_loss() -> None:
    """`y.unsqueeze(1)` lines the target up with (N, 1) logits inside the loss; the unreduced loss times (N,)
    per-sample weights is still a (N, N) surprise, reported through the method that computes it. Weights shaped to
    a column outside the loss are what the code asks for."""
    found = codes('''
import torch
import torch.nn as nn

class Trainer:
    def __init__(self, model):
        self.model = model
        self.bce = nn.BCEWithLogitsLoss(reduction="none")

    def step(self, x, y, weights):
        per_sample = self.bce(self.model(x), y.unsqueeze(1))
        return (per_sample * weights).mean()

    def column_step(self, x, y, weights):
        per_sample = self.bce(self.model(x), y.unsqueeze(1))
        return (per_sample * weights.unsqueeze(1)).mean()

t = Trainer(nn.Linear(30, 1))
t.step(torch.randn(64, 30), torch.rand(64), torch.rand(64))
t.column_step(torch.randn(64, 30), torch.rand(64), torch.rand(64))
''', "SC104")
    assert found == [(12, "SC104")]


def test_a_call_message_leaves_out_arguments_of_which_no_dim_is_known() -> None:
    """An epoch counter handed to the helper along with the batches is no tensor the message could describe."""
    found = rows('''
import torch
import torch.nn as nn

def train(model, batches, epoch):
    for x, y in batches:
        out = model(x)
    print(epoch)

fc = nn.Linear(10, 3)
for epoch in range(3):
    train(fc, [(torch.randn(8, 12), torch.zeros(8))], epoch)
''', "SC105")
    assert [row for row, _ in found] == [7]
    assert found[0][1].startswith("via `train(fc, [(torch.randn(8, 12), torch.zeros(8))], epoch)`: then in train, ")


def test_a_conditional_expression_whose_test_the_block_settles_takes_that_branch() -> None:
    # a pre-activation residual block: its shortcut is None when it keeps the width, a 1x1 conv otherwise
    source = '''
import torch
from torch import nn

class Block(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, stride, 1)
        self.shortcut = None if c_in == c_out and stride == 1 else nn.Conv2d(c_in, c_out, 1, stride)

    def forward(self, x):
        return self.conv(x) + (x if self.shortcut is None else self.shortcut(x))

x = torch.randn(4, 16, 64, 64)
probe(Block(16, 16, 1)(x))
probe(Block(16, 32, 2)(x))
'''
    assert probe(source) == ["(4, 16, 64, 64)", "(4, 32, 32, 32)"]


def test_a_call_in_a_comprehensions_element_is_checked_with_each_pass() -> None:
    # federated averaging: one local update per client's loader, a list comprehension over the loaders
    source = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

def local_update(model, loader):
    for x, y in loader:
        model(x)

model = nn.Conv2d(3, 8, 3)
images = torch.randn(64, 32, 32, 3)
labels = torch.zeros(64)
loaders = [DataLoader(TensorDataset(images[:16], labels[:16]), batch_size=8) for _ in range(4)]
updates = [local_update(model, loader) for loader in loaders]
ok = [local_update(model, loader) for loader in loaders[:0]]
'''
    assert [row for row, _ in rows(source, "SC105")] == [8]


_ARGPARSE_SCRIPT = '''
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, args.width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Linear(args.width * (args.image_size // 2) ** 2, args.classes)

    def forward(self, x):
        return self.head(self.encoder(x).flatten(1))


def evaluate(model, loader):
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            correct += (model(images).argmax(1) == labels).sum().item()
    return correct


def main(args):
    model = Net(args)
    data = TensorDataset(torch.randn(16, 1, 28, 28), torch.randint(0, args.classes, (16,)))
    print(evaluate(model, DataLoader(data, batch_size=args.batch_size)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=8)
    parser.add_argument("--image_size", type=int, default=32)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--batch_size", type=int, default=4)
    main(parser.parse_args([]))
'''


def test_a_namespace_of_defaults_handed_to_main_is_followed_into_the_helpers_it_calls() -> None:
    """`main(parser.parse_args([]))`: the options' defaults are the sizes `main`'s model is built with, and the
    loader it hands to `evaluate` brings the images; the failure is reported in the model's forward (where torch
    raises "mat1 and mat2 shapes cannot be multiplied (4x1568 and 2048x10)"), saying which calls bring the sizes."""
    found = rows(_ARGPARSE_SCRIPT, "SC105")
    assert found == [(16, "via `main(parser.parse_args([]))`: then in main, `evaluate(model, DataLoader(data, "
                          "batch_size=args.batch_size))`: then in evaluate, `model(images)`: images is (4, 1, 28, 28): "
                          "then in Net.forward, `self.head(self.encoder(x).flatten(1))`: the input is (4, 1568): 1568 "
                          "features (last dim), but `self.head` = nn.Linear(args.width * (args.image_size // 2) ** 2, "
                          "args.classes) expects 2048")]


def test_a_namespace_the_command_line_fills_is_checked_at_the_default_of_the_one_option_that_matters() -> None:
    """`parse_args()` reads `sys.argv`: each option is a size of its own, but `--width` multiplies both sides (the
    features the encoder gives and those the head expects), so the mismatch is `--image_size`'s alone, checked at its
    default (the run with no flags fails whatever the width); defaults that fit report nothing."""
    found = rows(_ARGPARSE_SCRIPT.replace("parse_args([])", "parse_args()"), "SC105")
    assert [row for row, _ in found] == [16]
    assert found[0][1].endswith("(with parser.parse_args().image_size = 32, the command line's default)")
    assert rows(_ARGPARSE_SCRIPT.replace("default=32", "default=28"), "SC105") == []


_COMMAND_LINE_FACTORS = '''
import argparse

import torch
from torch import nn


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, factors):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, factors)
        self.item_factors = nn.Embedding(n_items, factors)
        self.user_bias = nn.Embedding(n_users, 1)

    def forward(self, users, items):
        dot = (self.user_factors(users) * self.item_factors(items)).sum(dim=1)
        return self.user_bias(users) + dot


parser = argparse.ArgumentParser()
parser.add_argument("--factors", type=int, default=16)
args = parser.parse_args()
model = BiasedMF(50, 40, args.factors)
pred = model(torch.randint(0, 50, (64,)), torch.randint(0, 40, (64,)))
'''


def test_an_argument_the_caller_does_not_know_is_still_one_object_in_the_callee() -> None:
    """`BiasedMF(50, 40, args.factors)` after a `parse_args()` that reads the command line: the factor count is
    unknown, but it is one int, so each embedding gives (64, factors) and the (64, 1) bias plus the (64,) dot
    scores is (64, 64), as torch gives it whatever the command line says. The callee's parameter reads as it does
    with no caller (a size of its own), not as nothing."""
    found = codes(_COMMAND_LINE_FACTORS, "SC104")
    assert found == [(17, "SC104")]
    assert codes(_COMMAND_LINE_FACTORS.replace("+ dot", "+ dot.unsqueeze(1)"), "SC104") == []


def test_unknown_arguments_of_two_calls_are_two_objects() -> None:
    """Two calls each handed an unknown value get one of their own: `column(args.height)` and
    `column(args.width)` are (height, 1) and (width, 1), and adding one to the other's row is an outer sum of two
    sizes, not a size stretched to itself."""
    source = '''
import argparse

import torch


def column(n):
    return torch.zeros(n, 1)


args = argparse.ArgumentParser().parse_args()
grid = column(args.height) + column(args.width).squeeze(1)
'''
    assert codes(source, "SC104") == []


def test_a_helper_behind_a_decorator_that_changes_its_arguments_is_not_run_with_the_callers() -> None:
    """`@with_flat_inputs` hands `x.flatten(1)` on: running `predict`'s body on the caller's (4, 1, 28, 28) would
    report a Linear that torch runs fine. `@torch.no_grad()` calls the function as written: the same call of
    `evaluate` raises "mat1 and mat2 shapes cannot be multiplied (112x28 and 784x10)"."""
    found = codes('''
import functools

import torch
from torch import nn


def with_flat_inputs(fn):
    @functools.wraps(fn)
    def wrapper(model, x):
        return fn(model, x.flatten(1))
    return wrapper


@with_flat_inputs
def predict(model, x):
    return model(x)


@torch.no_grad()
def evaluate(model, x):
    return model(x)


net = nn.Linear(784, 10)
print(predict(net, torch.randn(4, 1, 28, 28)).shape)
evaluate(net, torch.randn(4, 1, 28, 28))
''', "SC105")
    assert found == [(22, "SC105")]


def test_sizes_unpacked_from_a_shape_reach_a_helper_the_sizes_are_passed_to() -> None:
    """`bsz, seq_len, dim = x.size()` then `self._shape(q, bsz, seq_len)` (the split-heads helper of BART, Whisper and
    their copies): the helper's view takes the caller's sizes, so the heads it transposes are known at the merge."""
    assert probe('''
import torch
import torch.nn as nn

def split_heads(t, bsz, seq_len, heads):
    return t.view(bsz, seq_len, heads, -1).transpose(1, 2)

class SelfAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.q_proj = nn.Linear(dim, dim)

    def _shape(self, t, bsz, seq_len):
        return t.view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, hidden_states):
        bsz, seq_len, _ = hidden_states.size()
        probe(self._shape(self.q_proj(hidden_states), bsz, seq_len))
        probe(split_heads(hidden_states, bsz, seq_len, 4))
''') == ["(bsz, self.num_heads, seq_len, dim // num_heads)", "(bsz, 4, seq_len, inferred)"]


def test_a_view_merging_heads_a_helper_split_is_reported_and_its_fixes_are_not() -> None:
    """The merge after `torch.matmul(attn, v)` of heads a method split: SC101 knows the tensor is 4-d only through the
    sizes passed to the method; `.reshape` and `.contiguous().view` are the fixes."""
    source = '''
import torch
import torch.nn as nn

class SelfAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def _shape(self, t, bsz, seq_len):
        return t.view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, hidden_states):
        bsz, seq_len, dim = hidden_states.size()
        q, k, v = self.qkv(hidden_states).chunk(3, dim=-1)
        q, k, v = self._shape(q, bsz, seq_len), self._shape(k, bsz, seq_len), self._shape(v, bsz, seq_len)
        out = torch.matmul(torch.softmax(q @ k.transpose(-1, -2), dim=-1), v)
        return out.transpose(1, 2).%s(bsz, seq_len, dim)
'''
    assert codes(source % "view", "SC101") == [(20, "SC101")]
    assert codes(source % "reshape", "SC101") == []
    assert codes(source % "contiguous().view", "SC101") == []



TYPED_MODULES = '''
import torch
from jaxtyping import Bool, Float
from torch import Tensor, nn

class Head(nn.Module):
    def __init__(self, dim: int = 32, classes: int = 7) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, classes)
    def forward(self, pooled: Float[Tensor, "batch dim"]) -> Tensor:
        return self.fc(pooled)

class Encoder(nn.Module):
    def forward(self, x: Float[Tensor, "batch time dim"], mask: Bool[Tensor, "batch time"]) -> Tensor:
        return x
'''


def test_an_argument_to_a_models_typed_forward_is_reported_at_the_call() -> None:
    """`self.head(hidden)` where `Head.forward(self, pooled: Float[Tensor, "batch dim"])`: the argument is checked
    against the forward's parameter annotations where the call passes it, as a function's are, not only where a
    return in the forward happens to read it; inside a run too (`self.encoder(feats, mask)` on the sizes the model's
    call gives)."""
    head = rows(TYPED_MODULES + '''
class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.head = Head()
    def forward(self, hidden: Float[Tensor, "batch time dim"]):
        return self.head(hidden)
''', "SC108")
    assert head == [(22, "`self.head(...)`: `pooled` is (batch, time, dim), annotated (batch, dim): rank 3, not 2")]
    encoder = rows(TYPED_MODULES + '''
class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = Encoder()
    def forward(self, x, lengths):
        mask = torch.arange(x.shape[1]).unsqueeze(0) >= lengths.unsqueeze(1)
        return self.encoder(x.transpose(1, 2), mask)

model = Model()
out = model(torch.randn(3, 10, 32), torch.tensor([10, 8, 6]))
''', "SC108")
    assert encoder == [(23, "via `model(torch.randn(3, 10, 32), torch.tensor([10, 8, 6]))`: then in Model.forward, "
                            "`self.encoder(...)`: `time` is 32 in `x` but 10 in `mask` (annotated (batch, time))")]


def test_the_code_a_call_runs_is_run_once_for_every_check_that_looks_into_it(monkeypatch) -> None:
    """SC101, SC104, SC105 and SC107 each look into the code every call runs; a construction's `__init__`, run on an
    instance of its own for them, was run again for each check that reached it."""
    from shapecheck.objects.executor import Executor

    ran: list[str] = []
    run = Executor.run

    def counted(self, callee, args):
        ran.append(callee.node.name.value)
        return run(self, callee, args)

    monkeypatch.setattr(Executor, "run", counted)
    found = codes('''
import torch
from torch.utils.data import Dataset

class Labelled(Dataset):
    def __init__(self, images, targets, num_classes):
        self.images, self.targets = images.view(len(images), -1), targets
        if targets >= num_classes:
            raise ValueError("target out of range")

ds = Labelled(torch.rand(10, 3, 8, 8), torch.randint(0, 5, (10,)), 5)
''', "SC101", "SC104", "SC105", "SC107")
    assert found == [(8, "SC107")]
    # its run on its own signature, the construction the call makes, and its run on the call's arguments, which the
    # checks look into
    assert ran.count("__init__") == 3


def test_a_decoding_loop_fails_on_its_first_pass_with_the_token_bound_before_it() -> None:
    """A transliteration model: the reader's bidirectional LSTM gives 2 * hidden features per character, the
    speller's queries have hidden. The first token is bound before a loop over the transcript that rebinds it after
    the call reading it (teacher forcing), so the forward on its own knows it only on a first pass of a loop that
    may run none; the caller's run, with a transcript of 6 steps, runs that pass for certain (checked in torch:
    "Expected size for first two dimensions of batch2 tensor to be: [4, 128] but got: [4, 64]")."""
    source = '''
import torch
import torch.nn as nn


class Speller(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.cell = nn.LSTMCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def step(self, token, state, listener_states):
        h, c = self.cell(self.embed(token), state)
        scores = torch.bmm(listener_states, h.unsqueeze(2)).squeeze(2)
        context = torch.bmm(scores.softmax(1).unsqueeze(1), listener_states).squeeze(1)
        return self.out(h + context), (h, c)


class LAS(nn.Module):
    def __init__(self, n_chars=60, vocab=30, hidden=64):
        super().__init__()
        self.chars = nn.Embedding(n_chars, 32)
        self.listener = nn.LSTM(32, hidden, batch_first=True, bidirectional=True)
        self.speller = Speller(vocab, hidden)
        self.hidden = hidden

    def forward(self, word, transcript):
        listener_states, _ = self.listener(self.chars(word))
        batch = word.size(0)
        state = (torch.zeros(batch, self.hidden), torch.zeros(batch, self.hidden))
        token = torch.full((batch,), 1, dtype=torch.long)
        logits = []
        for t in range(transcript.size(1)):
            step_logits, state = self.speller.step(token, state, listener_states)
            logits.append(step_logits)
            token = transcript[:, t]
        return torch.stack(logits, 1)


model = LAS()
logits = model(torch.randint(0, 60, (4, 12)), torch.randint(0, 30, (4, 6)))
'''
    assert codes(source, "SC105") == [(15, "SC105")]
    # the listener's directions summed back to `hidden` features
    summed = source.replace("listener_states, _ = self.listener(self.chars(word))",
                            "out, _ = self.listener(self.chars(word))\n        listener_states = out[..., :64] + out[..., 64:]")
    assert codes(summed, "SC105") == []
    # a token the loop never rebinds: the same one report
    assert codes(source.replace("token = transcript[:, t]", "pass"), "SC105") == [(15, "SC105")]


def test_a_parameter_annotated_int_holds_an_int_whatever_the_caller_hands_it() -> None:
    """`Dataset(args.items)` after a `parse_args()` that reads the command line: the callee states `n_items: int`,
    so `np.zeros(n_items)` and `torch.zeros(n_items)` are 1-d there as where the function is written; a parameter
    without the annotation may hold a whole shape and stays unknown."""
    assert probe('''
        import numpy as np
        import torch

        class Recordings:
            def __init__(self, n_items: int, channels):
                self.labels = np.random.randint(0, 3, size=n_items)
                self.noise = torch.zeros(n_items)
                self.gains = torch.ones(channels)

        def main(args):
            data = Recordings(args.items, args.channels)
            probe(torch.from_numpy(data.labels))
            probe(data.noise)
            probe(data.gains)
    ''') == ["(args.items,)", "(args.items,)", None]



_STEPS_TRAINER = '''
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self, n_in: int = 8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


class Fitter:
    def __init__(self, model, lr: float = 1e-2):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def fit(self, x, y, steps: int = 200):
        history = []
        for _ in range(steps):
            self.opt.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            loss.backward()
            self.opt.step()
            history.append(loss.item())
        return history


parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=200)
args = parser.parse_args()
Fitter(Regressor()).fit(torch.randn(256, 8), torch.randn(256))
'''


def test_a_loop_over_more_numbers_than_are_unrolled_runs_its_first_pass() -> None:
    """`for step in range(steps)` on the default 200: too many passes to run one by one, but the first one runs on
    every call, so the (256, 1) predictions against the (256,) targets the call passes are a finding there (torch
    warns and broadcasts to (256, 256)). A count the command line gives runs where its default does: the run with
    no flags takes `--steps 200`'s first pass; an option defaulting to 0 proves nothing."""
    found = rows(_STEPS_TRAINER, "SC104")
    assert [row for row, _ in found] == [27]
    assert found[0][1].startswith("via `Fitter(Regressor()).fit(torch.randn(256, 8), torch.randn(256))`: then in "
                                  "Fitter.fit, `mse_loss` input and target shapes differ: `self.model(x)` is (256, 1), "
                                  "`y` is (256,)")
    assert rows(_STEPS_TRAINER.replace("torch.randn(256))", "torch.randn(256, 1))"), "SC104") == []
    with_option = _STEPS_TRAINER.replace("torch.randn(256))", "torch.randn(256), args.steps)")
    assert [row for row, _ in rows(with_option, "SC104")] == [27]
    assert rows(with_option.replace("default=200", "default=0"), "SC104") == []


_ROLLOUT_MEMORY = '''
import torch
import torch.nn as nn


class Memory:
    def __init__(self):
        self.clear()

    def clear(self):
        self.states, self.rewards = [], []


class Agent:
    def __init__(self, n_obs: int = 4):
        self.critic = nn.Linear(n_obs, 1)

    def update(self, memory: Memory):
        returns = torch.tensor(memory.rewards)
        probe(returns)
        values = self.critic(torch.stack(memory.states)).squeeze(-1)
        return returns - torch.zeros(8)


memory = Memory()
agent = Agent()
for _ in range(8):
    memory.states.append(torch.randn(4))
    memory.rewards.append(1.0)
agent.update(memory)
'''


def test_a_rollout_memorys_lists_are_not_the_empty_ones_its_constructor_makes() -> None:
    """The memory an agent's `update(memory: Memory)` reads is at any point of its life: the script fills the
    `[]` its `clear()` leaves (`memory.rewards.append(r)`), so `torch.tensor(memory.rewards)` has a length the
    code does not state, not 0, and its 8 rewards against 8 values raise nothing."""
    assert probe(_ROLLOUT_MEMORY) == [None]
    assert rows(_ROLLOUT_MEMORY.replace("        probe(returns)\n", ""), "SC105") == []


def test_a_sum_whose_arguments_are_spread_is_unknown_not_a_crash() -> None:
    """`sum(**parts)`: which argument is the iterable can't be told (a fuzzed file crashed the analysis here)."""
    assert probe("import torch\nparts = {'iterable': [torch.ones(2)]}\nprobe(sum(**parts))\n") == [None]


def test_a_sum_of_a_recurrent_states_rows_a_forward_returns_is_a_tensor() -> None:
    """`h_n[0] + h_n[1]`, a bidirectional GRU's directions summed for the attention query while its outputs keep
    them concatenated: in the caller's run a row of a tensor is a tensor, not a size of its own, so the sum stays
    (B, H) and the bmm against the (B, T, 2H) outputs is reported (checked in torch: "Expected size for first two
    dimensions of batch2 tensor to be: [8, 128] but got: [8, 64]"). Before, `h[0] * 2` read as an int and the
    forward's value was lost."""
    source = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class BahdanauAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W = nn.Linear(hidden, hidden)

    def forward(self, hidden, enc_out):
        scores = torch.bmm(enc_out, self.W(hidden).unsqueeze(2)).squeeze(2)
        return torch.bmm(F.softmax(scores, dim=1).unsqueeze(1), enc_out).squeeze(1)


class Seq2Seq(nn.Module):
    def __init__(self, vocab=100, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.encoder = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.attn = BahdanauAttention(hidden)
        self.out = nn.Linear(3 * hidden, vocab)

    def forward(self, src):
        enc_out, h = self.encoder(self.emb(src))
        hidden = h[0] + h[1]
        return self.out(torch.cat([self.attn(hidden, enc_out), hidden], dim=1))


model = Seq2Seq()
out = model(torch.randint(0, 100, (8, 15)))
'''
    assert codes(source, "SC105") == [(13, "SC105")]
    # the query projected to both directions' width (checked in torch: runs)
    fixed = source.replace("self.W = nn.Linear(hidden, hidden)", "self.W = nn.Linear(hidden, 2 * hidden)")
    assert codes(fixed, "SC105") == []
    # what the run returns: the sum of two rows keeps their shape
    assert probe(source.replace("return self.out(torch.cat([self.attn(hidden, enc_out), hidden], dim=1))",
                                "return h[0] * 2") + "probe(out)\n") == ["(8, 64)"]


def test_a_dict_spread_by_double_star_into_a_model_gives_its_forward_the_entries() -> None:
    """`model(**inputs)`, the keyword arguments of a dict the code states in full (a helper's `dict(...)`, a
    loader's dict samples): its forward is run with them, so a key padding mask built for the text where the image
    regions are the keys is reported (checked in torch: "Expected key_padded_mask.shape[1] to be 36, but got 16").
    Before, a `**` argument left every parameter unknown."""
    source = '''
import torch
import torch.nn as nn


class Fusion(nn.Module):
    def __init__(self, d_img=512, d_txt=256, d=128, heads=4):
        super().__init__()
        self.img = nn.Linear(d_img, d)
        self.txt = nn.Linear(d_txt, d)
        self.cross = nn.MultiheadAttention(d, heads, batch_first=True)

    def forward(self, image_feats, text_feats, text_mask=None):
        q = self.txt(text_feats)
        kv = self.img(image_feats)
        out, _ = self.cross(q, kv, kv, key_padding_mask=text_mask)
        return out.mean(1)


def make_inputs(batch_size, n_regions=36, n_tokens=16):
    return dict(
        image_feats=torch.randn(batch_size, n_regions, 512),
        text_feats=torch.randn(batch_size, n_tokens, 256),
        text_mask=torch.zeros(batch_size, n_tokens, dtype=torch.bool),
    )


model = Fusion()
inputs = make_inputs(4)
emb = model(**inputs)
'''
    assert codes(source, "SC105") == [(16, "SC105")]
    # the mask of the keys, the image regions (checked in torch: runs)
    fixed = source.replace("text_mask", "image_mask").replace("(batch_size, n_tokens, dtype", "(batch_size, n_regions, dtype")
    assert codes(fixed, "SC105") == []
    # a dict of a key the code does not state (`**kwargs` of unknown entries) leaves the parameters unknown
    assert codes(source.replace("inputs = make_inputs(4)", "inputs = make_inputs(4)\ninputs.update(load_extra())"),
                 "SC105") == []


def test_a_loaders_dict_batches_spread_into_a_model_in_a_runner() -> None:
    """HuggingFace-style batches: a `collate_fn` returns a dict, a runner's loop calls `self.model(**inputs)`; the
    causal mask built for the model's `max_len` (20) against sessions cut to 12 items is reported in the run
    (checked in torch: "The shape of the 2D attn_mask is torch.Size([20, 20]), but should be (12, 12).")."""
    source = '''
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SessionClicks(Dataset):
    def __init__(self, n_sessions=48, max_len=20, n_items=300):
        self.items = torch.randint(1, n_items, (n_sessions, max_len))
        self.targets = torch.randint(1, n_items, (n_sessions,))

    def __len__(self):
        return self.items.shape[0]

    def __getitem__(self, i):
        return self.items[i], self.targets[i]


def to_inputs(batch):
    items = torch.stack([b[0] for b in batch])
    return {"item_ids": items, "padding_mask": items == 0, "target": torch.stack([b[1] for b in batch])}


class SASRec(nn.Module):
    def __init__(self, n_items=300, dim=32, heads=2, max_len=20):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim, padding_idx=0)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, heads, dim * 2, batch_first=True), 2)
        self.max_len = max_len

    def forward(self, item_ids, padding_mask, target=None):
        causal = torch.triu(torch.ones(self.max_len, self.max_len, dtype=torch.bool), 1)
        h = self.encoder(self.item_emb(item_ids), mask=causal, src_key_padding_mask=padding_mask)
        scores = h[:, -1] @ self.item_emb.weight.T
        return nn.functional.cross_entropy(scores, target)


class Runner:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader
        self.optim = torch.optim.Adam(model.parameters())

    def fit(self, epochs):
        for _ in range(epochs):
            for inputs in self.loader:
                loss = self.model(**inputs)
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()


Runner(SASRec(), DataLoader(SessionClicks(max_len=12), batch_size=8, collate_fn=to_inputs)).fit(2)
'''
    assert codes(source, "SC105") == [(33, "SC105")]
    # the causal mask of the sessions' own length (checked in torch: runs)
    fixed = source.replace("torch.ones(self.max_len, self.max_len,", "torch.ones(item_ids.size(1), item_ids.size(1),")
    assert codes(fixed, "SC105") == []
