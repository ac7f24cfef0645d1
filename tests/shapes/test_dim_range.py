"""A dim argument past the tensor's known rank raises whatever the sizes: chunk, split, narrow, movedim, transpose,
softmax in method and function form; an unknown rank or a dim the code doesn't state never conflicts."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_dims_past_the_rank_conflict_in_both_forms() -> None:
    assert probe('''
        import torch
        h = torch.randn(8, 20, 192)
        probe_conflict(h.chunk(3, dim=3))
        probe_conflict(torch.split(h, 64, dim=-4))
        probe_conflict(h.narrow(3, 0, 64))
        probe_conflict(torch.movedim(h, 0, 3))
        probe_conflict(h.transpose(2, 3))
        probe_conflict(torch.zeros(5, 7).softmax(dim=2))
    ''') == [
        "`h.chunk(3, dim=3)`: dim 3 is out of range for h, a 3-d tensor (8, 20, 192): dims go from -3 to 2",
        "`torch.split(h, 64, dim=-4)`: dim -4 is out of range for h, a 3-d tensor (8, 20, 192): dims go from -3 "
        "to 2",
        "`h.narrow(3, 0, 64)`: dim 3 is out of range for h, a 3-d tensor (8, 20, 192): dims go from -3 to 2",
        "`torch.movedim(h, 0, 3)`: dim 3 is out of range for h, a 3-d tensor (8, 20, 192): dims go from -3 to 2",
        "`h.transpose(2, 3)`: dim 3 is out of range for h, a 3-d tensor (8, 20, 192): dims go from -3 to 2",
        "`torch.zeros(5, 7).softmax(dim=2)`: dim 2 is out of range for torch.zeros(5, 7), a 2-d tensor (5, 7): "
        "dims go from -2 to 1"]


def test_dims_in_range_or_unknown_never_conflict() -> None:
    assert probe('''
        import torch
        def f(x, d: int):
            h = torch.randn(8, 20, 192)
            probe_conflict(h.chunk(3, dim=-1))
            probe_conflict(h.split([64, 128], dim=2))
            probe_conflict(h.movedim(-1, 0))
            probe_conflict(h.transpose(0, d))
            probe_conflict(x.chunk(3, dim=3))
            probe_conflict(torch.tensor(1.0).softmax(0))
            probe_conflict(h.unsqueeze(3))
            probe_conflict(h.movedim((0, 1), (1, 0)))
    ''') == [None] * 8


def test_a_reduction_over_one_dim_past_the_rank() -> None:
    """`torch.max(labels, 1)` of class-index labels (not one-hot scores) raises; a tuple of dims, or `torch.max` of
    two tensors, is not a dim read here."""
    assert probe('''
        import torch
        labels = torch.randint(0, 10, (64,))
        scores = torch.randn(64, 10)
        probe_conflict(torch.max(labels, 1))
        probe_conflict(labels.argmax(dim=1))
        probe_conflict(scores.topk(5, 2))
        probe_conflict(scores.max(1))
        probe_conflict(torch.max(labels, torch.zeros(64)))
        probe_conflict(scores.sum((0, 1)))
    ''') == ["`torch.max(labels, 1)`: dim 1 is out of range for labels, a 1-d tensor (64,): dims go from -1 to 0",
             "`labels.argmax(dim=1)`: dim 1 is out of range for labels, a 1-d tensor (64,): dims go from -1 to 0",
             "`scores.topk(5, 2)`: dim 2 is out of range for scores, a 2-d tensor (64, 10): dims go from -2 to 1",
             None, None, None]


def test_an_int_index_past_a_literal_size() -> None:
    # a one-layer RNN's h_n is (1, B, H): h_n[1] raises; the last layer (-1), a size the code doesn't pin down, an
    # index after `None` or `...`, or a name as index, are not read
    assert probe('''
        import torch
        import torch.nn as nn
        rnn = nn.GRU(16, 32, batch_first=True)
        _, h_n = rnn(torch.randn(5, 9, 16))
        x = torch.randn(4, 3)
        probe_conflict(h_n[1])
        probe_conflict(x[:, 3])
        probe_conflict(x[-5])
        probe_conflict(h_n[-1])
        probe_conflict(x[None, 7])
        probe_conflict(x[..., 9])


        def pick(t: torch.Tensor):
            return probe_conflict(t[100])
    ''') == [
        "`h_n[1]`: index 1 is out of range for dim 0 of h_n, a (1, 5, 32) tensor, whose size there is 1",
        "`x[:, 3]`: index 3 is out of range for dim 1 of x, a (4, 3) tensor, whose size there is 3",
        "`x[-5]`: index -5 is out of range for dim 0 of x, a (4, 3) tensor, whose size there is 4",
        None, None, None, None]


def test_split_sections_that_do_not_add_up_to_the_dim() -> None:
    # a VAE head's mean and log-variance cut from 2 * latent features, as a literal list or a helper's parameter
    assert probe('''
        import torch
        def split_heads(x, sizes=(16, 16)):
            probe_conflict(torch.split(x, list(sizes), dim=1))
        def f(n, sizes):
            h = torch.randn(8, 32)
            probe_conflict(h.split([16, 32], dim=1))
            probe_conflict(torch.split(h, (16, 16), dim=-1))
            probe_conflict(h.split([16, n], dim=1))
            probe_conflict(h.split(sizes, dim=1))
            probe_conflict(h.split([4, 4], dim=0))
            split_heads(h, (16, 32))
    ''') == [None,
             "`h.split([16, 32], dim=1)`: the sections add up to 48, but h is (8, 32): dim 1 is 32",
             None, None, None, None]
