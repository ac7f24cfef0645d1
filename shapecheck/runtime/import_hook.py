"""`install_import_hook("mypkg")`: check every annotated function and class of a package, without editing it.

Modules of the named packages are compiled from their source with `@__shapecheck_check__` added to every
function and class definition (the approach of jaxtyping's hook): at the bottom of a function's decorator list,
so it sees the function's own annotations before other decorators wrap it, and at the top of a class's, so a
`@dataclass` has made `__init__` first. Methods are left to their class's decorator, which wraps the annotated
ones and, on an `nn.Module`, checks `forward` with the parameters and buffers. Functions without tensor
annotations stay unwrapped, so they cost nothing.

Importing this module imports neither torch nor jaxtyping: the pytest plugin installs the hook from here, and
torch loads only when the first instrumented module runs.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import warnings
from collections.abc import Iterable
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder, SourceFileLoader
from types import ModuleType, TracebackType
from typing import Any

from shapecheck.runtime import switch
from shapecheck.runtime.dependencies import required_by

DECORATOR = "__shapecheck_check__"  # dunder on both ends: never name-mangled inside a class body


def install_import_hook(packages: str | Iterable[str]) -> ImportHook:
    """Check every annotated function, method and class in `packages` (and their subpackages) imported from
    now on. Returns a handle: `.uninstall()`, or use it as a context manager.

        with shapecheck.install_import_hook(["mypkg", "otherpkg"]):
            import mypkg.train

    Modules imported before the call are not checked (a warning names them). With SHAPECHECK_DISABLE=1 the
    hook is not installed at all.
    """
    hook = ImportHook(package_names(packages))
    if switch.DISABLED_BY_ENV:
        return hook
    early = already_imported(hook.packages)
    if early:
        warnings.warn(f"shapecheck: {', '.join(early)} imported before the import hook was installed; their "
                      "functions are not checked", stacklevel=2)
    sys.meta_path.insert(0, hook.finder)
    return hook


def package_names(packages: object) -> list[str]:
    """`install_import_hook`'s argument as a list of names, or a TypeError or ValueError that says what is wrong
    with it."""
    if isinstance(packages, str):
        names = [packages]
    elif isinstance(packages, Iterable) and not isinstance(packages, (bytes, bytearray)):
        names = list(packages)
    else:
        raise TypeError("shapecheck.install_import_hook() argument 'packages' must be a package name or a list of "
                        f"them, not {type(packages).__name__}")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise TypeError("shapecheck.install_import_hook() argument 'packages' must hold package names (str), "
                            f"but packages[{index}] is {type(name).__name__}")
        if not is_module_name(name):
            raise ValueError(f"shapecheck: {name!r} is not a package or module name")
    if not names:
        raise ValueError("shapecheck.install_import_hook() argument 'packages' names no package")
    return names


def is_module_name(name: str) -> bool:
    """`name` is a dotted module name (`pkg`, `pkg.sub`), as `import` would accept it."""
    return all(part.isidentifier() for part in name.split("."))


def findable(name: str) -> bool:
    """Whether `import name` would find the module, without importing it or anything else."""
    try:
        return _spec_without_importing(name) is not None
    except (ImportError, ValueError):  # a module without a spec, a broken parent: not ours to judge
        return True


def _spec_without_importing(name: str) -> ModuleSpec | None:
    parent, _, _ = name.rpartition(".")
    if not parent or parent in sys.modules:
        return importlib.util.find_spec(name)  # imports nothing: there is no parent, or it is loaded
    # find_spec would import the parent package: look where the standard path finder would.
    parent_spec = _spec_without_importing(parent)
    if parent_spec is None or parent_spec.submodule_search_locations is None:
        return None
    return PathFinder.find_spec(name, parent_spec.submodule_search_locations)


def already_imported(packages: Iterable[str]) -> list[str]:
    return sorted(name for name in sys.modules if any(_inside(name, package) for package in packages))


class ImportHook:
    """Handle on an installed hook."""

    def __init__(self, packages: list[str]):
        self.packages = packages
        self.finder = _Finder(packages)

    def uninstall(self) -> None:
        """Stop instrumenting new imports; modules already imported stay checked."""
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)

    def __enter__(self) -> ImportHook:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.uninstall()


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


class _Finder(MetaPathFinder):
    def __init__(self, packages: list[str]):
        self.packages = packages

    def find_spec(self, fullname: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not any(_inside(fullname, package) for package in self.packages):
            return None
        # Ask the finders after us, so editable installs and custom finders keep working.
        for finder in sys.meta_path:
            if finder is self or isinstance(finder, _Finder) or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if isinstance(spec.loader, SourceFileLoader):
                    spec.loader = _Loader(spec.loader.name, spec.loader.path)
                return spec
        return None


class _Loader(SourceFileLoader):
    """Compiles from source every time: the instrumented code must neither come from nor go into the
    ordinary `__pycache__`, which plain imports of the same module share."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)

    def source_to_code(self, data: Any, path: Any, *, _optimize: int = -1) -> Any:  # type: ignore[override]
        tree = ast.parse(data, filename=path)
        tree = _AddDecorators().visit(tree)
        return compile(ast.fix_missing_locations(tree), path, "exec", dont_inherit=True, optimize=_optimize)

    def exec_module(self, module: ModuleType) -> None:
        with required_by(f"the shapecheck import hook (instrumenting {module.__name__})"):
            from shapecheck.runtime.decorator import Options, decorate

        options = Options()
        module.__dict__[DECORATOR] = lambda target: decorate(target, options, only_annotated=True)
        super().exec_module(module)


class _AddDecorators(ast.NodeTransformer):
    def __init__(self) -> None:
        self.in_class_body = False

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        if _skipped(node):
            return node
        node.decorator_list.insert(0, ast.copy_location(ast.Name(DECORATOR, ast.Load()), node))
        return self._visit_body(node, in_class_body=True)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Any:
        if _skipped(node):
            return node
        if not self.in_class_body:
            node.decorator_list.append(ast.copy_location(ast.Name(DECORATOR, ast.Load()), node))
        return self._visit_body(node, in_class_body=False)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _visit_body(self, node: ast.AST, in_class_body: bool) -> Any:
        outer, self.in_class_body = self.in_class_body, in_class_body
        self.generic_visit(node)
        self.in_class_body = outer
        return node


# Decorators that mean "do not wrap this": explicit opt-outs, signatures-only stubs, and TorchScript, which
# cannot compile a generated wrapper.
_SKIPPING = {"no_type_check", "overload", "script", "script_method", "ignore", "unused"}


def _skipped(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        while isinstance(decorator, ast.Call):
            decorator = decorator.func
        name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
        if name in _SKIPPING:
            return True
    return False
