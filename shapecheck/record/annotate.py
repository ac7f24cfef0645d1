"""Write recorded shapes into the source as jaxtyping annotations, keeping formatting and comments (libcst).

`annotate_source` is the pure core (source in, source out); `annotate_paths` applies it to the files a record
covers. A file whose hash differs from the one recorded is refused: its functions may have moved or changed, and
annotations from another version of the code would be guesses.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from shapecheck.record.infer import Annotations, Slot, infer
from shapecheck.record.store import FunctionRecord, file_hash


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
                   decorate: bool = False) -> list[FileResult]:
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
        results.append(annotate_source(old, file_records, file, overwrite=overwrite, decorate=decorate))
    return results


def annotate_source(source: str, records: Iterable[FunctionRecord], path: Path = Path("<source>"), *,
                    overwrite: bool = False, decorate: bool = False) -> FileResult:
    by_qualname = {record.qualname: record for record in records}
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        return FileResult(path, source, source, error=f"does not parse ({error.message})")
    writer = _Writer(by_qualname, overwrite, decorate, _tensor_spelling(module))
    new_module = module.visit(writer)
    result = FileResult(path, source, source, writer.functions, writer.notes)
    if writer.functions:
        new_module = _add_imports(new_module, writer.needed_imports())
        result.new = new_module.code
        try:
            compile(result.new, str(path), "exec", dont_inherit=True)
        except SyntaxError as error:  # never write a file that no longer parses
            return FileResult(path, source, source, error=f"annotating it would break it ({error.msg})")
    return result


class _Writer(cst.CSTTransformer):
    def __init__(self, records: dict[str, FunctionRecord], overwrite: bool, decorate: bool, tensor: str) -> None:
        self.records = records
        self.overwrite = overwrite
        self.decorate = decorate
        self.tensor = tensor
        self.scope: list[str] = []
        self.functions: list[str] = []
        self.notes: list[str] = []
        self.dtypes: set[str] = set()
        self.optional = False

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.append(self._qualified(node.name.value))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.scope.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.append(self._qualified(node.name.value) + ".<locals>")

    def _qualified(self, name: str) -> str:
        # Python's qualnames: `Class.method`, and `outer.<locals>.inner` for a function defined in a function.
        return f"{self.scope[-1]}.{name}" if self.scope else name

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        qualname = self.scope.pop().removesuffix(".<locals>")
        record = self.records.get(qualname)
        if record is None:
            return updated
        annotations = infer(record, code_names(original))
        self.notes += annotations.notes
        changed = False
        params = updated.params
        for field_name in ("params", "kwonly_params", "posonly_params"):
            new_params = []
            for param in getattr(params, field_name):
                text = annotations.params.get(param.name.value)
                if text is not None and (param.annotation is None or self.overwrite):
                    param = param.with_changes(annotation=cst.Annotation(self._expression(text)))
                    if param.default is not None:  # PEP 8: `x: T = None`, where the unannotated form is `x=None`
                        param = param.with_changes(equal=cst.AssignEqual(cst.SimpleWhitespace(" "),
                                                                         cst.SimpleWhitespace(" ")))
                    changed = True
                new_params.append(param)
            params = params.with_changes(**{field_name: tuple(new_params)})
        updated = updated.with_changes(params=params)
        if annotations.returns is not None and (updated.returns is None or self.overwrite):
            updated = updated.with_changes(returns=cst.Annotation(self._expression(annotations.returns)))
            changed = True
        if not changed:
            return updated
        self.functions.append(qualname)
        self.dtypes |= annotations.dtypes
        self.optional |= annotations.optional
        if self.decorate and not any(_is_check(decorator.decorator) for decorator in updated.decorators):
            check = cst.Decorator(cst.parse_expression("shapecheck.check"))
            updated = updated.with_changes(decorators=(*updated.decorators, check))
        return updated

    def _expression(self, text: str) -> cst.BaseExpression:
        return cst.parse_expression(text.replace("Tensor,", f"{self.tensor},"))

    def needed_imports(self) -> list[str]:
        imports = []
        if self.dtypes:
            imports.append(f"from jaxtyping import {', '.join(sorted(self.dtypes))}")
        if self.tensor == "Tensor":
            imports.append("from torch import Tensor")
        if self.optional:
            imports.append("from typing import Optional")
        if self.decorate:
            imports.append("import shapecheck")
        return imports


def code_names(function: cst.FunctionDef) -> dict[Slot, str]:
    """The names a function's own body gives its parameters' sizes: `B, T, C = x.size()` / `x.shape`,
    `n = x.size(0)`, `d = x.shape[-1]`. Nested functions and classes are not looked into."""
    params = {param.name.value for param in (*function.params.params, *function.params.kwonly_params,
                                             *function.params.posonly_params)}
    names: dict[Slot, str] = {}
    for statement in _own_statements(function.body):
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                continue
            target, value = small.targets[0].target, small.value
            if isinstance(target, (cst.Tuple, cst.List)):
                tensor = _whole_shape_of(value)
                if tensor in params:
                    for axis, element in enumerate(target.elements):
                        if isinstance(element, cst.StarredElement):
                            break
                        if isinstance(element.value, cst.Name) and element.value.value != "_":
                            names.setdefault((tensor, axis), element.value.value)
            elif isinstance(target, cst.Name):
                found = _one_size_of(value)
                if found is not None and found[0] in params:
                    names.setdefault(found, target.value)
    return names


def _own_statements(block: cst.BaseSuite) -> Iterable[cst.BaseStatement]:
    for statement in getattr(block, "body", ()):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        yield statement
        for attribute in ("body", "orelse", "finalbody"):
            inner = getattr(statement, attribute, None)
            if isinstance(inner, cst.BaseSuite):
                yield from _own_statements(inner)
            elif inner is not None and hasattr(inner, "body"):  # else/finally clauses wrap their block
                yield from _own_statements(inner.body)
        for handler in getattr(statement, "handlers", ()):
            yield from _own_statements(handler.body)


def _whole_shape_of(value: cst.BaseExpression) -> str | None:
    """`x.shape` / `x.size()` -> "x"."""
    if isinstance(value, cst.Call) and not value.args:
        value = value.func
        if isinstance(value, cst.Attribute) and value.attr.value == "size" and isinstance(value.value, cst.Name):
            return value.value.value
        return None
    if isinstance(value, cst.Attribute) and value.attr.value == "shape" and isinstance(value.value, cst.Name):
        return value.value.value
    return None


def _one_size_of(value: cst.BaseExpression) -> Slot | None:
    """`x.size(1)` / `x.shape[1]` / `x.shape[-1]` -> ("x", 1) / ("x", -1)."""
    index: cst.BaseExpression | None = None
    tensor: cst.BaseExpression | None = None
    if isinstance(value, cst.Call) and len(value.args) == 1 and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value == "size":
        tensor, index = value.func.value, value.args[0].value
    elif isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.value, cst.Attribute) and value.value.attr.value == "shape":
        tensor, index = value.value.value, value.slice[0].slice.value
    if not isinstance(tensor, cst.Name) or index is None:
        return None
    sign = 1
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
        sign, index = -1, index.expression
    if not isinstance(index, cst.Integer):
        return None
    return tensor.value, sign * int(index.value)


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


def _add_imports(module: cst.Module, imports: list[str]) -> cst.Module:
    """Add each import unless the module already has it; names missing from an existing `from X import ...` are
    added to it. New statements go after the last top-level import (or the docstring and `__future__` imports)."""
    body = list(module.body)
    last_import = -1
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and any(
                isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
            last_import = index
        elif isinstance(statement, cst.SimpleStatementLine) and index == 0 and isinstance(
                statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString):
            last_import = max(last_import, 0)
        elif not isinstance(statement, cst.SimpleStatementLine) or last_import >= 0:
            break
    additions = []
    for text in imports:
        wanted = cst.parse_statement(text)
        small = wanted.body[0]
        done = False
        for index, statement in enumerate(body):
            existing = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
            if isinstance(small, cst.Import) and isinstance(existing, cst.Import) and \
                    statement.deep_equals(wanted):
                done = True
            elif isinstance(small, cst.ImportFrom) and isinstance(existing, cst.ImportFrom) and existing.module \
                    and existing.module.deep_equals(small.module) and not existing.relative \
                    and not isinstance(existing.names, cst.ImportStar):
                have = {cst.Module([]).code_for_node(alias.name) for alias in existing.names if alias.asname is None}
                missing = [alias for alias in small.names if cst.Module([]).code_for_node(alias.name) not in have]
                if missing:
                    names = [*existing.names[:-1], existing.names[-1].with_changes(comma=cst.Comma(
                        whitespace_after=cst.SimpleWhitespace(" "))), *missing]
                    names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    body[index] = statement.with_changes(body=[existing.with_changes(names=names)])
                done = True
            if done:
                break
        if not done:
            additions.append(wanted)
    body[last_import + 1:last_import + 1] = additions
    return module.with_changes(body=body)
