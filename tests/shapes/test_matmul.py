"""Matrix products and their conflicts."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_matmul_shapes() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float
        def f(h: Float[torch.Tensor, "B T D"], w: Float[torch.Tensor, "D V"], v: Float[torch.Tensor, "D"],
              a: Float[torch.Tensor, "B n k"], b: Float[torch.Tensor, "B k m"]):
            probe(h @ w)
            probe(torch.matmul(h, v))
            probe(v @ w)
            probe(torch.bmm(a, b))
            probe(a.matmul(b))
            probe(torch.einsum("bnk,bkm->bmn", a, b))
    ''') == ["(B, T, V)", "(B, T)", "(V,)", "(B, n, m)", "(B, n, m)", "(B, m, n)"]


def test_matmul_conflicts() -> None:
    assert probe('''
        import torch
        from jaxtyping import Float
        def f(h: Float[torch.Tensor, "B T D"], w: Float[torch.Tensor, "V D"], x, y):
            probe_conflict(h @ w)
            probe_conflict(h @ w.T)
            probe_conflict(torch.randn(3, 4) @ torch.randn(3, 4))
            probe_conflict(torch.mm(torch.randn(3, 4), torch.randn(4, 2)))
            probe_conflict(x @ y)
    ''') == ["inner dims differ: h is (B, T, D), w is (V, D); did you mean `w.T`?", None,
             "inner dims differ: torch.randn(3, 4) is (3, 4), torch.randn(3, 4) is (3, 4); did you mean "
             "`torch.randn(3, 4).T`?", None, None]


def test_matmul_batch_dims_that_do_not_broadcast() -> None:
    """Attention weights (B, H, T, S) times values (B, S, D) not split into heads: the dims before the last two
    broadcast, and H against B raises (checked in torch 2.13); a matrix (rank 2) has no batch dims to clash."""
    assert probe('''
        import torch
        weights, values = torch.randn(5, 4, 7, 7), torch.randn(5, 7, 3)
        probe_conflict(weights @ values)
        probe_conflict(torch.matmul(weights, values.unsqueeze(1)))
        probe_conflict(weights @ torch.randn(7, 3))
        probe_conflict(torch.randn(5, 1, 7, 7) @ torch.randn(4, 7, 3))
    ''') == ["batch dims don't broadcast: weights is (5, 4, 7, 7), values is (5, 7, 3): 4 and 5 (the dims before the "
             "last two broadcast)", None, None, None]


def test_linear_layer_through_the_hook() -> None:
    assert probe('''
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.fc = nn.Linear(d, 1)
                self.proj = nn.Linear(16, 8)
            def forward(self, x):
                B, T, C = x.shape
                probe(self.fc(x))
                probe(self.proj(torch.zeros(B, 16)))
                probe_conflict(self.proj(torch.zeros(B, 32)))
    ''') == ["(B, T, 1)", "(B, 8)", "`self.proj(torch.zeros(B, 32))`: the input is (B, 32): 32 features (last "
             "dim), but `self.proj` = nn.Linear(16, 8) expects 16"]


def test_mm_of_an_operand_not_known_is_a_product_of_matrices() -> None:
    """`mm` takes only matrices (and `bmm` batches of them): a GraphSAGE encoder's (embed, nodes) output, made
    of features looked up from a list of node ids the analysis does not follow, is still (embed, nodes), so a
    classifier weight of (embed, classes) on its left is caught (checked in torch 2.13: "mat1 and mat2 shapes cannot
    be multiplied (16x7 and 16x32)"); the (classes, embed) weight stays clean, and `@`, which takes any rank, is
    not told."""
    assert probe('''
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class Encoder(nn.Module):
            def __init__(self, features, feature_dim, embed_dim):
                super().__init__()
                self.features = features
                self.weight = nn.Parameter(torch.empty(embed_dim, feature_dim))
            def forward(self, nodes):
                return F.relu(torch.mm(self.weight, self.features(torch.LongTensor(nodes)).t()))
        def classify(nodes):
            enc = Encoder(nn.Embedding(100, 20), 20, 16)
            embeds = enc(nodes)
            probe(embeds)
            probe_conflict(nn.Parameter(torch.empty(16, 7)).mm(embeds))
            probe_conflict(torch.mm(nn.Parameter(torch.empty(7, 16)), embeds))
            probe(torch.randn(7, 16) @ torch.LongTensor(nodes))
    ''') == ["(16, d1)", "inner dims differ: nn.Parameter(torch.empty(16, 7)) is (16, 7), embeds is (16, d1)", None,
             "(...)"]


def test_diagonal_matrices_of_a_graphs_degrees() -> None:
    """`torch.diag` of a vector is the square matrix graph code normalizes an adjacency with (`D @ A @ D`), of a
    square matrix its diagonal; numpy's `np.diag` alike, and `torch.from_numpy` of the arrays' product reads the
    arrays' shapes. An offset, or a matrix not known square, is not told."""
    assert probe('''
        import numpy as np
        import torch
        def f(n: int, m: int):
            adj = torch.rand(n, n) > 0.5
            d = torch.diag(adj.sum(1).float().pow(-0.5))
            probe(d)
            probe(d @ adj.float() @ d)
            probe(adj.float().diag())
            probe(torch.diag_embed(torch.randn(4, n)))
            probe(torch.diag(torch.randn(n), 1))
            probe(torch.diag(torch.randn(n, m)))
            a = np.random.rand(20, 20) > 0.7
            a = a + a.T + np.eye(20)
            dn = np.diag(1.0 / np.sqrt(a.sum(1)))
            probe(torch.from_numpy(dn @ a @ dn).float())
            probe(torch.from_numpy(np.diag(a)))
    ''') == ["(n, n)", "(n, n)", "(n,)", "(4, n, n)", None, None, "(20, 20)", "(20,)"]
