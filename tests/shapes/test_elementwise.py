"""Broadcasting elementwise ops: operators, methods, torch functions, activations, comparisons."""

from __future__ import annotations

import textwrap

from shapecheck.shapes.broadcast import broadcast
from shapecheck.objects.dims import Dim
from shapecheck.shapes.shape import Shape
from tests.helpers import codes_of, lint
from tests.shapes.probe import probe

N = Dim.symbol("N", "N")


def test_broadcast_aligns_from_the_right() -> None:
    assert broadcast(Shape.of(3, 1, 4), Shape.of(2, 4)).shape.render() == "(3, 2, 4)"
    assert broadcast(Shape.of(3, 4), Shape.of(3)).mismatch == (1, Dim.of(4), Dim.of(3))
    assert broadcast(Shape.of(3, 4), Shape.of(3)).shape is None
    leading = Shape((Dim.of(3),), 1)  # (3, ...)
    assert broadcast(Shape.of(), leading).shape.render() == "(3, ...)"
    assert broadcast(leading, Shape.of()).shape.render() == "(3, ...)"
    assert broadcast(Shape.of(5), leading).shape.render() == "(..., 5)"


def test_broadcast_reports_stretches() -> None:
    result = broadcast(Shape.of(N, 1), Shape.of(N))
    assert result.shape.render() == "(N, N)"
    assert [(s.position, s.operand, str(s.size), s.missing) for s in result.stretched] == [
        (0, 1, "N", True), (1, 0, "N", False)]


def test_a_broadcast_of_two_sizes_spelled_alike_prints_the_name_once() -> None:
    # distilbert's `bs` of `forward` against the `bs` a nested `unshape` read: "bs|bs|bs" in the message before
    caller, nested, other = Dim.symbol("forward.bs", "bs"), Dim.symbol("unshape.bs", "bs"), Dim.symbol("T", "T")
    assert broadcast(Shape.of(caller, 4), Shape.of(nested, 4)).shape.render() == "(bs, 4)"
    assert broadcast(Shape.of(caller), Shape.of(other)).shape.render() == "(bs|T,)"


def test_operators_and_functions() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B T D"], b: Float[torch.Tensor, "D"], m: Float[torch.Tensor, "B 1 1"]):
            probe(x + b)
            probe(x * 2.0 - 1)
            probe(m * x)
            probe(F.relu(x))
            probe(torch.sigmoid(x).exp())
            probe(x.softmax(-1))
            probe(-x)
            probe(x > 0)
            probe_dtype(x > 0)
            probe(torch.where(x > 0, x, 0.0))
            probe(x.masked_fill(m > 0, 0.0))
            probe(x.float().to(torch.float16).detach().contiguous())
            probe_dtype(x.long())
    ''') == ["(B, T, D)"] * 3 + ["(B, T, D)"] * 5 + ["bool", "(B, T, D)", "(B, T, D)", "(B, T, D)", "int"]


def test_operand_of_unknown_shape_gives_unknown() -> None:
    assert probe('''
        import torch
        def f(x, scale):
            y = torch.zeros(3, 4)
            probe(y * scale)
            probe(y * 2)
    ''') == ["(..., 3, 4)", "(3, 4)"]  # scale may be a number or a tensor of any rank


def test_method_forms_broadcast_their_argument_like_the_operators() -> None:
    assert probe('''
        import torch
        x = torch.linspace(0, 1, 500)
        degrees = torch.arange(4)
        probe(x.unsqueeze(-1).pow(degrees))
        probe(torch.pow(x.unsqueeze(-1), degrees))
        probe(x.unsqueeze(-1).mul(torch.ones(1, 7)))
        probe(x.pow(2))
        probe_conflict(x.pow(degrees))
        probe_conflict(x.add(degrees))
        probe_conflict(x.unsqueeze(-1).sub(degrees))
    ''') == ["(500, 4)", "(500, 4)", "(500, 7)", "(500,)",
             "`x.pow(degrees)`: x is (500,) and degrees is (4,): 500 and 4 don't broadcast",
             "`x.add(degrees)`: x is (500,) and degrees is (4,): 500 and 4 don't broadcast", None]



def test_a_runs_number_parameters_are_numbers() -> None:
    """Inside a call that is run, a parameter bound to an int or float is a number, not a tensor of unknown rank;
    so is an element of a shape."""
    assert probe('''
        import torch
        def frequencies(dim, base=10000.0):
            return 1.0 / base ** (torch.arange(0, dim, 2).float() / dim)
        probe(frequencies(64))
        x = torch.randn(3, 5)
        probe(x * x.shape[0])
    ''') == ["(32,)", "(3, 5)"]


def test_an_int_parameter_and_an_attribute_assigned_numbers_are_numbers() -> None:
    """`self.scaling = self.head_dim ** -0.5` (fairseq's attention) is a number wherever each assignment of the class
    makes one: `q * self.scaling` keeps q's shape; a parameter with no type may broadcast; an attribute a branch
    makes a number and another a tensor (`self.scale`, a Parameter only `if learned:`) is either, so the product's
    shape is unknown (since flow.reach weighs the branches of `__init__`: it was the tensor branch's)."""
    assert probe('''
        import torch
        from torch import nn
        class Attention(nn.Module):
            def __init__(self, embed_dim: int, num_heads: int, temperature, learned=False):
                super().__init__()
                self.head_dim = embed_dim // num_heads
                self.scaling = self.head_dim ** -0.5
                self.temperature = temperature
                self.scale = float(num_heads) ** -0.5
                if learned:
                    self.scale = nn.Parameter(torch.ones(1, num_heads, 1, 1))
            def forward(self, x, n: int):
                q = torch.randn(2, 4, 8)
                probe(q * self.scaling)
                probe(q * self.head_dim)
                probe(q * n)
                probe(q * self.temperature)
                probe(q * self.scale)
    ''') == ["(2, 4, 8)", "(2, 4, 8)", "(2, 4, 8)", "(..., 2, 4, 8)", None]


def test_an_attribute_counted_up_through_min_ends() -> None:
    """A prioritized replay buffer counts `self.size = min(self.size + 1, self.capacity)` and hands `self.size` to a
    helper that scales by it: the read of `self.size` recurses through `min(...)`'s arguments, which carry the
    attribute depth on, so it ends, unknown (it recursed without bound and SC104 crashed)."""
    source = '''
        import torch
        class Weights:
            def batch(self, count, beta):
                w = torch.zeros(4)
                for i in range(4):
                    w[i] = (count * 0.5) ** (-beta)
                return w
        class Buffer:
            def __init__(self, capacity: int):
                self.capacity = capacity
                self.size = 0
                self.weights = Weights()
            def add(self):
                self.size = min(self.size + 1, self.capacity)
            def sample(self):
                return self.weights.batch(count=self.size, beta=0.4)
    '''
    assert codes_of(lint(textwrap.dedent(source), "SC104")) == []


def test_a_number_a_container_holds_is_a_number() -> None:
    """`cfg["lr"]` of a dict of stated numbers is a number; an element the code does not state may be a tensor."""
    assert probe('''
        import torch
        cfg = {"scale": 0.5, "n": 3, "weights": torch.ones(4, 1, 1)}
        x = torch.randn(2, 3)
        probe(x * cfg["scale"])
        probe(x * cfg["n"])
        probe(x * cfg["weights"])
        def scaled(settings):
            return x * settings["scale"]
        probe(scaled(load_settings()))
    ''') == ["(2, 3)", "(2, 3)", "(4, 2, 3)", "(...)"]


def test_a_runs_computed_numbers_are_numbers() -> None:
    """Inside a call that is run, `float(t)`, `math.*(...)`, `t.item()` and one random draw (`np.random.beta(a, a)`
    without `size`, `random.random()`) are Python numbers (a mixup coefficient); what another function returns, or
    a draw of many, may be an array."""
    assert probe('''
        import math
        import random
        import numpy as np
        import torch
        import augment
        def mix(x, alpha, draw):
            lam = float(torch.distributions.Beta(alpha, alpha).sample())
            scale = math.sqrt(alpha)
            noise = torch.rand(()).item()
            other = draw(alpha)
            return lam * x + (1 - lam) * x.flip(0), scale * x, x * noise, other * x
        a, b, c, d = mix(torch.randn(8, 3), 0.2, lambda a: augment.draw(a))
        probe(a)
        probe(b)
        probe(c)
        probe(d)
        *_, d = mix(torch.randn(8, 3), 0.2, lambda a: a)  # a lambda runs: it returns the number it is given
        probe(d)
        def drawn(x, alpha):
            lam = np.random.beta(alpha, alpha) if alpha > 0 else 1.0
            return lam * x, random.random() * x, np.random.normal(0.0, 1.0, 3) * x, np.random.beta(1, 1, size=8) * x
        e, f, g, h = drawn(torch.randn(8, 3), 1.0)
        probe(e)
        probe(f)
        probe(g)
        probe(h)
    ''') == ["(8, 3)", "(8, 3)", "(8, 3)", "(..., 8, 3)", "(8, 3)", "(8, 3)", "(8, 3)", None, None]


def test_elementwise_tests_give_booleans_of_the_input_shape() -> None:
    assert probe('''
        import torch
        x = torch.randn(16, 1)
        probe(torch.isnan(x))
        probe(torch.isfinite(x).logical_not())
        probe(x.isposinf())
        probe(torch.signbit(x.sum()))
    ''') == ["(16, 1)", "(16, 1)", "(16, 1)", "()"]


def test_lookups_in_a_second_tensor_keep_the_looked_up_shape() -> None:
    assert probe('''
        import torch
        ages = torch.rand(32, 7) * 90
        edges = torch.tensor([18.0, 30.0, 45.0, 65.0])
        probe(torch.bucketize(ages, edges, right=True))
        probe(torch.bucketize(input=ages[:, 0], boundaries=edges))
        probe(torch.isin(torch.randint(0, 10, (4, 5)), torch.tensor([0, 3])))
    ''') == ["(32, 7)", "(32,)", "(4, 5)"]


def test_an_in_place_op_broadcasts_its_operands() -> None:
    # `out += residual` raises where `out + residual` does; `+=` on lists or numbers is no tensor op
    result = lint('''
import torch
out, residual = torch.randn(2, 512, 8, 8), torch.randn(2, 256, 8, 8)
out += residual
out -= torch.randn(512, 1, 1)
names, total = ["a"], 0
names += ["b"]
total += out.sum().item()
''', "SC105")
    assert [(f.location.row, f.message) for f in result.findings] == [
        (4, "`out += residual`: out is (2, 512, 8, 8) and residual is (2, 256, 8, 8): 512 and 256 don't broadcast")]


def test_type_as_takes_the_other_dtype_even_unknown() -> None:
    # `torch.zeros(1, 1).type_as(src.data)` in a greedy decoder holds token ids: never float unless `src` is
    assert probe('''
        import torch
        def decode(batch):
            src = batch.src
            probe_dtype(torch.zeros(1, 1).type_as(src.data))
            probe_dtype(torch.zeros(1, 1).type_as(torch.zeros(2, dtype=torch.long)))
            probe_dtype(torch.zeros(1, 1).to("cuda"))
    ''') == [None, "int", "float"]


def test_an_index_tensor_stays_integer_through_integer_arithmetic_only() -> None:
    # a heatmap decoder's `flat_idx % w` and `flat_idx // w` are int64; a Python float (`idx * STRIDE`, STRIDE = 4.0)
    # makes the result float, and a number the code does not state may be either
    assert probe('''
        import torch
        STRIDE = 4.0
        def decode(heatmaps, scale):
            b, k, h, w = heatmaps.shape
            _, idx = torch.max(heatmaps.view(b, k, -1), dim=-1)
            probe_dtype(torch.stack([idx % w, idx // w], dim=-1))
            probe_dtype(idx * 2 - 1)
            probe_dtype(idx * STRIDE)
            probe_dtype(idx + 0.5)
            probe_dtype(idx / w)
            probe_dtype(idx * scale)
            probe_dtype((heatmaps > 0) * 2)
    ''') == ["int", "int", None, "float", "float", None, "int"]


def test_a_parameter_annotated_int_is_a_number_in_a_run() -> None:
    """`n_classes * counts` in a helper whose `n_classes: int` the caller gives a size it names: a number times the
    counts, which keep their (n_classes,); the helper's own parameter says so whatever the call hands it."""
    assert probe('''
import torch

def inverse_frequency(labels, n_classes: int):
    counts = torch.zeros(n_classes)
    for y in labels:
        counts[y] += 1
    return counts.sum() / (n_classes * counts.clamp(min=1))

def build(labels, classes: int):
    probe(inverse_frequency(labels, classes))

build([0, 1, 1], 3)
''') == ["(classes,)"]


def test_an_int_a_loop_or_a_draw_makes_is_a_number() -> None:
    """`label = i % n_keywords` of a loop over `range` is an int, and so is a clip length drawn at random (`frames =
    int(torch.randint(50, 70, (1,)))`) in a run of the function that builds the clips: a tone scaled by both keeps
    the shape of its time steps."""
    assert probe('''
import math
import torch

def make_clips(n_clips: int, n_keywords: int):
    clips = []
    for i in range(n_clips):
        label = i % n_keywords
        probe(torch.arange(8) * (label + 1))
        frames = int(torch.randint(50, 70, (1,)))
        t = torch.arange(frames, dtype=torch.float32)
        clips.append(torch.sin(2 * math.pi * (label + 1) * t / frames))
    return clips

probe(make_clips(3, 2)[1])
''') == ["(8,)", "(torch.randint(50, 70, (1,)) per item,)"]


def test_a_table_cut_to_a_length_and_added_keeps_that_length() -> None:
    """`pe[:, :x.size(1)]` is never longer than `x.size(1)`: added to `x` it broadcasts only where it is as long (or
    1), so the sum keeps `x`'s length, not a size that is one of the two; a cut to another length, or one that
    may be negative (`:n - 1`), is not told."""
    assert probe('''
import torch
def f(n: int, m: int):
    x = torch.randn(8, n, 64)
    pe = torch.zeros(1, 512, 64)
    probe(x + pe[:, :x.size(1)])
    probe(pe[:, :n] + x)
    probe(x + pe[:, :m])
    probe(x + pe[:, :n - 1])
''') == ["(8, n, 64)", "(8, n, 64)", "(8, n|(512)[:m], 64)", "(8, n|(512)[:n - 1], 64)"]
