"""A call being run, or a comprehension being spelled out: the values its names hold as it goes."""

from __future__ import annotations


import libcst as cst

from shapecheck.engine.context import Scope
from shapecheck.engine.records import record
from shapecheck.objects.values import ClassValue


@record(eq=False)
class Frame:
    """A call being run (or a comprehension being spelled out): a function of the project with values for its
    names (`env`), in its module. Names it does not bind are its `parent`'s (the call a nested function was
    defined in), else read as of `outer` (a point in the file, for a comprehension read there), else the module's as
    of `module_point` (where the call runs: see `Evaluator.global_point`), else as of now."""

    function: cst.CSTNode
    names: frozenset[str]  # the names local to the function
    env: dict[str, object]
    parent: Frame | None = None
    depth: int = 0
    title: str = ""  # "Net.forward", for messages
    owner: ClassValue | None = None  # the class of a method, for `super()`
    outer: int | None = None
    outer_home: Scope | None = None
    module_point: int | None = None
