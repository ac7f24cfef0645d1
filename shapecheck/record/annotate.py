"""Write recorded shapes into the source as jaxtyping annotations, keeping formatting and comments (libcst).

`annotate_source` is the pure core (source in, source out); `annotate_paths` applies it to the files a record
covers. A file whose hash differs from the one recorded is refused: its functions may have moved or changed, and
annotations from another version of the code would be guesses.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from shapecheck.record import hints, layout, reading
from shapecheck.record.infer import Annotations, Slot, Spelling, infer
from shapecheck.record.store import FunctionRecord, file_hash

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass
class FileResult:
    path: Path
    old: str
    new: str
    functions: list[str] = field(default_factory=list)  # qualnames that gained an annotation
    notes: list[str] = field(default_factory=list)
    error: str | None = None

    def diff(self) -> str:
        return "".join(difflib.unified_diff(self.old.splitlines(keepends=True), self.new.splitlines(keepends=True),
                                            f"a/{self.path}", f"b/{self.path}"))


def annotate_paths(records: dict[str, FunctionRecord], paths: Sequence[str | Path], *, overwrite: bool = False,
                   decorate: bool = False, keep_plain: bool = False) -> list[FileResult]:
    """One result per recorded file under `paths` (files or folders); nothing is written here."""
    roots = [Path(path).resolve() for path in paths]
    by_file: dict[Path, list[FunctionRecord]] = {}
    for record in records.values():
        file = Path(record.file)
        if any(file == root or root in file.parents for root in roots):
            by_file.setdefault(file, []).append(record)
    results = []
    for file, file_records in sorted(by_file.items()):
        try:
            old = file.read_text(encoding="utf-8")
            current = file_hash(file)
        except (OSError, UnicodeDecodeError) as error:
            results.append(FileResult(file, "", "", error=f"cannot read it ({error})"))
            continue
        if any(record.file_hash != current for record in file_records):
            results.append(FileResult(file, old, old, error="changed since it was recorded: record again"))
            continue
        project = _project_settings(file)
        results.append(annotate_source(old, file_records, file, overwrite=overwrite, decorate=decorate,
                                       keep_plain=keep_plain, line_length=project[0], first_party=project[1]))
    return results


def annotate_source(source: str, records: Iterable[FunctionRecord], path: Path = Path("<source>"), *,
                    overwrite: bool = False, decorate: bool = False, keep_plain: bool = False,
                    line_length: int = 88, first_party: Sequence[str] = ()) -> FileResult:
    by_qualname = {record.qualname: record for record in records}
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        return FileResult(path, source, source, error=f"does not parse ({error.message})")
    functions = _functions(module)
    spelling = hints.spelling(module, source)
    annotations = _infer_file(by_qualname, functions, spelling)
    writer = _Writer(annotations, functions, overwrite, decorate, keep_plain, _tensor_spelling(module), spelling,
                     line_length, layout.trailing_comma_safe(source))
    new_module = module.visit(writer)
    result = FileResult(path, source, source, writer.functions, writer.notes)
    if writer.functions:
        new_module = layout.add_imports(new_module, writer.needed_imports(), first_party, line_length)
        result.new = new_module.code
        try:
            compile(result.new, str(path), "exec", dont_inherit=True)
        except SyntaxError as error:  # never write a file that no longer parses
            return FileResult(path, source, source, error=f"annotating it would break it ({error.msg})")
    return result


def _project_settings(file: Path) -> tuple[int, list[str]]:
    """black's line length and the first-party top-level names (isort's sections) of the project holding `file`:
    the nearest folder above it with a pyproject.toml, setup.py, setup.cfg or .git."""
    for folder in file.parents:
        markers = [folder / name for name in ("pyproject.toml", "setup.py", "setup.cfg", ".git")]
        if any(marker.exists() for marker in markers):
            config = None
            if markers[0].is_file():
                try:
                    config = tomllib.loads(markers[0].read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                    config = None
            names = sorted({child.stem for child in folder.iterdir() if child.suffix == ".py" or
                            (child.is_dir() and (child / "__init__.py").exists())})
            return layout.line_length(config), names
    return 88, []


def _functions(module: cst.Module) -> dict[str, tuple[cst.FunctionDef, str | None]]:
    """Every function of the module by qualname, with the name of the class it is a method of."""
    found: dict[str, tuple[cst.FunctionDef, str | None]] = {}

    def visit(body: Sequence[cst.CSTNode], scope: str, class_name: str | None) -> None:
        for statement in body:
            if isinstance(statement, cst.FunctionDef):
                qualname = f"{scope}{statement.name.value}"
                found.setdefault(qualname, (statement, class_name))
                visit(_block(statement), f"{qualname}.<locals>.", None)
            elif isinstance(statement, cst.ClassDef):
                qualname = f"{scope}{statement.name.value}"
                visit(_block(statement), f"{qualname}.", qualname)
            elif isinstance(statement, (cst.If, cst.Try, cst.With)):
                for block in (statement.body, getattr(statement, "orelse", None)):
                    if block is not None:
                        visit(_block(block), scope, class_name)

    visit(module.body, "", None)
    return found


def _block(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    body = getattr(node, "body", ())
    return getattr(body, "body", body) if not isinstance(body, Sequence) else body


def _infer_file(records: dict[str, FunctionRecord], functions: dict[str, tuple[cst.FunctionDef, str | None]],
                spelling: Spelling) -> dict[str, Annotations]:
    """Annotations for each recorded function of a file, where a size a caller passes on unchanged to another
    function of the file takes the caller's symbol there too (else the linter would see `n_embd` passed where `32`
    is required): inferred again with the callers' symbols until nothing changes (a few rounds for a call chain)."""
    present = {qualname: record for qualname, record in records.items() if qualname in functions}
    generic = _generic_helpers(functions)
    names = {qualname: reading.code_names(functions[qualname][0]) for qualname in present}
    calls = {qualname: reading.passed_on(functions[qualname][0], functions[qualname][1], set(present))
             for qualname in present}
    inherited: dict[str, dict[Slot, str]] = {}
    result: dict[str, Annotations] = {}
    for _ in range(4):
        result = {qualname: infer(record, names[qualname], inherited.get(qualname, {}), spelling)
                  for qualname, record in present.items()}
        passed = _passed_symbols(result, calls, present)
        if passed == inherited:
            break
        inherited = passed
    for qualname, found in result.items():
        function = functions[qualname][0]
        if reading.passes_through(function, [name for name in found.params if name != "self"], generic):
            result[qualname] = Annotations()  # a generic helper: any value goes through it
    return result


def _generic_helpers(functions: dict[str, tuple[cst.FunctionDef, str | None]]) -> set[str]:
    """Module-level functions that only pass their arguments through (`exists`, `default`), found to a fixpoint."""
    generic: set[str] = set()
    while True:
        # Such helpers are a line or two; a longer function does something with its arguments.
        found = {qualname for qualname, (function, class_name) in functions.items() if class_name is None
                 and "." not in qualname and len(getattr(function.body, "body", ())) <= 3
                 and reading.passes_through(function, reading.parameters(function), generic)}
        if found == generic:
            return generic
        generic = found


def _passed_symbols(result: dict[str, Annotations], calls: dict[str, list[reading.PassedOn]],
                    records: dict[str, FunctionRecord]) -> dict[str, dict[Slot, str]]:
    passed: dict[str, dict[Slot, str]] = {}
    for caller, found in calls.items():
        symbols = result[caller].symbols
        for call in found:
            params = [name for name in records[call.callee].params if name != "self"]
            targets = {params[index]: name for index, name in call.positional.items() if index < len(params)}
            targets.update({keyword: name for keyword, name in call.keywords.items() if keyword in params})
            for target, source in targets.items():
                for (parameter, axis), symbol in symbols.items():
                    if parameter == source:
                        passed.setdefault(call.callee, {}).setdefault((target, axis), symbol)
    return passed


class _Writer(cst.CSTTransformer):
    def __init__(self, annotations: dict[str, Annotations], functions: dict[str, tuple[cst.FunctionDef, str | None]],
                 overwrite: bool, decorate: bool, keep_plain: bool, tensor: str, spelling: Spelling,
                 line_length: int, comma_safe: bool) -> None:
        self.annotations = annotations
        self.by_node = {id(function): qualname for qualname, (function, _) in functions.items()}
        self.overwrite = overwrite
        self.decorate = decorate
        self.keep_plain = keep_plain
        self.tensor = tensor
        self.spelling = spelling
        self.line_length = line_length
        self.comma_safe = comma_safe
        self.depth = 0
        self.functions: list[str] = []
        self.notes: list[str] = []
        self.dtypes: set[str] = set()
        self.optional = False

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.depth += 1

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        self.depth -= 1
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        qualname = self.by_node.get(id(original))
        annotations = self.annotations.get(qualname) if qualname is not None else None
        if annotations is None:
            return updated
        self.notes += annotations.notes
        changed = False
        params = updated.params
        for field_name in ("params", "kwonly_params", "posonly_params"):
            new_params = []
            for param in getattr(params, field_name):
                text = annotations.params.get(param.name.value)
                hint = self._hint(text, param.annotation, param.default) if text is not None else None
                if hint is not None:
                    param = param.with_changes(annotation=cst.Annotation(hint))
                    if param.default is not None:  # PEP 8: `x: T = None`, where the unannotated form is `x=None`
                        param = param.with_changes(equal=cst.AssignEqual(cst.SimpleWhitespace(" "),
                                                                         cst.SimpleWhitespace(" ")))
                    changed = True
                new_params.append(param)
            params = params.with_changes(**{field_name: tuple(new_params)})
        updated = updated.with_changes(params=params)
        hint = self._hint(annotations.returns, updated.returns, None) if annotations.returns is not None else None
        if hint is not None:
            updated = updated.with_changes(returns=cst.Annotation(hint))
            changed = True
        if not changed:
            return updated
        assert qualname is not None
        self.functions.append(qualname)
        self.dtypes |= annotations.dtypes
        if self.decorate and not any(_is_check(decorator.decorator) for decorator in updated.decorators):
            check = cst.Decorator(cst.parse_expression("shapecheck.check"))
            updated = updated.with_changes(decorators=(*updated.decorators, check))
        return layout.wrap_signature(updated, original, "    " * self.depth, self.line_length, self.comma_safe)

    def _hint(self, text: str, existing: cst.Annotation | None, default: cst.BaseExpression | None
              ) -> cst.BaseExpression | None:
        """The hint to write for a parameter or return value, or None to leave it as it is: an existing hint is kept
        unless it is a plain `Tensor` one of the same structure (upgraded unless --keep-plain) or --overwrite says
        so, and stays Optional if it was; a default of None makes the hint Optional; another default that the hint
        would not admit (`= 0`, `= ()`) leaves the parameter alone."""
        expression = cst.parse_expression(text.replace("Tensor,", f"{self.tensor},"))
        inferred = hints.structure(expression)
        optional = False
        if existing is not None:
            old = existing.annotation
            found = hints.structure(old)
            if hints.is_jaxtyping(old) and not self.overwrite:
                return None
            if hints.is_plain(old) and not self.overwrite and (self.keep_plain or not hints.fits(found, inferred)):
                return None
            if not hints.is_plain(old) and not hints.is_jaxtyping(old) and not self.overwrite:
                return None
            optional = hints.is_optional(found)
        if default is not None:
            if isinstance(default, cst.Name) and default.value == "None":
                optional = True
            elif not (isinstance(default, cst.List) and inferred is not None and inferred[0] == "list"):
                return None
        if optional and not hints.is_optional(inferred):
            expression = cst.parse_expression(f"{_code(expression)} | None" if self.spelling.union else
                                              f"Optional[{_code(expression)}]")
        if "Optional[" in _code(expression):
            self.optional = True
        return expression

    def needed_imports(self) -> list[tuple[str, str | None]]:
        imports: list[tuple[str, str | None]] = [("jaxtyping", name) for name in sorted(self.dtypes)]
        if self.tensor == "Tensor":
            imports.append(("torch", "Tensor"))
        if self.optional:
            imports.append(("typing", "Optional"))
        if self.decorate:
            imports.append(("shapecheck", None))
        return imports


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _is_check(decorator: cst.BaseExpression) -> bool:
    if isinstance(decorator, cst.Call):
        decorator = decorator.func
    return isinstance(decorator, (cst.Attribute, cst.Name)) and cst.Module([]).code_for_node(decorator) in (
        "shapecheck.check", "check")


def _tensor_spelling(module: cst.Module) -> str:
    """`Tensor` when the file has `from torch import Tensor` or no other `Tensor`; else `torch.Tensor`."""
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    bound = alias.asname.name.value if alias.asname else cst.Module([]).code_for_node(alias.name)
                    if bound == "Tensor":
                        module_name = cst.Module([]).code_for_node(small.module) if small.module else ""
                        return "Tensor" if module_name == "torch" and alias.asname is None else "torch.Tensor"
    return "Tensor"
