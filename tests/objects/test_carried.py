"""Which names of a function only its run can tell the value of: loop-carried, filled in place, computed from those."""

from __future__ import annotations

import textwrap

import libcst as cst

from shapecheck.objects.carried import carried


def function(source: str) -> cst.FunctionDef:
    statement = cst.parse_module(textwrap.dedent(source)).body[0]
    assert type(statement) is cst.FunctionDef
    return statement


def test_a_function_without_loops_or_in_place_changes_carries_nothing() -> None:
    found = carried(function("""
        def forward(self, x, mask=None):
            h = self.proj(x).view(x.size(0), -1, 4)
            if mask is not None:
                h = h.masked_fill(mask, 0)
            return torch.softmax(h, dim=-1)
    """))
    assert found.names == frozenset()


def test_a_loop_carries_what_it_binds_and_what_is_computed_from_it_after() -> None:
    fn = function("""
        def forward(self, x, y):
            for layer in self.layers:
                x = layer(x)
            out = x.flatten(1)
            other = y * 2
            return out, other
    """)
    found = carried(fn)
    assert {"layer", "x", "out"} <= found.names
    assert "other" not in found.names and "y" not in found.names
    returned = fn.body.body[-1].body[0].value
    assert found.read_by(returned.elements[0].value) and not found.read_by(returned.elements[1].value)


def test_lists_filled_in_place_and_attributes_a_loop_sets_are_carried() -> None:
    found = carried(function("""
        def forward(self, x):
            outs = []
            outs.append(self.a(x))
            joined = torch.cat(outs, dim=1)
            steps = [x]
            fill(steps)
            while self.more():
                self.h = self.cell(x, self.h)
            kept = list(range(3))
            return joined, self.h, kept
    """))
    assert {"outs", "joined", "steps", "self.h"} <= found.names
    assert "kept" not in found.names and "x" not in found.names


def test_comprehension_targets_and_augmented_assignments_in_loops_are_carried() -> None:
    found = carried(function("""
        def total(xs, scale):
            parts = [x * scale for x in xs]
            acc = 0
            i = 0
            while i < 3:
                acc += parts[i]
                i += 1
            return acc
    """))
    assert {"x", "acc", "i"} <= found.names
    assert "scale" not in found.names
