"""Finds the rules (every `Rule` subclass in a module of `shapecheck.rules`) and resolves rule selectors."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Iterable
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Union

# The engine's codes are always reported, never selected or ignored: a file that can't be linted must not pass
# silently.
from shapecheck.findings import ENGINE_CODES

if TYPE_CHECKING:
    from shapecheck.engine.rule import Rule


_PACKAGE = "shapecheck.rules"


class SelectorError(ValueError):
    pass


class RuleEntry:
    """A rule as `rule_index` lists it: what choosing it and deciding whether a file needs it take (see
    `engine.linter.applicable`), without importing it. A lint then imports only the rules the file's text can
    trigger: importing every rule costs more than the analysis of most files. `load()` gives the class. A plain
    class: every run, a cache hit too, defines it, and a named tuple's definition costs ten times as much."""

    __slots__ = ("code", "module", "default", "triggers", "triggered_through_imports")

    def __init__(self, code: str, module: str, default: bool, triggers: tuple[str, ...],
                 triggered_through_imports: bool) -> None:
        self.code, self.module, self.default = code, module, default  # module: its name in `shapecheck.rules`
        self.triggers, self.triggered_through_imports = triggers, triggered_through_imports

    def load(self) -> type[Rule]:
        return _rules_in(_imported(f"{_PACKAGE}.{self.module}"))[self.code]


# What a lint is given as its rules: the classes, or entries that stand for them until a file needs them.
RuleSpec = Union[type["Rule"], RuleEntry]


def unimported(rule: RuleSpec) -> bool:
    """Whether loading the rule imports its module."""
    return isinstance(rule, RuleEntry) and f"{_PACKAGE}.{rule.module}" not in sys.modules


def _imported(name: str) -> ModuleType:
    """The module, imported as an import statement imports it: `python -X importtime` then shows it, as it shows
    what the rest of a run imports (`importlib.import_module` bypasses that report)."""
    __import__(name)
    return sys.modules[name]


def _rules_in(module: ModuleType) -> dict[str, type[Rule]]:
    from shapecheck.engine.rule import Rule

    return {value.code: value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__}


@cache
def all_rules() -> tuple[type[Rule], ...]:
    import pkgutil

    import shapecheck.rules as package

    found: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        for code, rule in _rules_in(_imported(f"{_PACKAGE}.{info.name}")).items():
            if code in found:
                raise RuntimeError(f"rule code {code} is defined twice: {found[code]} and {rule}")
            found[code] = rule
    return tuple(found[code] for code in sorted(found))


def rules_by_code() -> dict[str, type[Rule]]:
    return {rule.code: rule for rule in all_rules()}


def _rule_folders() -> list[str]:
    """The folders of `shapecheck.rules`, found as the import system would find them (without importing it)."""
    spec = importlib.util.find_spec(_PACKAGE)
    return list(spec.submodule_search_locations or []) if spec is not None else []


@cache
def known_codes() -> frozenset[str]:
    """Every rule's code, read from the rule modules' text instead of importing them: importing the rules imports
    libcst, most of what a run answered from the result cache would cost. `all_rules()` has the last word (see
    `check_selectors`); a test keeps the two equal."""
    codes: set[str] = set()
    code_line = re.compile(r'^    code = "(SC[0-9]+)"', re.MULTILINE)  # CONTRIBUTING's form, in the class body
    for folder in _rule_folders():
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    with open(entry.path, encoding="utf-8") as file:
                        codes.update(code_line.findall(file.read()))
    return frozenset(codes)


def _rule_modules() -> set[str]:
    """The names of the rule modules (not the helpers, whose names start with `_`)."""
    modules = set()
    for folder in _rule_folders():
        with os.scandir(folder) as entries:
            modules.update(entry.name[:-3] for entry in entries
                           if entry.name.endswith(".py") and not entry.name.startswith("_"))
    return modules


@cache
def rule_index() -> dict[str, RuleEntry]:
    """Every rule, by code (sorted), as `shapecheck.rules._index` lists them: that module is generated from the
    rules' classes (`python -m shapecheck.rule_docs`; a test keeps it so), since reading the rule modules' text
    for it would cost a lint as much as importing them. Where the rule modules are not the ones it lists (a rule
    added, and the index not yet written again), the rules are imported and asked."""
    from shapecheck.rules._index import RULES

    listed = {code: RuleEntry(code, *fields) for code, fields in RULES.items()}
    if _rule_modules() == {entry.module for entry in listed.values()}:
        return listed
    return {rule.code: entry_of(rule) for rule in all_rules()}


def entry_of(rule: type[Rule]) -> RuleEntry:
    """The rule's `RuleEntry`, from its class."""
    return RuleEntry(rule.code, rule.__module__.rpartition(".")[2], rule.default, rule.triggers,
                     rule.triggered_through_imports)


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
    """The enabled rules after each layer of selection in turn (`resolve_entries`), imported."""
    return tuple(entry.load() for entry in resolve_entries(layers, everything))


def resolve_entries(layers: Iterable[Layer], everything: bool = False) -> tuple[RuleEntry, ...]:
    """The enabled rules after each layer of selection in turn (an extended config's, a config's, the command
    line's), as ruff layers them: a layer with a `select` starts over from it, one without changes what the layers
    before chose; within a layer the more specific selector wins, an ignore on a tie. Before the first layer, the
    rules on by default are chosen, or every rule with `everything` (`fixable` starts from all rules). The rules
    are not imported (`RuleEntry`)."""
    index = rule_index()
    enabled = {code for code, entry in index.items() if entry.default or everything}
    for select, ignore, extend_select in layers:
        chosen = [*select, *extend_select] if select is not None else list(extend_select)
        ignored = list(ignore)
        if select is not None:
            enabled = set()
        for code in index:
            picked, dropped = _specificity(code, chosen), _specificity(code, ignored)
            if picked >= 0 and picked > dropped:
                enabled.add(code)
            elif dropped >= 0 and dropped >= picked:
                enabled.discard(code)
    return tuple(entry for code, entry in index.items() if code in enabled)
