"""einsum: the output's shape from the subscripts (explicit, implicit, with `...`), and the equations that raise:
an operand with another number of dims, a letter bound to two different sizes (size 1 broadcasts)."""

from __future__ import annotations

from tests.shapes.probe import probe


def test_the_output_from_explicit_implicit_and_ellipsis_subscripts() -> None:
    assert probe('''
        import torch
        def f(n: int):
            scores = torch.randn(8, 4, 16, 16)
            values = torch.randn(8, 4, 16, 32)
            probe(torch.einsum("bhqk,bhkd->bhqd", scores, values))
            probe(torch.einsum("bhqk,bhkd", scores, values))
            probe(torch.einsum("...qk,...kd->...qd", scores, values))
            probe(torch.einsum("...qk,kd", scores, torch.randn(16, 3)))
            probe(torch.einsum("ij->ji", torch.randn(n, 5)))
            probe(torch.einsum("bi,bj->bij", [torch.randn(7, 2), torch.randn(1, 3)]))
            probe(torch.einsum("bij,bjk->bik", scores, values))
    ''') == ["(8, 4, 16, 32)", "(32, 16)", "(8, 4, 16, 32)", "(8, 4, 3, 16)", "(5, n)", "(7, 2, 3)", None]


def test_equations_that_raise() -> None:
    assert probe('''
        import torch
        def f(x, n: int, m: int):
            nodes = torch.randn(4, 2, 17, 12)
            adjacency = torch.randn(20, 20)
            probe_conflict(torch.einsum("ncwl,vw->ncvl", nodes, adjacency))
            probe_conflict(torch.einsum("ncwl,vw->ncvl", nodes, torch.randn(17, 17)))
            probe_conflict(torch.einsum("bij,bjk->bik", torch.randn(2, 3), torch.randn(2, 3, 4)))
            probe_conflict(torch.einsum("...ij,jk->...ik", torch.randn(5), torch.randn(5, 2)))
            probe_conflict(torch.einsum("bi,bj->bij", torch.randn(7, 2), torch.randn(1, 3)))
            probe_conflict(torch.einsum("ij,jk->ik", torch.randn(n, m), torch.randn(n, m)))
            probe_conflict(torch.einsum("ij,jk->ik", x, torch.randn(3, 3)))
    ''') == ['`torch.einsum("ncwl,vw->ncvl", nodes, adjacency)`: subscript w is 20 in operand 1 (adjacency is '
             '(20, 20)) but 17 in operand 0',
             None,
             '`torch.einsum("bij,bjk->bik", torch.randn(2, 3), torch.randn(2, 3, 4))`: the equation gives operand 0 '
             '(bij) 3 dims, but torch.randn(2, 3) is (2, 3)',
             '`torch.einsum("...ij,jk->...ik", torch.randn(5), torch.randn(5, 2))`: the equation gives operand 0 '
             '(...ij) 2 dims or more, but torch.randn(5) is (5,)',
             None, None, None]


def test_an_equation_held_in_a_name_is_read() -> None:
    """`EQ = "..."` at module level, read in a function: the same equation; a parameter's is unknown."""
    assert probe('''
        import torch
        EQ = "bhqd,bhkd->bhqk"
        def scores(q, k, equation):
            probe(torch.einsum(EQ, torch.randn(2, 4, 10, 16), torch.randn(2, 4, 12, 16)))
            probe_conflict(torch.einsum(EQ, torch.randn(2, 4, 10, 16), torch.randn(2, 4, 12, 8)))
            probe(torch.einsum(equation, torch.randn(2, 4, 10, 16), torch.randn(2, 4, 12, 16)))
    ''') == ["(2, 4, 10, 12)",
             "`torch.einsum(EQ, torch.randn(2, 4, 10, 16), torch.randn(2, 4, 12, 8))`: subscript d is 8 in operand 1 "
             "(torch.randn(2, 4, 12, 8) is (2, 4, 12, 8)) but 16 in operand 0", None]


def test_an_equation_naming_more_or_fewer_operands_than_passed() -> None:
    # a bilinear score whose equation kept a third operand the call dropped; one operand may be a list of them
    assert probe('''
        import torch
        def score(wa, b, ops):
            probe_conflict(torch.einsum("bid,bjd,bk->bij", wa, b))
            probe_conflict(torch.einsum("bid,bjd->bij", wa))
            probe_conflict(torch.einsum("bid,bjd->bij", ops))
            probe_conflict(torch.einsum("bid,bjd->bij", [wa, b]))
            probe_conflict(torch.einsum("bid,bjd->bij", *ops))
            probe_conflict(torch.einsum("bid,bjd->bij", torch.randn(2, 3, 4)))
    ''') == ['the equation names 3 operands, but the call passes 2',
             None, None, None, None,
             'the equation names 2 operands, but the call passes 1']


def test_an_output_the_equation_names_in_full_has_its_rank_whatever_the_operands() -> None:
    """Operands of unknown shape (advanced-indexed features, a parameter): an output that names every dim is that
    many dims or the call raises, each letter the size an operand states, else one of its own. A stated 1 may be
    broadcast to an unknown operand's size, so it is not kept; an output with `...` stays unknown."""
    assert probe('''
        import torch
        def f(weights, feats):
            probe(torch.einsum("nk,nck->nc", weights, feats))
            probe(torch.einsum("nk,nck->nc", torch.randn(5, 7), feats))
            probe(torch.einsum("nk,nck->nc", torch.randn(1, 7), feats))
            probe(torch.einsum("nk,nck", weights, feats))
            probe(torch.einsum("...k,nck->...c", weights, feats))
            probe(torch.einsum("nk,nck->nz", weights, feats))
    ''') == ["(n, c)", "(5, c)", "(n, c)", "(c,)", None, None]
