"""The project's own modules, read on demand: `from model import Net` in `train.py` finds `model.py` beside it, and
`Net` is known there as if it were defined in `train.py`.

Which file: as Python finds it for a script run from its folder or a package of the project: a relative import from
the file's package; else the file's folder, each folder above it up to the project's root (the nearest folder
holding a `pyproject.toml`, `setup.py`, `setup.cfg` or `.git`) and the root's `src/`; without a root, the folder
above the packages holding the file. Nothing is read from an installed package (`site-packages`): those are other
people's code, and `torch` itself is known by its names.

What is read: only the definitions asked for and what they use. Python's own parser (a fraction of libcst's time)
summarises the module's top-level statements: what each defines and which names it uses. The statements that define
the names the importing file takes from the module, the ones they use in turn, and every import, are parsed with
libcst (the rest of the file left blank, so lines keep their numbers) and traversed for their bindings: a context
the evaluator reads like the file's own; where those statements are most of the module, the whole module is (one
context for every name asked of it). Summaries and contexts are kept per process and file (keyed by its size
and modification time), so linting many files that import the same model reads it once. One file's analysis reads at
most `MAX_LINES_READ` lines of other modules; past that, what they define is unknown. Every file looked for is
recorded as a dependency of the linted file (`engine.dependencies`): the result cache re-lints `train.py` when
`model.py` changes, or when a module that would now be found first appears.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import sys
import tokenize
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import libcst as cst

from shapecheck.engine import dependencies
from shapecheck.engine.bindings import traverse
from shapecheck.engine.context import Binding, Context
from shapecheck.engine.flow import unconditional
from shapecheck.engine.guard import TooComplex
from shapecheck.engine.records import record
from shapecheck.engine.source import parse_source
from shapecheck.objects import import_index

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
MAX_MODULE_BYTES = 2 << 20  # a generated module this large is not read for its classes
# Lines of parsed contexts kept per process (about 1.3 KiB each, parsed and traversed: some 80 MiB). Bounded by lines,
# not by count: a count let extracts of a few lines push out whole modules of thousands, which the next file that
# imported them parsed again (over torch's tree a fifth of the contexts parsed were parsed before).
MAX_CONTEXT_LINES = 60_000
# Lines of the project's other modules (the statements each context keeps) that one file's analysis may read. A
# file that calls across much of its package (torch's `_dynamo/convert_frame.py` ran functions of ~48 modules
# through ~146 extracts: 95 s of CPU) would otherwise cost the first run minutes; past this, further modules are
# unknown, which is silent, and what was read first still gives its findings.
MAX_LINES_READ = 10_000
_INSTALLED = ("site-packages", "dist-packages")


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True, unsafe_hash=True)
class Statement:
    """A top-level statement of a module: its lines (1-based, inclusive), the names it binds and the names it reads."""

    start: int
    end: int
    defines: frozenset[str]
    uses: frozenset[str]
    imports: bool


@record(slots=True, eq=False)
class Summary:
    """A module's lines and top-level statements; `defined_by` maps each name to the statements that bind it, so that
    what a context keeps takes time in what it keeps, not in the module's size for each name (torch's tree asked
    thousands of contexts of modules of hundreds of statements)."""

    lines: tuple[str, ...]
    statements: tuple[Statement, ...]
    defined_by: dict[str, tuple[int, ...]]
    imports: frozenset[int]
    total_lines: int


@record(slots=True, eq=False)
class ImporterSearch:
    """What `importer_files` found for a module: its importers' paths and texts, whether the search reached every
    project file, the `*.py` entries of the folders searched and those files' stamps then, and the `collecting` block
    that last compared the stamps with the files (one lint asks again and again)."""

    found: list[tuple[str, str]]
    complete: bool
    entries: tuple[str, ...]
    stamps: tuple
    block: object


class Project:
    """The first-party modules one process has read."""

    def __init__(self) -> None:
        self._summaries: dict[Path, tuple[tuple[int, int], Summary | None]] = {}
        self._contexts: OrderedDict[tuple, tuple[Context, int]] = OrderedDict()  # -> (context, its lines)
        self._context_lines = 0
        # (folder, module, level) -> its file, and the entries of the files looked for (`dependencies.entries`)
        self._found: dict[tuple[Path, str, int], tuple[Path | None, tuple[str, ...]]] = {}
        # importer -> its resolved folder: resolving walks the path's every component with a system call, and every
        # imported name a file's analysis reads asks again (5% of the engine's time on torch's own code)
        self._folders: dict[str, Path | None] = {}
        # module file -> its importers: SC401 and SC203 ask for a file's importers once per allocation or helper, and a
        # search reads the whole project, where the stamps take a `stat` a file
        self._importers: dict[Path, ImporterSearch] = {}
        # folder -> its project's root (`_project_root`) and the dependency entries of the markers looked for
        self._roots: dict[Path, tuple[Path | None, tuple[str, ...]]] = {}
        self._recorders: list[type] = []

    # ------------------------------------------------------------------------------------------ finding files

    def module_file(self, importer: str, dotted: str, level: int) -> Path | None:
        """The file of module `dotted` imported from the file `importer` (`level` leading dots for a relative
        import); None when it is not one of the project's."""
        if importer not in self._folders:
            self._folders[importer] = _folder(importer)
        folder = self._folders[importer]
        if folder is None:
            return None
        key = (folder, dotted, level)
        if key not in self._found:
            found, looked_for = self._find(folder, dotted, level)
            # every imported name a file's analysis reads asks again: the entries are made once
            self._found[key] = found, dependencies.entries(str(path) for path in looked_for)
        found, entries = self._found[key]
        dependencies.record_again(entries)
        return found

    def _find(self, folder: Path, dotted: str, level: int) -> tuple[Path | None, tuple[Path, ...]]:
        """The module's file, and every file looked for on the way to it."""
        if level:
            base = folder
            for _ in range(level - 1):
                base = base.parent
            bases: Iterator[Path] = iter([base])
        else:
            bases = _search_folders(folder)
        looked_for: list[Path] = []
        for base in bases:
            options = _module_options(base, dotted)
            for candidate in options:
                looked_for.append(candidate)
                if candidate.is_file() and not any(part in _INSTALLED for part in candidate.parts):
                    return candidate, tuple(looked_for)
        return None, tuple(looked_for)

    # ---------------------------------------------------------------------------------------------- reading

    def summary(self, path: Path) -> Summary | None:
        """What the module's top-level statements define and use; None for a file that can't be read or parsed."""
        try:
            info = path.stat()
        except OSError:
            return None
        stamp = (info.st_size, info.st_mtime_ns)
        cached = self._summaries.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        found = _summarize(path) if info.st_size <= MAX_MODULE_BYTES else None
        self._summaries[path] = (stamp, found)
        return found

    def record_with(self, kind: type) -> None:
        """Traverse every module read from now on with the recording analysis `kind` too (the forward returns, the
        training-loop record: they register themselves), so that `ctx.analysis(kind)` of an imported module's
        context answers for it as for the linted file."""
        if kind not in self._recorders:
            self._recorders.append(kind)
            self._forget_contexts()

    @property
    def recorders(self) -> tuple[type, ...]:
        """The recording analyses registered so far, in their order. A module that reads one imports it, which
        registers it, so a lint traverses its file with these alone: a file whose rules read no training-loop
        record neither imports nor runs one."""
        return tuple(self._recorders)

    def context(self, path: Path, wanted: frozenset[str]) -> Context | None:
        """A context of the module at `path` holding the definitions of `wanted` (every definition for `*`) and what
        they use, traversed by the recording analyses (`record_with`); None when the module can't be read."""
        summary = self.summary(path)
        if summary is None:
            return None
        kept = _kept(summary, wanted)
        key = (path, self._summaries[path][0], kept)
        lines = _lines(summary, kept)
        if not dependencies.affordable(key, lines, MAX_LINES_READ):
            return None
        found = self._contexts.get(key)
        if found is not None:
            self._contexts.move_to_end(key)
            return found[0]
        text = _extract(summary, kept)
        try:
            parsed = parse_source(text)
        except (cst.ParserSyntaxError, TooComplex, SyntaxError, RecursionError, ValueError):
            return None
        ctx = Context(parsed.module, str(path))
        try:
            traverse(ctx, [ctx.analysis(kind) for kind in self._recorders])
        except RecursionError:
            return None
        self._contexts[key] = (ctx, lines)
        self._context_lines += lines
        while self._context_lines > MAX_CONTEXT_LINES and len(self._contexts) > 1:
            self._context_lines -= self._contexts.popitem(last=False)[1][1]
        return ctx

    def forget(self) -> None:
        """Read every module again (the editor saw files change)."""
        self._summaries.clear()
        self._forget_contexts()
        self._found.clear()
        self._folders.clear()
        self._importers.clear()
        import_index.forget()
        self._roots.clear()

    def _forget_contexts(self) -> None:
        self._contexts.clear()
        self._context_lines = 0


def _folder(importer: str) -> Path | None:
    try:
        return Path(importer).resolve().parent
    except (OSError, RuntimeError, ValueError):
        return None


PROJECT = Project()
dependencies.remembered(PROJECT.forget)


# Packages no project vendors: their names are never looked up among the project's files.
_OTHER_PACKAGES = frozenset({"torch", "torchvision", "torchaudio", "torchtext", "numpy", "scipy", "pandas",
                             "jaxtyping", "beartype", "einops", "transformers", "timm", "lightning",
                             "pytorch_lightning", "sklearn", "matplotlib", "tqdm", "PIL", "cv2", "jax", "tensorflow"})


def not_first_party(root: str) -> bool:
    """Whether a top-level module name is certainly another package's or Python's own, not the project's."""
    return root in _OTHER_PACKAGES or root in sys.stdlib_module_names


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import\b[ \t]*(\([\w\s,]*|[\w \t,]*)|import[ \t]+([\w.]+))",
                     re.MULTILINE)
MAX_FOLDER_MODULES = 64  # modules of a trainer's folder looked at for its callbacks (`sibling_files`)
MAX_TRIGGER_MODULES = 16  # first-party modules read for a rule's triggers (`linter.applicable`)


def first_party_texts(text: str, importer: str) -> Iterator[str]:
    """The texts of the project's modules `text` (the file `importer`) imports, and of those they import in turn
    (a package's `__init__` that re-exports its model), at most `MAX_TRIGGER_MODULES`: a cheap look, by the
    import lines alone, for what a rule's triggers need."""
    seen: set[Path] = set()
    pending = [(text, importer)]
    while pending and len(seen) < MAX_TRIGGER_MODULES:
        source, path = pending.pop()
        for found in imported_files(source, path, skip_others=True):
            if found in seen or len(seen) >= MAX_TRIGGER_MODULES:
                continue
            seen.add(found)
            summary = PROJECT.summary(found)
            if summary is not None:
                lines = "\n".join(summary.lines)
                pending.append((lines, str(found)))
                yield lines


def imported_files(text: str, importer: str, skip_others: bool = False) -> Iterator[Path]:
    """The project's module files that `text`'s import lines (in the file `importer`) name: `import a.b`, `from a
    import b`, and a submodule imported by name from a package (`from proj import models`, then `models.Net()`;
    `from . import models`) where the package's `__init__` defines no such name. With `skip_others`, modules
    certainly another package's are not looked for."""
    for match in _IMPORT.finditer(text):
        dots, module, names, plain = match.groups()
        dotted, level = plain or module or "", len(dots or "")
        if skip_others and not level and not_first_party(dotted.split(".", 1)[0]):
            continue
        found = PROJECT.module_file(importer, dotted, level)
        if found is None:
            continue
        yield found
        package = PROJECT.summary(found) if not plain and found.name == "__init__.py" else None
        for name in (names or "").lstrip("(").split(",") if package is not None else ():
            words = name.split()
            if words and words[0].isidentifier() and words[0] not in package.defined_by:
                submodule = PROJECT.module_file(importer, f"{module}.{words[0]}" if module else words[0], level)
                if submodule is not None:
                    yield submodule


def sibling_files(text: str, importer: str, near: bool = True) -> set[Path]:
    """The project's module files beside the file `importer` (its text `text`): with `near`, those it imports and the
    other modules of its folder (a trainer's package holds its hooks: detectron2's `engine/train_loop.py` and
    `engine/hooks.py`); else those that the modules importing it import (a training script builds the trainer this
    file defines and the callbacks it hands the trainer, from a module the trainer's own never imports: a search of
    the project, asked for only when the near ones do not answer). By the import lines alone."""
    found: set[Path] = set()
    if near:
        found.update(imported_files(text, importer, skip_others=True))
        folder = os.path.dirname(importer)
        if os.path.isfile(importer):
            dependencies.record_pattern(folder or ".", "*.py")
            with contextlib.suppress(OSError):
                modules = sorted(name for name in os.listdir(folder or ".")
                                 if name.endswith(".py") and name != "__init__.py")
                found.update(Path(folder, name) for name in modules[:MAX_FOLDER_MODULES])
    else:
        for path, other in importer_files(importer, partial=True):
            found.update(imported_files(other, path, skip_others=True))
    own = resolved(importer)
    return {path for path in found if resolved(str(path)) != own}


def sibling_texts(text: str, importer: str) -> Iterator[str]:
    """The texts of `sibling_files`, at most `MAX_TRIGGER_MODULES`: a cheap look for what a rule's triggers need."""
    for path in sorted(sibling_files(text, importer) | sibling_files(text, importer, near=False))[:MAX_TRIGGER_MODULES]:
        summary = PROJECT.summary(path)
        if summary is not None:
            yield "\n".join(summary.lines)


MAX_IMPORTER_SEARCH = 3000  # project files searched for the modules that import one file; past this, not known
_SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "build", "dist", *_INSTALLED})


def resolved(path: str | os.PathLike[str]) -> Path | None:
    """`path` made absolute with its links followed, to tell one module file reached by two spellings (a relative
    path, a linked folder); None where the file system refuses (a link loop, a name it cannot hold)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def importers(path: str) -> list[str] | None:
    """The texts of the project's modules that import the module at `path`: `importer_files`' texts."""
    found = importer_files(path)
    return None if found is None else [text for _, text in found]


def importer_files(path: str, partial: bool = False) -> list[tuple[str, str]] | None:
    """The paths and texts of the project's modules that import the module at `path` (by an import line that
    resolves to it), searched under the project's root (without one, the file's folder), the folders nearest the file
    first; none for a text not saved in a file (stdin, an editor's unsaved buffer). Past `MAX_IMPORTER_SEARCH` files
    the search stops: then None (not known), or with `partial` those found so far, for a caller that asks whether
    some importer does a thing (never whether all do): in a large repository the `train.py` beside a `model.py` is
    found first. Every folder searched is recorded as a dependency pattern (`*.py`), so the result cache re-lints
    the file when an importer appears, changes or goes."""
    if not os.path.isfile(path):
        return []
    target = Path(path).resolve()
    known = PROJECT._importers.get(target)
    block = dependencies.current_block()
    if known is not None and (block is None or known.block is not block):
        if dependencies.stamps(known.entries) == known.stamps:
            known.block = block
        else:
            known = None
    if known is None:
        found, complete, folders = _search_importers(target)
        entries = tuple(dependencies.pattern_entry(folder, "*.py") for folder in folders)
        known = PROJECT._importers[target] = ImporterSearch(found, complete, entries, dependencies.stamps(entries),
                                                            block)
    dependencies.record_again(known.entries)
    return known.found if known.complete or partial else None


# Package `__init__`s followed from a module to the files that import its names through them: SSD's
# `layers/modules/l2norm.py` reaches `models/ssd.py` through two (`from .modules import *`, `from layers import *`);
# each level is another search of the project.
IMPORTER_PACKAGE_LEVELS = 3


def importers_through_packages(path: str, follows: Callable[[str, str], bool], partial: bool = False
                               ) -> list[tuple[str, str, str]] | None:
    """`importer_files` of the module at `path`, then of each package `__init__` among them that `follows` (given
    its path and text) says re-exports what is looked for, up to `IMPORTER_PACKAGE_LEVELS` deep: each as (its path,
    its text, the path of the module it imports), a package's `__init__` before the modules importing it. None when
    the project is too large to search, unless `partial` (see `importer_files`)."""
    found: list[tuple[str, str, str]] = []
    pending = [(path, 0)]
    while pending:
        module, depth = pending.pop(0)
        files = importer_files(module, partial)
        if files is None:
            return None
        for importer, text in files:
            found.append((importer, text, module))
            if depth < IMPORTER_PACKAGE_LEVELS and os.path.basename(importer) == "__init__.py" \
                    and follows(importer, text):
                pending.append((importer, depth + 1))
    return found


def _search_importers(target: Path) -> tuple[list[tuple[str, str]], bool, tuple[str, ...]]:
    """`importer_files` of the module file `target`, whether the search reached every project file, and the folders
    searched."""
    root = _importers_root(target.parent)
    stem = target.parent.name if target.name == "__init__.py" else target.stem
    found: list[tuple[str, str]] = []
    searched_folders: list[str] = []
    searched = 0
    try:
        for current, files in _nearest_folders(target.parent, root):
            searched_folders.append(current)
            for name in files:
                if not name.endswith(".py"):
                    continue
                searched += 1
                if searched > MAX_IMPORTER_SEARCH:
                    return found, False, tuple(searched_folders)
                candidate = os.path.join(current, name)
                lines = import_index.lines_of(candidate)
                # the target itself is told by resolving its path, a system call a path component: asked last
                if lines is not None and _may_import(lines, target, stem) \
                        and any(path == target for path in imported_files(lines, candidate)) \
                        and Path(candidate).resolve() != target:
                    with contextlib.suppress(OSError):
                        found.append((candidate, Path(candidate).read_text(encoding="utf-8", errors="replace")))
    finally:
        import_index.save()  # what this search read, for the next run, however it ended
    return found, True, tuple(searched_folders)


# `from . import x` and `from .. import x`: a package's `__init__` imported without its name on the line
_BARE_RELATIVE = re.compile(r"^[ \t]*from[ \t]+\.+[ \t]+import\b", re.MULTILINE)


def _may_import(lines: str, target: Path, stem: str) -> bool:
    """Whether import lines `lines` may import the module file `target` (`stem` its module's last name): every import
    `imported_files` resolves to a file names that file's module on its line, but for a bare relative import of a
    package's `__init__`."""
    return stem in lines or (target.name == "__init__.py" and _BARE_RELATIVE.search(lines) is not None)


def _nearest_folders(folder: Path, root: Path) -> Iterator[tuple[str, list[str]]]:
    """The folders under `root` (`folder` or above it) with their file names, nearest `folder` first: its own tree,
    then each folder above it up to `root` with the trees beside the one already walked. Hidden, installed and
    build folders are left out below the one started from."""
    walked: str | None = None
    for top in (folder, *[above for above in folder.parents if above == root or root in above.parents]):
        for current, folders, files in os.walk(top):
            folders[:] = [name for name in folders if not name.startswith(".") and name not in _SKIPPED_FOLDERS
                          and os.path.join(current, name) != walked]
            yield current, files
        walked = str(top)


def imported_from(ctx: Context, module: str, level: int) -> set[str]:
    """The names `ctx`'s module imports from `module` (`level` leading dots), which the objects floor and the
    training-loop record both ask a module's context for, so that it is parsed once for the file."""
    prefix = "." * level + module + "."
    names = set()
    for bindings in ctx._module_scope().bindings.values():
        for binding in bindings:
            qualname = binding.qualname
            if binding.kind == "import" and qualname and qualname.startswith(prefix):
                names.add(qualname[len(prefix):].split(".", 1)[0])
    return names


def imported_constant(ctx: Context, expr: cst.BaseExpression) -> tuple[cst.BaseExpression, Context] | None:
    """The value a module of the project assigns once, at its top level and under no condition, to the name `expr`
    imports from it (`DEVICE` of `from config import DEVICE`, `settings.DEVICE` of `from pkg import settings`), with
    that module's context to read it in (at its module level); None for anything else."""
    found = _imported_binding(ctx, expr)
    if found is None:
        return None
    binding, other = found
    if binding.kind != "assign" or binding.value is None or not unconditional(binding.path):
        return None
    return binding.value, other


def imported_function(ctx: Context, expr: cst.BaseExpression) -> tuple[cst.FunctionDef, Context] | None:
    """The module-level function of a module of the project that the name `expr` imports from it (`load_data` of
    `from data import load_data`, `data.load_data` of `import data`), defined once there, with that module's
    context to read it in; None for anything else."""
    found = _imported_binding(ctx, expr)
    if found is None or found[0].kind != "def" or type(found[0].statement) is not cst.FunctionDef:
        return None
    return found[0].statement, found[1]  # type: ignore[return-value]


def _imported_binding(ctx: Context, expr: cst.BaseExpression) -> tuple[Binding, Context] | None:
    """The one module-level binding, in a module of the project, of the name `expr` imports from it, with that
    module's context; None when the name is no first-party import or the module binds it more than once."""
    qualname = ctx.qualname(expr)
    root = expr
    while type(root) is cst.Attribute:
        root = root.value
    binding = ctx.binding(root) if type(root) is cst.Name else None
    if qualname is None or binding is None or binding.kind != "import":
        return None
    level, name = split_relative(qualname)
    if not level and not_first_party(name.split(".", 1)[0]):
        return None
    for module, attribute in candidates(name):
        path = PROJECT.module_file(ctx.filename, module, level) if "." not in attribute else None
        if path is None:
            continue
        other = PROJECT.context(path, frozenset({attribute}))
        bindings = other._module_scope().bindings.get(attribute, []) if other is not None else []
        return (bindings[0], other) if len(bindings) == 1 else None  # type: ignore[return-value]
    return None


def split_relative(qualname: str) -> tuple[int, str]:
    """`..pkg.model.Net` -> (2, "pkg.model.Net")."""
    stripped = qualname.lstrip(".")
    return len(qualname) - len(stripped), stripped


def candidates(qualname: str) -> Iterator[tuple[str, str]]:
    """The ways to read a dotted name as module + attribute path, the longest module first: `a.b.C` gives
    ("a.b", "C"), ("a", "b.C")."""
    parts = qualname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        yield ".".join(parts[:cut]), ".".join(parts[cut:])


# ----------------------------------------------------------------------------------------------- the files


def _above_packages(folder: Path) -> Path:
    """The folder a module of `folder` is imported from without a project root: above the packages holding it
    (`train.py` beside `pkg/` imports `pkg/model.py`), else its own."""
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


def _importers_root(folder: Path) -> Path:
    """The folder the modules importing a module of `folder` are searched under: the project's root, else the one
    above the packages holding it, or above that a `src/` folder of no `__init__.py` (`from src.forecast import
    Forecaster` in the `run.py` beside `src/`)."""
    root = _project_root(folder)
    if root is not None:
        return root
    above = _above_packages(folder)
    return above.parent if above.name == "src" and above.parent != above else above


def _project_root(folder: Path) -> Path | None:
    # every module a file's analysis looks up asks again, each time a `stat` a marker and a folder above
    found = PROJECT._roots.get(folder)
    if found is None:
        root, looked_for = None, []
        for candidate in (folder, *folder.parents):
            for marker in ROOT_MARKERS:
                looked_for.append(candidate / marker)
                if looked_for[-1].exists():
                    root = candidate
                    break
            if root is not None:
                break
        # the markers looked for are what the file's result depends on: a `git init` or a pyproject.toml added
        # above moves the root, and with it the modules found and the importers searched
        found = PROJECT._roots[folder] = (root, dependencies.entries(str(path) for path in looked_for))
    dependencies.record_again(found[1])
    return found[0]


def _search_folders(folder: Path) -> Iterator[Path]:
    """The folders a module is looked up in: the file's own, then each above it up to the project's root, then the
    root's `src/`. Without a root, the file's folder and the one above the packages holding it, where a script run
    beside them puts them on the path (`layers/__init__.py`'s `from layers.convnd import Conv4d`)."""
    yield folder
    root = _project_root(folder)
    if root is None:
        above = _above_packages(folder)
        if above != folder:
            yield above
        return
    for parent in folder.parents:
        if root != parent and root not in parent.parents:
            break
        yield parent
        if parent == root:
            break
    if (root / "src").is_dir():
        yield root / "src"


def _module_options(base: Path, dotted: str) -> tuple[Path, ...]:
    """`base/a/b/__init__.py` and `base/a/b.py` for "a.b" (a package first, as Python's finder looks);
    `base/__init__.py` for "" (`from . import x`); none for a name that is no module path."""
    parts = [part for part in dotted.split(".") if part]
    if not all(part.isidentifier() for part in parts):
        return ()
    if parts:
        target = base.joinpath(*parts)
        return target / "__init__.py", target.with_suffix(".py")
    return (base / "__init__.py",)


def _summarize(path: Path) -> Summary | None:
    try:
        data = path.read_bytes()
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
        tree = ast.parse(text, os.fspath(path))
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError, ValueError, RecursionError, MemoryError):
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    statements = []
    defined_by: dict[str, list[int]] = {}
    for index, node in enumerate(tree.body):
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        end = node.end_lineno or node.lineno
        defines, uses = _names(node)
        for name in defines:
            defined_by.setdefault(name, []).append(index)
        statements.append(Statement(start, end, frozenset(defines), frozenset(uses),
                                    isinstance(node, (ast.Import, ast.ImportFrom))))
    return Summary(tuple(text.splitlines()), tuple(statements),
                   {name: tuple(indices) for name, indices in defined_by.items()},
                   frozenset(index for index, statement in enumerate(statements) if statement.imports),
                   sum(statement.end - statement.start + 1 for statement in statements))


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _names(node: ast.stmt) -> tuple[set[str], set[str]]:
    """The names a top-level statement binds and those it reads, in one walk of it."""
    defines: set[str] = set()
    uses: set[str] = set()
    if isinstance(node, _DEFINITIONS):
        defines.add(node.name)
    for child in ast.walk(node):
        kind = type(child)
        if kind is ast.Name:
            if type(child.ctx) is ast.Load:
                uses.add(child.id)
            elif type(child.ctx) is ast.Store and not isinstance(node, _DEFINITIONS):
                defines.add(child.id)
        elif kind is ast.Global:  # a function that may bind the module's name anew: a context holding it needs it
            defines.update(child.names)
        elif isinstance(node, _DEFINITIONS):
            continue
        elif kind is ast.Import or kind is ast.ImportFrom:
            defines.update((alias.asname or alias.name).split(".")[0] for alias in child.names)
        elif isinstance(child, _DEFINITIONS) and child is not node:
            defines.add(child.name)
    return defines, uses


def _kept(summary: Summary, wanted: frozenset[str]) -> frozenset[int]:
    """The statements a context holding `wanted` keeps: those defining `wanted` and those they use, transitively,
    and every import. Where they are most of the module's lines, every statement: a module that large definitions
    draw on (torch's own `_dynamo/eval_frame.py`: 2,100 of its 2,438 non-blank lines for one class) is then parsed once for
    all the names asked of it, where each name, and each set of names a file imports, had its own parse of nearly
    the whole file (a first run over torch's tree spent most of its time there: 104 parses for one file)."""
    everything = frozenset(range(len(summary.statements)))
    if "*" in wanted:
        return everything
    keep: set[int] = set()
    pending = set(wanted)
    done: set[str] = set()
    while pending:
        name = pending.pop()
        done.add(name)
        for index in summary.defined_by.get(name, ()):
            if index not in keep:
                keep.add(index)
                pending |= summary.statements[index].uses - done
    keep |= summary.imports
    if 2 * _lines(summary, keep) > summary.total_lines:
        return everything
    return frozenset(keep)


def _lines(summary: Summary, kept: Iterable[int]) -> int:
    return sum(summary.statements[index].end - summary.statements[index].start + 1 for index in kept)


def _extract(summary: Summary, kept: frozenset[int]) -> str:
    """The module's text with only the statements `kept`; other lines are left blank, so every kept line keeps its
    number."""
    lines = [""] * len(summary.lines)
    for index in kept:
        statement = summary.statements[index]
        for row in range(statement.start - 1, min(statement.end, len(lines))):
            lines[row] = summary.lines[row]
    return "\n".join(lines) + "\n"
