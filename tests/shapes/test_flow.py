"""Which binding a read sees: branches, loops, try, and layout tests."""

from __future__ import annotations

import libcst as cst

from shapecheck.shapes.evaluator import evaluator
from tests.shapes.probe import analyse, probe


def test_binding_in_the_other_branch_never_reaches() -> None:
    assert probe('''
        import torch
        def f(flag):
            x = torch.zeros(2, 3)
            if flag:
                x = x.transpose(0, 1)
                probe(x)
            else:
                probe(x)
            probe(x)
    ''') == ["(3, 2)", "(2, 3)", None]


def test_branches_that_agree_join() -> None:
    assert probe('''
        import torch
        def f(flag):
            if flag:
                x = torch.zeros(2, 3)
            else:
                x = torch.ones(2, 3)
            probe(x)
            if flag:
                n = 4
            else:
                n = 5
            probe_dim(n)
    ''') == ["(2, 3)", "n"]


def test_loop_carried_values_are_what_every_iteration_agrees_on() -> None:
    # The function's run on its own signature goes round a loop of known length once per iteration: a value that
    # changes from one iteration to the next is unknown inside the loop, and known after it; one that doesn't is
    # known throughout. A loop of unknown length may run no times at all.
    assert probe('''
        import torch
        def f(blocks):
            x = torch.zeros(2, 3)
            for _ in range(3):
                probe(x)
                x = x.unsqueeze(0)
            probe(x)
            y = torch.zeros(4)
            for _ in range(3):
                y = y + 1
                probe(y)
            z = torch.zeros(4)
            for block in blocks:
                z = z.unsqueeze(0)
            probe(z)
    ''') == [None, "(1, 1, 1, 2, 3)", "(4,)", None]


def test_try_and_while() -> None:
    assert probe('''
        import torch
        def f():
            x = torch.zeros(2)
            try:
                x = torch.zeros(3)
            except ValueError:
                probe(x)
            probe(x)
            y = torch.zeros(2)
            while cond():
                y = torch.zeros(5)
            probe(y)
    ''') == [None, None, None]


def test_layout_test_makes_layout_unknown_and_joins_keep_what_agrees() -> None:
    assert probe('''
        import torch
        def flat(param):
            B, C, H, W = param.shape
            if param.is_contiguous(memory_format=torch.channels_last):
                param = param.permute(0, 2, 3, 1)
            probe_layout(param)
            x = param.permute(0, 2, 3, 1)
            probe_layout(x)
            y = torch.zeros(3, 3) if param else torch.zeros(3, 3).t()
            probe(y)
            probe_layout(y)
    ''') == [None, None, "(3, 3)", None]



def test_only_a_function_whose_values_a_loop_reaches_is_run_on_its_own_signature() -> None:
    # Elsewhere the run would know what the bindings know: it is not made (a speed matter, torch's own functions
    # being mostly straight-line code).
    seen, ctx = analyse('''
        import torch
        def straight(x):
            h = x.view(2, 3)
            probe_conflict(h @ torch.zeros(4, 5))
        def looped(x):
            for _ in range(2):
                x = x.unsqueeze(0)
            probe_conflict(x @ torch.zeros(4, 5))
    ''')
    assert seen == ["inner dims differ: h is (2, 3), torch.zeros(4, 5) is (4, 5)", None]
    ev = evaluator(ctx)
    assert [ctx.code(node).split("(")[0] for node in functions_run(ctx, ev)] == ["def looped"]


def test_no_run_is_made_for_a_loop_it_goes_through_only_maybe() -> None:
    # A statement in the body of a loop whose length a run can't tell (torch's optimizers loop over their `params`)
    # never runs for certain in it, nor one in a `while` or an `except`: the bindings tell, and the run is not made
    # for it. A loop over a sequence the code states is spelled out pass by pass, and its run is made.
    seen, ctx = analyse('''
        import torch
        def over_params(params, grads):
            for p, g in zip(params, grads):
                h = p.t()
                probe_conflict(h @ g)
        def drained(stack):
            while stack:
                w = stack.pop()
                probe_conflict(w @ torch.zeros(4, 5))
        def handled(params):
            try:
                pass
            except ValueError:
                for p in params:
                    q = p
                probe_conflict(q @ torch.zeros(4, 5))
        def over_sizes():
            for n in (4, 5):
                w = torch.zeros(3, n)
                probe_conflict(w @ torch.zeros(4, 2))
    ''')
    assert seen == [None, None, None, "inner dims differ: w is (3, 5), torch.zeros(4, 2) is (4, 2)"]
    ev = evaluator(ctx)
    assert [ctx.code(node).split("(")[0] for node in functions_run(ctx, ev)] == ["def over_sizes"]


def functions_run(ctx, ev) -> list:
    return [node for node in ctx.walk(ctx.module) if type(node) is cst.FunctionDef and id(node) in ev._generic_runs]


def test_a_branch_the_run_decides_is_read_from_the_run() -> None:
    # The bindings join both branches; the function's run knows a module flag's truth and takes one. A test on a
    # parameter decides nothing in a run on the function's own signature.
    assert probe('''
        import torch
        USE_BIG = True
        def f(x):
            if USE_BIG:
                w = torch.zeros(3, 4)
            else:
                w = torch.zeros(5, 4)
            probe_conflict(w @ torch.zeros(5, 2))
            if x:
                v = torch.zeros(3, 4)
            else:
                v = torch.zeros(5, 4)
            probe_conflict(v @ torch.zeros(5, 2))
    ''') == ["inner dims differ: w is (3, 4), torch.zeros(5, 2) is (5, 2)", None]
