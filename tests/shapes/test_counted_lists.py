"""How many elements a list holds where the code does not spell them out: the feature maps a `forward` collects
and returns, a corpus encoded by a comprehension, a token list cut and padded by hand to a fixed length."""

from __future__ import annotations

from tests.helpers import lint
from tests.shapes.probe import probe


def codes(source: str, *select: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.code) for f in lint(source, *select).findings]


_DEPTH_NET = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_elu(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1), nn.ELU())


class Encoder(nn.Module):
    def __init__(self, chans=(16, 32, 64)):
        super().__init__()
        self.downs = nn.ModuleList([conv_elu(a, b, 2) for a, b in zip((3,) + chans[:-1], chans)])
        self.num_ch = chans

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
        return skips


class Decoder(nn.Module):
    def __init__(self, enc_ch):
        super().__init__()
        last = len(enc_ch) - 1
        self.ups = nn.ModuleList([conv_elu(enc_ch[i] * (1 if i == last else 2), enc_ch[i - 1])
                                  for i in range(last, 0, -1)])

    def forward(self, feats):
        x = feats[-1]
        for level, up in enumerate(self.ups):
            x = F.interpolate(up(x), scale_factor=2, mode="nearest")
            x = torch.cat([x, feats[len(feats) - 2 - level]], dim=1)
        return x


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder(self.encoder.num_ch)

    def forward(self, image):
        return self.decoder(self.encoder(image))


net = DepthNet()
disp = net(torch.rand(2, 3, HEIGHT, 128))
'''


def test_the_length_of_the_list_a_forward_collects_and_returns() -> None:
    """A depth decoder walks the encoder's feature maps back with `len(feats) - 2 - level`: an odd height (90 ->
    45 -> 23 -> 12) upsamples to 24 against the skip's 23 (checked in torch: "Sizes of tensors must match except in
    dimension 1. Expected size 24 but got size 23"); a height that halves evenly (96) is fine."""
    assert codes(_DEPTH_NET.replace("HEIGHT", "90"), "SC105") == [(36, "SC105")]
    assert codes(_DEPTH_NET.replace("HEIGHT", "96"), "SC105") == []
    assert probe(_DEPTH_NET.replace("HEIGHT", "32") + '''
probe(torch.zeros(len(Encoder()(torch.rand(2, 3, 32, 32)))))
heads = []
for down in Encoder().downs:
    heads.append(down)
probe(torch.zeros(len(heads)))
''') == ["(3,)", "(3,)"]


def test_a_tensor_of_numbers_a_comprehension_of_unstated_length_gives_is_one_dim() -> None:
    """A character-level corpus encoded with a vocabulary built from its own characters: one dim, its length only
    equal to itself; a comprehension whose elements may be rows (`tokenizer(s)`) stays unknown."""
    assert probe('''
        import torch

        def encode(text, tokenizer):
            chars = sorted(set(text))
            stoi = {c: i for i, c in enumerate(chars)}
            probe(torch.tensor([stoi[c] for c in text], dtype=torch.long))
            probe(torch.tensor([len(w) for w in text.split()]))
            probe(torch.tensor([tokenizer(w) for w in text.split()]))
    ''') == ["(len([stoi[c] for c in text]),)", "(len([len(w) for w in text.split()]),)", None]


def test_a_list_cut_and_padded_to_a_fixed_length_holds_that_many() -> None:
    """`ids[:max_len]` then `ids + [0] * (max_len - len(ids))`: exactly `max_len` elements, padded at either end;
    a list not cut first may be longer than `max_len`, so its length is only equal to itself."""
    assert probe('''
        import torch

        MAX_LEN = 6
        text = open("sentence.txt").read()
        ids = [len(w) for w in text.split()][:MAX_LEN]
        padded = ids + [0] * (MAX_LEN - len(ids))
        left = [0] * (MAX_LEN - len(ids)) + ids
        uncut = [len(w) for w in text.split()]
        loose = uncut + [0] * (MAX_LEN - len(uncut))
        probe(torch.tensor([padded]))
        probe(torch.tensor(left))
        probe(torch.tensor(loose))
    ''') == ["(1, 6)", "(6,)", "(len(loose),)"]


def test_a_list_padded_by_a_count_not_known_holds_numbers() -> None:
    """`[0] * (max_len - len(ids)) + ids` with a `max_len` the code does not state: as many numbers as it holds,
    one dim of a length only equal to itself, so a gather given the tensor as its index into (batch, items) scores
    has one dim too few (checked in torch 2.13: "Index tensor must have the same number of dimensions as input
    tensor"); a list of rows repeated stays unknown."""
    assert probe('''
        import torch

        def encode(line, max_len: int):
            ids = [int(token) for token in line.split()]
            probe(torch.tensor([0] * (max_len - len(ids)) + ids))
            probe(torch.tensor([1.5] * max_len + [0] * max_len))
            probe(torch.tensor([[0, 1]] * max_len))
            scores = torch.randn(4, 1000)
            probe_conflict(scores.gather(1, torch.tensor(ids + [0] * max_len)))
    ''') == ["(len([0] * (max_len - len(ids)) + ids),)", "(len([1.5] * max_len + [0] * max_len),)", None,
              "`scores.gather(1, torch.tensor(ids + [0] * max_len))`: scores is (4, 1000) but the index "
              "torch.tensor(ids + [0] * max_len) is (len(ids + [0] * max_len),): the index must have as many dims (2); "
              "unsqueeze it"]


def test_words_hashed_to_ids_are_numbers() -> None:
    """`sum(map(ord, w)) % 500 + 1`, a word hashed to an id, is a number: a list of them cut to `max_len` and padded
    by hand holds exactly `max_len`; `sum` of what is not known to be numbers is not known to be one (a tensor of it
    holds one element of an unknown shape)."""
    assert probe('''
import torch

def encode(text, max_len=40):
    ids = [sum(map(ord, w)) % 500 + 1 for w in text.split()][:max_len]
    ids = ids + [0] * (max_len - len(ids))
    lengths = list(map(len, text.split()))
    return torch.tensor([ids]), torch.tensor(lengths), torch.tensor([sum(rows)])

def run(rows):
    ids, lengths, total = encode("a b c")
    probe(ids)
    probe(lengths)
    probe(total)
''') == ["(1, 40)", "(len(lengths),)", "(1, ...)"]


def test_a_comprehension_over_rows_has_as_many_elements() -> None:
    """One `for`, no `if`, over a tensor's or an array's rows: as many numbers as rows, a symbol or a literal; a
    condition may drop some, so its count is unknown."""
    assert probe('''
        import numpy as np
        import torch
        def f(n: int, feats: np.ndarray):
            x = torch.randn(n, 6)
            probe(torch.tensor([float(row.sum()) for row in x]))
            probe(torch.tensor([float(row.sum()) for row in torch.randn(5, 3)]))
            probe(torch.tensor([float(row.sum()) for row in x if row[0] > 0]))
    ''') == ["(n,)", "(5,)", "(len([float(row.sum()) for row in x if row[0] > 0]),)"]


# a rollout of `n` steps an environment the code is handed answers (its rewards made floats, its values a column
# each), then the returns a second loop makes from the rewards; `%s` is that loop and what the returns are
_RETURNS = '''
import torch


def update(env, n: int, gamma: float):
    rewards, dones, values, other = [], [], [], []
    for _ in range(n):
        obs, reward, done = env.step(0)
        rewards.append(float(reward))
        dones.append(done)
        values.append(torch.zeros(1))
    for _ in range(n):
        other.append(1.0)
    out, running = [], 0.0
%s
    returns = torch.tensor(out)
    return returns - torch.stack(values)
'''


def test_a_list_a_loop_over_another_grows_is_as_long() -> None:
    """A loop over a list a loop grew (backwards, zipped with another grown on the same passes, enumerated, or by
    its indices) takes a pass per element, so what it appends or puts in front one by one is as long; a discounted
    sum a loop carries from float to float is a float, so the returns are one number per step: (n,) against the
    (n, 1) values."""
    for loop in ("""
    for r, d in zip(reversed(rewards), reversed(dones)):
        running = r + gamma * running * (0.0 if d else 1.0)
        out.append(running)
""", """
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        out.insert(0, running)
""", """
    for i, r in enumerate(rewards):
        out.append(r * gamma if i else r)
"""):
        source = _RETURNS % loop
        assert codes(source, "SC104") == [(source.splitlines().index("    return returns - torch.stack(values)") + 1,
                                           "SC104")], loop


def test_a_list_grown_on_other_passes_or_only_on_some_is_not_counted() -> None:
    """Appended under a condition, or in a loop that may stop early: how many there are is not told. (Zipped with a
    list another loop over the same `range(n)` grew, it is counted: each of those loops appends `n`.)"""
    source = _RETURNS % """
    for r, o in zip(rewards, other):
        out.append(r + o)
"""
    assert codes(source, "SC104") == [(source.splitlines().index("    return returns - torch.stack(values)") + 1,
                                       "SC104")]
    for loop in ("""
    for r, d in zip(rewards, dones):
        if not d:
            out.append(r)
""", """
    for r in rewards:
        if r > 100.0:
            break
        out.append(r)
"""):
        assert codes(_RETURNS % loop, "SC104") == [], loop
