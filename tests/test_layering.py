"""The analysis is built in floors, each using only the ones below it: source and traversal, then bindings and flow,
then objects and calls, then shapes and training loops, then rules; the linter, the command line, the server and
the reporters sit on top. An import that reaches up a floor (or round a circle) is a design error this test names.

Every import counts for the floors: one inside a function (a lazy import is still a dependency) and one under
`if TYPE_CHECKING:` (an annotation that names a floor above is the lower floor knowing the upper one). Only the search
for circles leaves `TYPE_CHECKING` imports out: within a floor, that is how two modules name each other's types."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BASE, SOURCE, BINDINGS, OBJECTS, SHAPES, RULES, TOOLS = range(7)
FLOOR_NAMES = ["base", "source and traversal", "bindings and flow", "objects and calls", "shapes and loops",
               "rules", "tools"]

# Module (or package prefix) -> floor; the most specific entry wins; anything else is a tool on top.
FLOORS = {
    "shapecheck.findings": BASE,
    "shapecheck.urls": BASE,
    "shapecheck.engine.dependencies": BASE,
    "shapecheck.engine.records": BASE,
    "shapecheck.engine.walker": SOURCE,
    "shapecheck.engine.compile_check": SOURCE,
    "shapecheck.engine.newer_syntax": SOURCE,
    "shapecheck.engine.python_target": SOURCE,
    "shapecheck.engine.file_options": SOURCE,
    "shapecheck.engine.syntax": SOURCE,
    "shapecheck.engine.guard": SOURCE,
    "shapecheck.engine.source": SOURCE,
    "shapecheck.engine.noqa": SOURCE,
    "shapecheck.engine.traversal": SOURCE,
    "shapecheck.engine.bindings": BINDINGS,
    "shapecheck.engine.context": BINDINGS,
    "shapecheck.engine.flow": BINDINGS,
    "shapecheck.engine.torch_code": BINDINGS,
    "shapecheck.engine.torch_requirement": BINDINGS,
    "shapecheck.engine.expected_errors": BINDINGS,
    "shapecheck.objects": OBJECTS,
    "shapecheck.shapes": SHAPES,
    "shapecheck.loops": SHAPES,
    "shapecheck.engine.rule": RULES,
    "shapecheck.engine.registry": RULES,
    "shapecheck.engine.unused_noqa": RULES,
    "shapecheck.engine": RULES,  # the package's __init__ re-exports the rule interface
    "shapecheck.engine.linter": TOOLS,
    "shapecheck.engine.fixer": TOOLS,
    "shapecheck.rules": RULES,
}


def modules() -> dict[str, Path]:
    found = {}
    for folder, package in ((ROOT / "shapecheck", "shapecheck"), (ROOT / "rules", "shapecheck.rules")):
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path], type_checking: bool = True) -> set[str]:
    """The shapecheck modules `name` imports (at run time only, without `type_checking`)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if not type_checking and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                names.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                module = child.module or ""
                if child.level:
                    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                    package = package[:len(package) - child.level + 1]
                    module = ".".join([*package, *([module] if module else [])])
                for alias in child.names:
                    full = f"{module}.{alias.name}"
                    names.add(full if full in known else module)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found = set()
    for module in names:
        while module and module not in known:
            module = module.rpartition(".")[0]
        if module and module != name:
            found.add(module)
    return found


def floor(module: str) -> int:
    best, floor_of = "", TOOLS
    for prefix, level in FLOORS.items():
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
            best, floor_of = prefix, level
    return floor_of


def graph(type_checking: bool = True) -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known, type_checking) for name, path in known.items()}


def test_each_floor_uses_only_the_floors_below() -> None:
    upward = sorted(
        f"{module} ({FLOOR_NAMES[floor(module)]}) imports {target} ({FLOOR_NAMES[floor(target)]})"
        for module, targets in graph().items() for target in targets if floor(target) > floor(module)
    )
    assert upward == []


def test_the_floor_map_names_real_modules() -> None:
    known = modules()
    assert all(any(name == prefix or name.startswith(prefix + ".") for name in known) for prefix in FLOORS)


def test_every_floor_is_stated_and_every_engine_module_named() -> None:
    # `shapecheck.engine` mixes floors: a module of it placed only by the package's entry would sit with the rules
    # whatever it is, and an upward import from it would go unseen.
    known = modules()
    assert {floor(module) for module in known} == set(range(len(FLOOR_NAMES)))
    assert [name for name in known if name.startswith("shapecheck.engine.") and name not in FLOORS] == []


def test_no_module_imports_itself_round_a_circle() -> None:
    edges = graph(type_checking=False)
    circles: list[list[str]] = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert circles == []
