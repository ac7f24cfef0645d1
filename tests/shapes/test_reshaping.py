"""view/reshape/flatten/unflatten/squeeze/unsqueeze/None-indexing/expand/repeat, indexing, cat/stack/split/chunk,
reductions and constructors."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_views_and_reshapes() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B T C"], n_head: int):
            probe(x.view(B := x.size(0), -1))
            probe(x.view(x.size(0), x.size(1), n_head, -1))
            probe(x.reshape(-1, x.size(-1)))
            probe(x.view(x.size()[:-1] + (n_head, x.size(-1) // n_head)))
            probe(x.flatten(1))
            probe(torch.flatten(x))
            probe(x.unflatten(-1, (n_head, -1)))
            probe(x.unsqueeze(1))
            probe(x[:, None])
            probe(x[..., None])
            probe(x.unsqueeze(-1).squeeze(-1))
            probe(torch.zeros(2, 1, 3).squeeze(1))
            probe(x.squeeze())
            probe(x.expand(4, -1, -1, -1))
            probe(x.repeat(2, 1, 3))
            probe(x.view_as(x.flatten(1)))
    ''') == ["(B, C * T)", "(B, T, n_head, C // n_head)", "(B * T, C)", "(B, T, n_head, C // n_head)",
             "(B, C * T)", "(B * C * T,)", "(B, T, n_head, C // n_head)", "(B, 1, T, C)", "(B, 1, T, C)",
             "(B, T, C, 1)", "(B, T, C)", "(2, 3)", None, "(4, B, T, C)", "(2 * B, T, 3 * C)", "(B, C * T)"]


def test_indexing() -> None:
    assert probe('''
        import torch
        x = torch.zeros(8, 5, 4)
        probe(x[0])
        probe(x[:, -1])
        probe(x[2:6])
        probe(x[..., :2])
        probe(x[:, :, None, 1])
        probe(x[idx])
        probe(x[x > 0])
    ''') == ["(5, 4)", "(8, 4)", "(4, 5, 4)", "(8, 5, 2)", "(8, 5, 1)", None, None]


def test_unfold_makes_windows_and_puts_their_elements_last() -> None:
    # ViT-style patches (`img.unfold(2, p, p).unfold(3, p, p)`) and overlapping frames of a signal; the view is
    # strided, so no layout is claimed for it
    assert probe('''
        import torch
        img, wave = torch.randn(2, 3, 16, 16), torch.randn(4, 1000)
        probe(img.unfold(2, 4, 4).unfold(3, 4, 4))
        probe(wave.unfold(-1, 400, 160))
        probe(wave.unfold(dimension=1, size=400, step=160))
        probe_layout(wave.unfold(1, 400, 160))
        probe_conflict(img.unfold(2, 4, 4).unfold(3, 4, 4).reshape(2, -1, 20))
    ''') == ["(2, 3, 4, 4, 4, 4)", "(4, 4, 400)", "(4, 4, 400)", None,
              "`img.unfold(2, 4, 4).unfold(3, 4, 4).reshape(2, -1, 20)`: a (2, 3, 4, 4, 4, 4) tensor has 1536 "
              "elements, which can't be viewed as (2, -1, 20)"]


def test_a_tensor_of_a_list_a_name_holds() -> None:
    """`torch.tensor(labels)` of a list the code states in full, built by appends too; one grown by a loop of
    unknown length stays unknown."""
    assert probe('''
        import torch
        labels = [0, 2, 1, 1]
        grid = [[0.5, 1.0], [2.0, 3.0], [1.0, 1.0]]
        grown = [0, 1]
        grown.append(2)
        def unknown(xs):
            kept = []
            for x in xs:
                kept.append(x)
            probe(torch.tensor(kept))
        probe(torch.tensor(labels).unsqueeze(1))
        probe_dtype(torch.tensor(labels))
        probe(torch.tensor(grid))
        probe(torch.tensor(grown))
    ''') == [None, "(4, 1)", "int", "(3, 2)", "(3,)"]


def test_a_tensor_of_a_comprehension_over_a_stated_list() -> None:
    """One-hot labels written as comprehensions (`[1 if c == label else 0 for c in classes]`) and a literal list of
    names bound to ints have the nesting the lists have."""
    assert probe('''
        import torch
        classes = ["cat", "dog", "bird", "fish"]
        labels = ["dog", "fish", "cat"]
        a, b = 3, 4
        probe(torch.tensor([[1 if c == label else 0 for c in classes] for label in labels]))
        probe_dtype(torch.tensor([c == "dog" for c in classes]))
        probe(torch.tensor([a, b]))
        probe(torch.tensor([torch.randn(2), torch.randn(2)]))
    ''') == ["(3, 4)", "bool", "(2,)", None]


def test_the_legacy_constructors_take_sizes_or_data() -> None:
    """`torch.FloatTensor(2, 3)` is sizes, `torch.Tensor([[1, 2, 3]])` data, `torch.LongTensor(t)` t's data; a
    `torch.Size` or a parameter passed alone (a list or an int?) stays unknown."""
    assert probe('''
        import torch
        from torch import FloatTensor
        x = torch.randn(4, 5)
        n = 7
        def data(values):
            return torch.Tensor(values)
        probe(FloatTensor(2, 3, n).zero_())
        probe(torch.Tensor([[1, 2, 3]]))
        probe(torch.LongTensor((1, 2)))
        probe(torch.LongTensor(x))
        probe_dtype(torch.LongTensor(x))
        probe(torch.Tensor(n))
        probe(data([0.5, 1.0]))
        probe(torch.Tensor(x.size()))
        def unknown(v):
            probe(torch.Tensor(v))
    ''') == ["(2, 3, 7)", "(1, 3)", "(2,)", "(4, 5)", "int", "(7,)", "(2,)", None, "(...)"]


def test_an_arange_of_a_bound_the_code_makes_a_float_is_not_an_integer_range() -> None:
    """jayroxis/PINNs' Burgers grid `torch.arange(-1, 1 + self.h, self.h)` with `self.h = 0.1` is float32; its
    bounds were read as ints because they are not float literals, and `self.X.requires_grad = True` on the
    stacked grid was reported (SC204, wrong). A bound bound to a float, or arithmetic with one, makes the range not
    an integer one; ints the code states and a parameter it says nothing of (what nearly every caller passes, and
    what an `nn.Embedding(max_len, ...)` beside it needs) still make an integer range."""
    assert probe('''
        import torch
        class Net:
            def __init__(self, x, n, d: int):
                self.h = 0.1
                k = 4
                probe_dtype(torch.arange(-1, 1 + self.h, self.h))
                probe_dtype(torch.arange(0, 1, self.h))
                probe_dtype(torch.arange(x.size(0)))
                probe_dtype(torch.arange(2, d))
                probe_dtype(torch.arange(k, 2 * k))
                probe_dtype(torch.arange(n))
                probe_dtype(torch.arange(n / 2))
    ''') == [None, None, "int", "int", "int", "int", None]


def test_a_legacy_constructor_takes_one_value_as_a_size_only_where_the_code_states_an_int() -> None:
    """Person_reID's `torch.FloatTensor(result['gallery_f'])` of `scipy.io.loadmat(...)` copies a 2-D feature
    matrix, and was read as a 1-D tensor of that many elements (an SC105 on its `torch.mm`, wrong): a value read
    from a file or a config (`mat[...]`, `torch.load(...)[...]`, `cfg['n']`) may be an array as well as a size, so
    the tensor is unknown. One the code states is an int (`len(rows)`, `x.size(0)`, an `int` parameter) is a
    size."""
    assert probe('''
        import scipy.io
        import torch
        result = scipy.io.loadmat("pytorch_result.mat")
        probe(torch.FloatTensor(result["gallery_f"]))
        def load(path, cfg, rows, x, k: int):
            data = torch.load(path)
            n = cfg["n"]
            probe(torch.FloatTensor(data["feats"]))
            probe(torch.FloatTensor(n))
            b = x.size(0)
            probe(torch.FloatTensor(len(rows)))
            probe(torch.FloatTensor(b))
            probe(torch.IntTensor(k).zero_())
    ''') == [None, None, None, "(len(rows),)", "(b,)", "(k,)"]


def test_unpacking_a_tensor_gives_its_rows() -> None:
    """`q, k, v = qkv` of a (3, ...) tensor (timm's attention before `unbind`), in a function or a module."""
    assert probe('''
        import torch
        x = torch.randn(3, 11, 192)
        q, k, v = x.view(3, 11, 3, 8, 8).permute(2, 0, 3, 1, 4)
        probe(q)
        def attention(B: int, T: int):
            qkv = torch.randn(B, T, 3, 4, 16).permute(2, 0, 3, 1, 4)
            q, k, v = qkv
            probe(k)
        c, d = torch.randn(3, 5)
        probe(c)
    ''') == ["(3, 8, 11, 8)", "(B, 4, T, 16)", None]


def test_a_window_slice_holds_at_most_its_width() -> None:
    """`data[i:i + block_size]` has block_size entries but fewer at the end of the data: its length is a size of
    its own, named by the width, and only proven different from a literal above the width."""
    assert probe('''
        import torch
        block_size = 8
        data = torch.randint(0, 65, (500,))
        def window(i):
            probe(data[i + 1:i + block_size + 1])
            probe_conflict(torch.randn(4, 65) @ data[i:i + block_size].float())
            probe_conflict(torch.randn(4, 8) @ data[i:i + block_size].float())
            probe_conflict(torch.randn(4, 4) @ data[i:i + block_size].float())
    ''') == ["(block_size,)", "inner dims differ: torch.randn(4, 65) is (4, 65), data[i:i + block_size].float() is "
               "(block_size,)", None, None]


def test_a_window_at_an_index_drawn_below_the_last_start_holds_its_width() -> None:
    """nanoGPT's `get_batch`: starts drawn with `torch.randint(len(data) - block_size, ...)` keep every window (and
    its target, shifted by one) inside the data, so each is exactly `block_size` long, also where the data's length
    is a size of its own (a corpus encoded by a comprehension): a width of 31 differs. Starts drawn below the whole
    length may run off the end: that window holds at most `block_size`, maybe 31."""
    assert probe('''
        import torch
        text = open("input.txt").read()
        stoi = {c: i for i, c in enumerate(sorted(set(text)))}
        data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
        block_size, batch_size = 32, 4
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([data[i:i + block_size] for i in ix])
        y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
        loose = torch.randint(len(data), (batch_size,))
        z = torch.stack([data[i:i + block_size] for i in loose])
        probe_conflict(x.float() @ torch.randn(31, 2))
        probe_conflict(y.float() @ torch.randn(31, 2))
        probe_conflict(z.float() @ torch.randn(31, 2))
    ''') == ["inner dims differ: x.float() is (4, 32), torch.randn(31, 2) is (31, 2)",
               "inner dims differ: y.float() is (4, 32), torch.randn(31, 2) is (31, 2)", None]


def test_a_literal_slice_of_a_size_proven_long_enough_is_exact() -> None:
    """Teacher forcing: `x[:, :-1]` and `x[:, 1:]` of `seq_len + 1` steps are both `seq_len`. A size that may be
    shorter than the bounds (`T`, `seq_len + 1` for `1:-1`) or a slice whose length depends on it (`-2:1`) stays
    unknown, named with its size parenthesized."""
    assert probe('''
        import torch
        def f(n: int, seq_len: int, T: int):
            x = torch.randint(0, 128, (n, seq_len + 1))
            probe(x[:, :-1])
            probe(x[:, 1:])
            probe(x[:, -1:])
            probe(x[:, 1:-1])
            y = torch.zeros(T, 2 * n + 3)
            probe(y[1:, :2])
            probe(y[:, 1:-2])
            probe(y[:, -2:1])
    ''') == ["(n, seq_len)", "(n, seq_len)", "(n, 1)", "(n, (seq_len + 1)[1:-1])", "(T[1:], 2)", "(T, 2 * n)",
               "(T, (2 * n + 3)[-2:1])"]


def test_a_slice_between_sizes_proven_in_order_is_exact() -> None:
    """`[:d]` and `[d:]` of `2 * d` are `d` each (the halves of a gated unit, the two directions of a bidirectional
    RNN); `[d:2 * d]` of `3 * d` too. A bound that may pass the size (`[:d]` of `n`, `[2 * d:]` of `d + 1`) or
    come before the start (`[d:n]`) is a length of its own."""
    assert probe('''
        import torch
        def f(b: int, d: int, n: int):
            h = torch.randn(b, 2 * d)
            probe(h[:, :d])
            probe(h[:, d:])
            probe(torch.randn(3 * d, b)[d:2 * d])
            probe(torch.randn(b, n)[:, :d])
            probe(torch.randn(b, d + 1)[:, 2 * d:])
            probe(torch.randn(b, 2 * n)[:, d:n])
    ''') == ["(b, d)", "(b, d)", "(d, b)", "(b, n[:d])", "(b, (d + 1)[2 * d:])", "(b, (2 * n)[d:n])"]


def test_slices_that_keep_as_much_of_an_unknown_size_are_one_size() -> None:
    """`[:-1]` and `[1:]` of a length T not known both keep max(0, T - 1): teacher forcing's inputs and targets are
    as long, and as long as another tensor's slice of T; `[1:-1]` and `[2:]`, `[:2]` and `[:2]` of one size are;
    `[:2]` against `[-2:]` or `[1:]` against `[:1]` of T are not proven to be."""
    assert probe('''
        import torch
        from jaxtyping import Int
        def f(tokens: Int[torch.Tensor, "B T"], mask: Int[torch.Tensor, "B T"]):
            probe(tokens[:, :-1] + tokens[:, 1:])
            probe(tokens[:, 1:] * mask[:, :-1])
            probe(tokens[:, 1:-1] - tokens[:, 2:])
            probe(tokens[:, :2] - mask[:, :2])
            probe(tokens[:, :2] - tokens[:, -2:])
            probe(tokens[:, 1:] - tokens[:, :1])
    ''') == ["(B, T[:-1])", "(B, T[1:])", "(B, T[1:-1])", "(B, T[:2])", "(B, T[:2]|T[-2:])", "(B, T[1:]|T[:1])"]


def test_index_tensors_broadcast_together_not_one_dim_each() -> None:
    # torch: a[rows, cols] is the broadcast of the two index shapes, (4,) here, never (4, 4); an int next to one
    # index tensor is basic indexing (`a[0, :, idx]` is (4, 2) where numpy gives (2, 4))
    assert probe('''
        import torch
        a = torch.zeros(3, 4, 5)
        rows, cols = torch.tensor([1, 2, 0, 1]), torch.tensor([3, 1, 2, 2])
        probe(a[rows, cols])
        probe(a[rows, :, cols])
        probe(a[0, :, torch.tensor([0, 1])])
        probe(a[rows])
    ''') == [None, None, "(4, 2)", "(4, 4, 5)"]


def test_joining_and_splitting() -> None:
    assert probe('''
        import torch
        a, b = torch.zeros(2, 3), torch.zeros(4, 3)
        probe(torch.cat([a, b]))
        probe(torch.cat((a, a), dim=-1))
        probe(torch.stack([a, a, a], dim=1))
        q, k, v = torch.zeros(2, 9).chunk(3, dim=-1)
        probe(k)
        h, t = torch.zeros(10, 3).split([7, 3])
        probe(t)
        parts = torch.zeros(10, 3).split(4)
        probe(parts[2])
        first, second = torch.zeros(2, 5).unbind(0)
        probe(second)
    ''') == ["(6, 3)", "(2, 6)", "(2, 3, 3)", "(2, 3)", "(3, 3)", "(2, 3)", "(5,)"]


def test_reductions() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B T D"]):
            probe(x.sum())
            probe(x.sum(dim=-1))
            probe(x.mean(1, keepdim=True))
            probe(x.sum((0, 2)))
            probe(x.max(dim=-1).values)
            probe(x.max(-1)[1])
            probe_dtype(x.max(-1)[1])
            probe(x.argmax(-1))
            probe(x.norm(dim=-1))
            probe(x.norm(2, -1, True))
            probe(x.std(0))
            probe(torch.softmax(x, dim=-1))
            probe(x.max())
            probe(torch.max(x, x))
            values, indices = x.topk(5, dim=-1)
            probe(indices)
            probe(x.sum(dim))
    ''') == ["()", "(B, T)", "(B, 1, D)", "(T,)", "(B, T)", "(B, T)", "int", "(B, T)", "(B, T)", "(B, T, 1)",
             "(T, D)", "(B, T, D)", "()", "(B, T, D)", "(B, T, 5)", None]


def test_the_dims_of_a_reduction_held_in_a_name_or_an_attribute() -> None:
    # a Dice loss names the axes it sums once and reduces two tensors over them; a tuple of unknown ints says nothing
    assert probe('''
        import torch
        import torch.nn as nn
        from jaxtyping import Float

        class Dice(nn.Module):
            def __init__(self, axes=(0, 2, 3)):
                super().__init__()
                self.axes = axes

            def forward(self, probs, onehot):
                return torch.sum(probs * onehot, self.axes)

        def f(probs: Float[torch.Tensor, "B C H W"], onehot: Float[torch.Tensor, "B C H W"], axes):
            dims = (0, 2, 3)
            probe(torch.sum(probs * onehot, dims))
            probe(probs.mean(dims, keepdim=True))
            probe(probs.sum(axes))
            probe(Dice()(probs, onehot))
    ''') == ["(C,)", "(1, C, 1, 1)", None, "(C,)"]


def test_constructors() -> None:
    assert probe('''
        import torch
        def f(x, n):
            B, T = x.shape
            probe(torch.randn(B, T, 4))
            probe(torch.zeros((B, T)))
            probe(torch.ones(x.shape))
            probe(torch.empty(size=(3, n)))
            probe(torch.full((2, 2), 7))
            probe_dtype(torch.full((2, 2), 7))
            probe(torch.randint(0, 10, (B, T)))
            probe_dtype(torch.randint(10, (B,)))
            probe(torch.arange(T))
            probe(torch.arange(2, n))
            probe(torch.arange(0, 10, 2))
            probe(torch.eye(3))
            probe(torch.zeros_like(x))
            probe(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
            probe_dtype(torch.tensor([1, 2]))
            probe(x.new_zeros(B, 1))
            probe(torch.linspace(0, 1, steps=50))
            probe(torch.zeros(*shape))
    ''') == ["(B, T, 4)", "(B, T)", "(B, T)", "(3, n)", "(2, 2)", "int", "(B, T)", "int", "(T,)", "(n - 2,)",
             "(5,)", "(3, 3)", "(B, T)", "(3, 2)", "int", "(B, 1)", "(50,)", None]


def test_starred_sizes_spread_a_sequence_of_known_length() -> None:
    assert probe('''
        import torch
        IMAGE = (3, 32, 32)
        def f(batch: int, x):
            probe(torch.zeros(batch, *IMAGE))
            probe(torch.ones(*IMAGE, 2))
            probe(torch.randn(4, *IMAGE).view(4, *IMAGE[1:], 3))
            probe(torch.empty(2, *x.shape))
            probe(torch.empty(2, *x))
            probe(torch.randn(4, 3, 8).permute(*IMAGE))
    ''') == ["(batch, 3, 32, 32)", "(3, 32, 32, 2)", "(4, 32, 32, 3)", None, None, None]


def test_a_view_with_two_inferred_sizes_always_raises() -> None:
    assert probe('''
        import torch
        def f(x, n: int):
            probe_conflict(x.reshape(n, -1, -1))
            probe_conflict(torch.randn(4, 6).view(-1, -1))
            probe_conflict(x.reshape(n, -1))
            probe_conflict(x.view(-1, *x.shape[2:]))
            probe(torch.randn(4, 6).view(-1, -1))
            probe_conflict(torch.nn.Linear(16, 4)(torch.randn(4, 16).view(-1, -1)))
    ''') == ["`x.reshape(n, -1, -1)`: only one size can be -1 (inferred), but (n, -1, -1) has 2",
             "`torch.randn(4, 6).view(-1, -1)`: only one size can be -1 (inferred), but (-1, -1) has 2", None, None,
             # what it would give is unknown: no "-1 features" for the layer after it
             "(...)", None]


def test_lists_of_tensors_built_by_comprehensions_loops_and_functions_are_joined() -> None:
    assert probe('''
        import torch
        LENGTHS = (100, 100, 80)
        def clips():
            return [torch.randn(n, 40) for n in LENGTHS]
        def pooled(width: int, depth: int):
            features = []
            for channels in (32, 64):
                features.append(torch.randn(4, channels))
            probe_conflict(torch.stack(features, dim=1))
            probe(torch.cat(features, dim=1))
            same = [torch.randn(4, width) for _ in range(depth)]
            probe(torch.stack(same, dim=1))
            probe(torch.cat(same))
        probe_conflict(torch.stack(clips()))
        probe(torch.cat(clips()))
        probe(torch.stack([torch.randn(3, n) for n in (5, 5)]))
    ''') == ["stack needs every dim equal: (4, 32), (4, 64)", "(4, 96)", "(4, n, width)", "(n * 4, width)",
             "stack needs every dim equal: (100, 40), (100, 40), (80, 40)", "(280, 40)", "(2, 3, 5)"]


def test_meshgrid_gives_one_grid_per_input() -> None:
    assert probe('''
        import torch
        def f(h: int, w: int, coords, indexing):
            yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            probe(yy)
            probe(xx)
            gx, gy = torch.meshgrid([torch.linspace(0, 1, w), torch.linspace(0, 1, h)], indexing="xy")
            probe(gx)
            grids = torch.meshgrid(torch.arange(4), torch.arange(6), torch.arange(2))
            probe(grids[2])
            a, b = torch.meshgrid(torch.arange(h), torch.arange(w), indexing=indexing)
            probe(a)
            c, d = torch.meshgrid(*coords)
            probe(c)
            e, g = torch.meshgrid(torch.zeros(h, w), torch.arange(w))
            probe(e)
    ''') == ["(h, w)", "(h, w)", "(h, w)", "(4, 6, 2)", None, None, None]


def test_a_parameter_annotated_int_is_one_size() -> None:
    assert probe('''
        import torch
        def simulate(n: int, shape, size: "int", m: int = 3):
            probe(torch.randn(n))
            probe(torch.zeros(m))
            probe(torch.ones(shape))
            probe(torch.rand(size))
    ''') == ["(n,)", "(m,)", None, None]


def test_a_tensor_of_a_list_of_known_count_and_unknown_elements() -> None:
    """Class weights from label counts, in the call that states the count: as many along dim 0 as the list has
    elements, the rest unknown (a range of a bare parameter has no count); a 0-d reduction of it broadcasts back
    to that. The rotation's `.t()` stays unknown: nothing stated says it is not 1-d, which `.t()` keeps as it is."""
    assert probe('''
        import torch
        from collections import Counter
        def class_weights(labels, num_classes: int):
            counts = Counter(labels)
            freq = torch.tensor([counts.get(c, 1) for c in range(num_classes)], dtype=torch.float)
            probe(freq)
            return freq.sum() / (num_classes * freq)
        probe(class_weights(load_labels(), 3))
        probe(torch.tensor([torch.randn(2), torch.randn(2)]))
        probe(torch.tensor(load_labels()))
        angle = torch.tensor([1.2])
        rotation = torch.tensor([[torch.cos(angle), -torch.sin(angle)], [torch.sin(angle), torch.cos(angle)]])
        probe(rotation.t())
    ''') == [None, "(3, ...)", None, None, None]


def test_an_index_tensor_of_more_dims_puts_them_where_the_indexed_dim_was() -> None:
    """`table[ids]` with (B, K) ids gathers (B, K, D) rows, `x[:, idx]` puts idx's dims at dim 1, and an int
    beside it (`x[0, idx]`, `x[:, idx, 0]`) or apart from it (`x[0, :, idx]`: torch takes the int as basic indexing)
    takes its dim away; a float or a boolean index, or two index tensors (they broadcast
    together), stay unknown."""
    assert probe('''
        import torch
        def f(B: int, K: int):
            table = torch.randn(100, 16)
            ids = torch.randint(0, 100, (B, K))
            probe(table[ids])
            probe(table[:, torch.randint(0, 16, (2, 3))])
            probe(table[ids > 3])
            probe(table[ids, ids])
            probe(table[ids.float()])
            cube = torch.randn(5, 6, 7)
            probe(cube[0, ids])
            probe(cube[:, ids, 0])
            probe(cube[0, :, ids])
    ''') == ["(B, K, 16)", "(100, 2, 3)", None, None, None, "(B, K, 7)", "(5, B, K)", "(6, B, K)"]
