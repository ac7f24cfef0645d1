"""The lint engine: one parse and one traversal per file, shared analysis, and the rule interface."""

from shapecheck.engine.context import Binding, CallSite, Context
from shapecheck.engine.rule import Fix, Invalid, Rule

__all__ = ["Binding", "CallSite", "Context", "Fix", "Invalid", "Rule"]
