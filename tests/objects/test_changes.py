"""What code changes in place: the attributes it sets on the objects names hold."""

from __future__ import annotations

import textwrap

import libcst as cst

from shapecheck.engine import walker
from shapecheck.objects.changes import attributes_set, changed_names, in_place_changes


def test_the_attributes_set_on_every_name_come_from_one_walk_of_the_function(monkeypatch) -> None:
    function = cst.parse_module(textwrap.dedent("""
        def configure(w, v, key, u):
            w.size = 16
            v.stats.count += 1
            setattr(v, key, 1)
            del w.cache
            w.size = u.size * 2
    """)).body[0]
    walks: list[cst.CSTNode] = []
    walked = walker._walked
    monkeypatch.setattr(walker, "_walked", lambda node, *pruning: walks.append(node) or walked(node, *pruning))
    # by statement of the body; `v` may get any attribute (a computed name); `u` is only read
    assert attributes_set(function) == {"w": {"size": [0, 4], "cache": [3]}, "v": None}
    assert len(walks) == len(function.body.body)  # each statement once, whatever the number of names


def test_constants_handed_to_a_call_are_no_containers_it_changes() -> None:
    body = cst.parse_module("build(cfg, True, None, False)\n")
    assert list(changed_names(body)) == ["cfg"]


def test_one_walk_tells_each_change_how_it_is_made() -> None:
    # the names a body changes (plain roots) and the containers the shapes key items by (as spelled) both read it
    body = cst.parse_module(textwrap.dedent("""
        cfg.update(extra)
        self.cfg["hidden"] = 2
        w.stats.count += 1
        del cache[k]
        fill(table)
        x = 1
    """))
    changes = [(change.kind, body.code_for_node(change.through)) for change in in_place_changes(body)]
    assert changes == [("method", "cfg"), ("argument", "extra"), ("target", 'self.cfg["hidden"]'),
                       ("target", "w.stats.count"), ("target", "cache[k]"), ("argument", "table")]
    assert list(changed_names(body)) == ["cfg", "extra", "self", "w", "cache", "table"]


DECLARING = textwrap.dedent("""
    import torch

    HIDDEN = 4

    def attention_hook():
        maps = None
        def keep(module, inputs, output):
            nonlocal maps
            maps = output.softmax(dim=-1)
        return keep

    def configure(n):
        global HIDDEN
        HIDDEN = n
""")


def test_global_and_nonlocal_declarations_are_read_from_statement_lines(monkeypatch) -> None:
    # asked of every top-level statement (module facts): a walk of every node of every expression of the module
    # found none of them more than the lines' walk does
    from shapecheck.objects.changes import declared_names
    from shapecheck.objects.evaluator import _nonlocal_names

    module = cst.parse_module(DECLARING)
    walks: list[tuple[frozenset, frozenset]] = []
    walked = walker._walked
    monkeypatch.setattr(walker, "_walked", lambda node, *pruning: walks.append(pruning) or walked(node, *pruning))
    assert frozenset().union(*map(_nonlocal_names, module.body)) == {"maps"}
    assert declared_names(module, cst.Global) == {"HIDDEN"} and declared_names(module, cst.Nonlocal) == {"maps"}
    assert walks and all(hidden for _, hidden in walks), "an expression was walked"


def test_a_container_attribute_changed_through_its_methods_is_an_attribute_changed() -> None:
    """`memory.rewards.append(r)` fills what `memory` holds, as `memory.rewards = [...]` would set it; a list a
    plain name holds (`returns.append(r)`) is no attribute of anything."""
    function = cst.parse_module(textwrap.dedent("""
        def rollout(env, memory, returns, r):
            memory.rewards.append(r)
            memory.buffers["obs"].extend(env.obs)
            returns.append(r)
    """)).body[0]
    assert attributes_set(function) == {"memory": {"rewards": [0], "buffers": [1]}}
