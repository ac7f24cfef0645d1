"""SC216 link of stop 45: the views of a sigmoid gate a plain helper of the file returns (`i, f, o =
split_gates(ifo, d)` with `return g[:, :d], g[:, d:2 * d], g[:, 2 * d:]`), one of them masked in place inside a
recurrent cell's step."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

RNN = """
    import torch
    import torch.nn as nn


    def split_gates(gates, hidden_size):
        return gates[:, :hidden_size], gates[:, hidden_size:2 * hidden_size], gates[:, 2 * hidden_size:]


    class MaskedLSTM(nn.Module):
        def __init__(self, input_size, hidden_size):
            super().__init__()
            self.hidden_size = hidden_size
            self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size) * 0.1)
            self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, hidden_size) * 0.1)
            self.bias = nn.Parameter(torch.zeros(4 * hidden_size))

        def step(self, x, h, c, mask):
            pre = x @ self.weight_ih.t() + h @ self.weight_hh.t() + self.bias
            ifo = torch.sigmoid(pre[:, :3 * self.hidden_size])
            g = torch.tanh(pre[:, 3 * self.hidden_size:])
            i, f, o = split_gates(ifo, self.hidden_size)
            f.masked_fill_(~mask[:, None], 1.0)
            c = f * c + i * g
            h = o * torch.tanh(c)
            return h, c

        def forward(self, x, mask):
            b, t, _ = x.shape
            h = x.new_zeros(b, self.hidden_size)
            c = x.new_zeros(b, self.hidden_size)
            outs = []
            for s in range(t):
                h, c = self.step(x[:, s], h, c, mask[:, s])
                outs.append(h)
            return torch.stack(outs, 1)
"""

TRAIN = """
    import torch

    from rnn import MaskedLSTM

    model = MaskedLSTM(5, 8)
    head = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
    x = torch.randn(3, 6, 5)
    mask = torch.rand(3, 6) > 0.3
    y = torch.randn(3, 1)
    for it in range(2):
        out = model(x, mask)
        loss = ((head(out[:, -1]) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(it, loss.item())
"""


def _lint(tmp_path: Path, rnn: str) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"rnn.py": rnn, "train.py": TRAIN}, "SC216")


def test_a_view_a_helper_returns_of_a_sigmoid_gate_masked_in_place(tmp_path: Path) -> None:
    assert _lint(tmp_path, RNN) == [("rnn.py", 23)]


def test_the_out_of_place_mask_is_clean(tmp_path: Path) -> None:
    fixed = RNN.replace("f.masked_fill_(~mask[:, None], 1.0)", "f = f.masked_fill(~mask[:, None], 1.0)")
    assert fixed != RNN
    assert _lint(tmp_path, fixed) == []


def test_a_helper_returning_copies_is_clean(tmp_path: Path) -> None:
    # `g[:, :d].clone()`: the helper hands back copies, which an in-place op leaves the saved gate alone
    copies = RNN.replace("return gates[:, :hidden_size], gates[:, hidden_size:2 * hidden_size], "
                         "gates[:, 2 * hidden_size:]",
                         "return gates[:, :hidden_size].clone(), gates[:, hidden_size:2 * hidden_size].clone(), "
                         "gates[:, 2 * hidden_size:].clone()")
    assert copies != RNN
    assert _lint(tmp_path, copies) == []
