"""Finds the rules (every `Rule` subclass in a module of `shapecheck.rules`) and resolves rule selectors."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

# The engine's codes are always reported, never selected or ignored: a file that can't be linted must not pass
# silently.
from shapecheck.findings import ENGINE_CODES

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule

# How a rule module states its code, in its class body (CONTRIBUTING's form).
_CODE_LINE = re.compile(r'^    code = "(SC[0-9]+)"', re.MULTILINE)


class SelectorError(ValueError):
    pass


@cache
def all_rules() -> tuple[type[Rule], ...]:
    import pkgutil

    import shapecheck.rules as package
    from shapecheck.engine.rule import Rule

    found: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__:
                if value.code in found:
                    raise RuntimeError(f"rule code {value.code} is defined twice: {found[value.code]} and {value}")
                found[value.code] = value
    return tuple(found[code] for code in sorted(found))


def rules_by_code() -> dict[str, type[Rule]]:
    return {rule.code: rule for rule in all_rules()}


@cache
def known_codes() -> frozenset[str]:
    """Every rule's code, read from the rule modules' text instead of importing them: importing the rules imports
    libcst, most of what a run answered from the result cache would cost. `all_rules()` has the last word (see
    `check_selectors`); a test keeps the two equal."""
    spec = importlib.util.find_spec("shapecheck.rules")
    codes: set[str] = set()
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    with open(entry.path, encoding="utf-8") as file:
                        codes.update(_CODE_LINE.findall(file.read()))
    return frozenset(codes)


def check_selectors(selectors: Iterable[str], origin: str) -> None:
    """Raise SelectorError naming any selector that matches no rule."""
    unknown = [selector for selector in selectors if not _matches(selector, known_codes())]
    if unknown:  # a rule the text scan missed still counts: ask the rules themselves before saying no
        codes = frozenset(rule.code for rule in all_rules())
        for selector in unknown:
            if not _matches(selector, codes):
                raise SelectorError(f"{origin}: unknown rule selector {selector!r} (see `shapecheck rules`)")


def _matches(selector: str, codes: frozenset[str]) -> bool:
    return selector == "ALL" or selector in ENGINE_CODES or any(code.startswith(selector) for code in codes)


def _specificity(code: str, selectors: Iterable[str]) -> int:
    """Length of the most specific selector matching `code`; -1 for none. ALL is the least specific match."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def resolve(select: Iterable[str] | None, ignore: Iterable[str] = (), extend_select: Iterable[str] = ()
            ) -> tuple[type[Rule], ...]:
    """The enabled rules, as ruff decides: `select` replaces the default set, `extend_select` adds to it, `ignore`
    removes, and when a code is both selected and ignored the more specific selector wins (`--ignore SC2
    --extend-select SC201` keeps SC201)."""
    return resolve_layers([(select, ignore, extend_select)])


Layer = tuple[Iterable[str] | None, Iterable[str], Iterable[str]]  # select, ignore, extend-select


def resolve_layers(layers: Iterable[Layer], everything: bool = False) -> tuple[type[Rule], ...]:
    """The enabled rules after each layer of selection in turn (an extended config's, a config's, the command
    line's), as ruff layers them: a layer with a `select` starts over from it, one without changes what the layers
    before chose; within a layer the more specific selector wins, an ignore on a tie. Before the first layer, the
    rules on by default are chosen, or every rule with `everything` (`fixable` starts from all rules)."""
    enabled = {rule.code for rule in all_rules() if rule.default or everything}
    for select, ignore, extend_select in layers:
        chosen = [*select, *extend_select] if select is not None else list(extend_select)
        ignored = list(ignore)
        if select is not None:
            enabled = set()
        for rule in all_rules():
            picked, dropped = _specificity(rule.code, chosen), _specificity(rule.code, ignored)
            if picked >= 0 and picked > dropped:
                enabled.add(rule.code)
            elif dropped >= 0 and dropped >= picked:
                enabled.discard(rule.code)
    return tuple(rule for rule in all_rules() if rule.code in enabled)
