"""SC402 deprecated-cuda-amp: `torch.cuda.amp.autocast` / `GradScaler` / `custom_fwd` / `custom_bwd`."""

from __future__ import annotations

from dataclasses import field

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name, keyword_arg, last_name, new_keyword_arg
from shapecheck.engine.walker import walk

MEMBERS = frozenset({"autocast", "GradScaler", "custom_fwd", "custom_bwd"})
# Where the deprecated classes and decorators live: the package and the modules that define them.
_MODULES = ("torch.cuda.amp", "torch.cuda.amp.autocast_mode", "torch.cuda.amp.grad_scaler")
DEPRECATED = frozenset(f"{module}.{member}" for module in _MODULES for member in MEMBERS)
# `torch.cuda.amp.autocast(enabled, dtype, cache_enabled)` vs `torch.amp.autocast(device_type, dtype, enabled, ...)`:
# positional arguments must become keywords.
_AUTOCAST_POSITIONAL = ("enabled", "dtype", "cache_enabled")
_CUDA = '"cuda"'

Replacement = tuple[cst.CSTNode, cst.CSTNode]


class _Unfixable(Exception):
    """A use that can't be rewritten (`autocast` passed around uncalled, `*args`): report without a fix."""


@record
class _Import:
    """An import of `torch.cuda.amp` names, the uses of what it binds, and how to rewrite them all."""

    statement: cst.Import | cst.ImportFrom
    rewrite: Replacement | None  # of the statement (or of its alias); None once some use can't be rewritten
    names: dict[str, str]  # local name -> the member it is ("autocast", ...) or "" for the module itself
    deprecated: bool
    uses: list[Replacement] = field(default_factory=list)


class DeprecatedCudaAmp(Rule):
    code = "SC402"
    name = "deprecated-cuda-amp"
    severity = "warning"  # a deprecated spelling that still works
    message = ("`torch.cuda.amp` is deprecated: use `torch.amp` and pass the device (`autocast(\"cuda\")`, "
               "`GradScaler(\"cuda\")`, `custom_fwd(device_type=\"cuda\")`)")
    fixable = "safe"
    triggers = ("cuda.amp", "cuda import amp")
    # The visits gather the imports of torch.cuda.amp names and their uses; `finish` decides the imports' findings
    # and fixes with the whole file.
    scope = "statement"
    gathered = ("_events",)
    docs = """
        ## What it does
        Finds the deprecated CUDA-only mixed-precision API: `torch.cuda.amp.autocast(...)`,
        `torch.cuda.amp.GradScaler(...)`, `torch.cuda.amp.custom_fwd` / `custom_bwd`, and imports of them
        (`from torch.cuda.amp import autocast, GradScaler`, `from torch.cuda import amp`).

        ## Why is this bad?
        Since PyTorch 2.4 they emit "FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated. Please use
        `torch.amp.autocast('cuda', args...)` instead." and will be removed. One primer still teaches
        `from torch.cuda.amp import autocast, GradScaler`; another already uses the replacement
        `from torch.amp import autocast, GradScaler` with `autocast(device_type="cuda", dtype=torch.float16)`.

        An import inside a `try`/`if` that also reaches `torch.amp` (a fallback for old PyTorch) is not reported.

        ## Example
        ```python
        from torch.cuda.amp import autocast, GradScaler
        scaler = GradScaler()
        with autocast():
            loss = model(x)
        ```

        ## Use instead
        ```python
        from torch.amp import autocast, GradScaler
        scaler = GradScaler("cuda")
        with autocast("cuda"):
            loss = model(x)
        ```

        ## Fix
        Safe: `torch.cuda.amp.X` becomes `torch.amp.X` with the device passed: `autocast("cuda", ...)` (its
        positional arguments become `enabled=` / `dtype=` / `cache_enabled=`, which `torch.amp.autocast`
        orders differently), `GradScaler("cuda", ...)`, `custom_fwd(device_type="cuda", ...)` (a bare
        `@custom_fwd` gets the call). An import is rewritten together with every use of the names it binds,
        and only when all of them can be: an `autocast` passed around uncalled, for one, is reported without a
        fix.
    """
    VALID = [
        """
        import torch
        from torch.amp import autocast, GradScaler
        scaler = GradScaler()
        with autocast(device_type="cuda", dtype=torch.float16):
            loss = model(x)
        """,
        """
        import torch
        scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = model(x)
        """,
        """
        import torch
        class NativeScaler:
            def __init__(self, device="cuda"):
                try:
                    self._scaler = torch.amp.GradScaler(device=device)
                except (AttributeError, TypeError):
                    self._scaler = torch.cuda.amp.GradScaler()
        """,
        """
        import torch
        try:
            from torch.amp import custom_fwd, custom_bwd
        except ImportError:
            from torch.cuda.amp import custom_fwd, custom_bwd
        """,
        """
        import torch
        # dynamo's table of context managers refers to the class without using it
        SUPPORTED = {torch.cuda.amp.autocast, torch.cpu.amp.autocast}
        if torch.cuda.amp.common.amp_definitely_not_available():
            enabled = False
        """,
        """
        import torch
        with torch.cpu.amp.autocast():
            out = model(x)
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
            """,
            fixed="""
            import torch
            scaler = torch.amp.GradScaler("cuda", enabled=(dtype == 'float16'))
            """,
        ),
        Invalid(
            """
            import torch
            from torch.cuda.amp import autocast, GradScaler
            scaler = GradScaler()
            for x, y in loader:
                with autocast():
                    loss = criterion(model(x), y)
                scaler.scale(loss).backward()
            """,
            fixed="""
            import torch
            from torch.amp import autocast, GradScaler
            scaler = GradScaler("cuda")
            for x, y in loader:
                with autocast("cuda"):
                    loss = criterion(model(x), y)
                scaler.scale(loss).backward()
            """,
        ),
        Invalid(
            """
            import torch
            from torch.cuda import amp
            from typing import Optional
            scaler: Optional[amp.GradScaler] = amp.GradScaler()
            with amp.autocast(use_amp):
                out = model(x)
            """,
            fixed="""
            import torch
            from torch import amp
            from typing import Optional
            scaler: Optional[amp.GradScaler] = amp.GradScaler("cuda")
            with amp.autocast("cuda", enabled=use_amp):
                out = model(x)
            """,
        ),
        Invalid(
            """
            import torch
            class Fn(torch.autograd.Function):
                @staticmethod
                @torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)
                def forward(ctx, x):
                    return x
                @staticmethod
                @torch.cuda.amp.custom_bwd
                def backward(ctx, grad):
                    return grad
            """,
            fixed="""
            import torch
            class Fn(torch.autograd.Function):
                @staticmethod
                @torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)
                def forward(ctx, x):
                    return x
                @staticmethod
                @torch.amp.custom_bwd(device_type="cuda")
                def backward(ctx, grad):
                    return grad
            """,
            count=2,
        ),
        # `autocast` is handed around uncalled: `"cuda"` has nowhere to go, so the import is only reported.
        """
        import contextlib
        import torch
        from torch.cuda.amp import autocast
        ctx = autocast if use_amp else contextlib.nullcontext
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # ("import", statement, its rewrite, (local name, member) pairs, deprecated): an import of torch.cuda.amp
        # names; ("use", import statement, local name, the import still rewritable, deprecated, the use's
        # replacement): a use of one. `finish` replays them in order.
        self._events: list[tuple] = []

    # ------------------------------------------------------------------------------------------------ imports

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._track(node)

    def visit_Import(self, node: cst.Import) -> None:
        self._track(node)

    def _track(self, node: cst.Import | cst.ImportFrom) -> None:
        for rewrite, names, deprecated in _amp_imports(node):
            if self._compatibility_fallback():
                return
            self._events.append(("import", node, rewrite, tuple(names.items()), deprecated))

    # --------------------------------------------------------------------------------------------------- uses

    def visit_Name(self, node: cst.Name) -> None:
        if node.value not in self.ctx.module_fact(_AMP_NAMES, _amp_names):
            return
        ctx = self.ctx
        parent = ctx.parent
        if (type(parent) is cst.Attribute and parent.attr is node or type(parent) is cst.Arg and parent.keyword is node
                or type(parent) in (cst.ImportAlias, cst.AsName)):
            return  # not a reference to the imported name
        binding = ctx.binding(node)
        statement = binding.statement if binding is not None else None
        if type(statement) not in (cst.Import, cst.ImportFrom):
            return
        member = next((names[node.value] for _, names, _ in _amp_imports(statement) if node.value in names), None)
        if member is None:
            return
        expr, outer = node, parent
        if member and member not in MEMBERS:
            return  # `from torch.cuda.amp.grad_scaler import OptState` is not deprecated
        if not member:  # the module: `amp.autocast(...)`
            if type(parent) is not cst.Attribute or parent.attr.value not in MEMBERS:
                self._events.append(("use", statement, node.value, False, False, None))  # `amp.common`: torch.amp
                return                                                                   # has no such thing
            member, expr, outer = parent.attr.value, parent, ctx.ancestors[-3]
        try:
            replacement = _rewrite_use(member, expr, outer, expr)
        except _Unfixable:
            self._events.append(("use", statement, node.value, False, True, None))
            return
        if replacement is not None:  # a call or a decorator: a `GradScaler` annotation warns about nothing
            self._events.append(("use", statement, node.value, True, True, replacement))

    def visit_Call(self, node: cst.Call) -> None:
        if last_name(node.func) in MEMBERS:
            self._check_dotted(node.func, node)

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if last_name(node.decorator) in ("custom_fwd", "custom_bwd"):
            self._check_dotted(node.decorator, node)

    def _check_dotted(self, func: cst.BaseExpression, outer: cst.CSTNode) -> None:
        """`torch.cuda.amp.GradScaler(...)`, `@torch.cuda.amp.custom_fwd`: reported where used. Names bound by a
        `torch.cuda.amp` import are reported at the import."""
        ctx = self.ctx
        qualname = ctx.qualname(func)
        if qualname not in DEPRECATED or self._compatibility_fallback():
            return
        root = func
        while type(root) is cst.Attribute:
            root = root.value
        if (ctx.qualname(root) or "").startswith("torch.cuda.amp"):
            return  # a name imported from torch.cuda.amp: reported (or excused) at its import
        member = qualname.rsplit(".", 1)[1]
        fix = None
        new_func = self._new_func(func, member)
        if new_func is not None:
            try:
                replacement = _rewrite_use(member, func, outer, new_func)
            except _Unfixable:
                replacement = None
            if replacement is not None:
                fix = Fix(f"Use `torch.amp.{member}`", (replacement,))
        reported = outer if type(outer) is cst.Call else func  # for a bare decorator, the name without its `@`
        self.report(reported, f"`torch.cuda.amp.{member}` is deprecated: use `{_replacement_text(member)}`", fix)

    def _new_func(self, func: cst.BaseExpression, member: str) -> cst.BaseExpression | None:
        """`torch.cuda.amp.X` -> `torch.amp.X`, keeping the file's spelling of torch (`th.cuda.amp.X` -> `th.amp.X`)."""
        amp = func.value if type(func) is cst.Attribute else None
        cuda = amp.value if type(amp) is cst.Attribute and amp.attr.value == "amp" else None
        if type(cuda) is cst.Attribute and cuda.attr.value == "cuda" and self.ctx.qualname(cuda.value) == "torch":
            return func.with_changes(value=amp.with_changes(value=cuda.value))
        spelling = self.ctx.spelling(f"torch.amp.{member}")
        return cst.parse_expression(spelling) if spelling is not None else None

    def _compatibility_fallback(self) -> bool:
        """Inside a `try` or `if` that also reaches `torch.amp`: a fallback for PyTorch versions without it."""
        ctx = self.ctx
        for ancestor in reversed(ctx.ancestors):
            if type(ancestor) in (cst.Try, cst.If):
                for node in ctx.walk(ancestor):
                    if type(node) is cst.ImportFrom and node.module is not None:
                        module = dotted_name(node.module)
                        if module == "torch.amp" or module == "torch" and not isinstance(node.names, cst.ImportStar) \
                                and any(dotted_name(alias.name) == "amp" for alias in node.names):
                            return True
                    elif type(node) is cst.Attribute and (ctx.qualname(node) or "").startswith("torch.amp."):
                        return True
            if type(ancestor) in (cst.FunctionDef, cst.ClassDef):
                break
        return False

    def finish(self) -> None:
        imports: list[_Import] = []
        tracked: dict[tuple[int, str], _Import] = {}  # (id(import statement), local name) -> its import
        for kind, statement, *event in self._events:
            if kind == "import":
                rewrite, names, deprecated = event
                found = _Import(statement, rewrite, dict(names), deprecated)
                imports.append(found)
                for name, _ in names:
                    tracked.setdefault((id(statement), name), found)
                continue
            name, rewritable, deprecated, replacement = event
            found = tracked.get((id(statement), name))
            if found is None:  # a use before the import
                continue
            if not rewritable:
                found.rewrite = None
            found.deprecated = found.deprecated or deprecated
            if replacement is not None:
                found.uses.append(replacement)
        for found in imports:
            if not found.deprecated:
                continue
            fix = None
            if found.rewrite is not None:
                fix = Fix("Import from `torch.amp` and pass the device", (found.rewrite, *found.uses))
            self.report(found.statement, fix=fix)


_AMP_NAMES = "names bound by torch.cuda.amp imports"


def _amp_names(statement: cst.CSTNode) -> frozenset[str]:
    """The local names the torch.cuda.amp imports in a top-level statement bind (a module fact)."""
    return frozenset(name for node in walk(statement) if type(node) is cst.Import or type(node) is cst.ImportFrom
                     for _, names, _ in _amp_imports(node) for name in names)


def _amp_imports(node: cst.Import | cst.ImportFrom) -> list[tuple[Replacement | None, dict[str, str], bool]]:
    """What an import statement imports of torch.cuda.amp: for each import of it, how to rewrite it, the local
    names it binds (-> the member each is, "" for the module), and whether it is deprecated by itself."""
    if type(node) is cst.Import:
        return [((alias, alias.with_changes(name=cst.parse_expression("torch.amp"))), {_local(alias): ""}, False)
                for alias in node.names if alias.asname is not None and dotted_name(alias.name) == "torch.cuda.amp"]
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return []
    module = dotted_name(node.module)
    if module in _MODULES:
        names = {_local(alias): dotted_name(alias.name) or "" for alias in node.names}
        rewrite = None
        if all(member in MEMBERS for member in names.values()):
            new_module = cst.parse_expression(module.replace("torch.cuda.amp", "torch.amp"))
            rewrite = (node, node.with_changes(module=new_module))
        return [(rewrite, names, any(member in MEMBERS for member in names.values()))]
    if module == "torch.cuda" and any(dotted_name(alias.name) == "amp" for alias in node.names):
        names = {_local(alias): "" for alias in node.names if dotted_name(alias.name) == "amp"}
        # not deprecated until a deprecated member is used through it
        return [((node, node.with_changes(module=cst.Name("torch"))) if len(node.names) == 1 else None, names, False)]
    return []


def _rewrite_use(member: str, expr: cst.BaseExpression, outer: cst.CSTNode | None,
                 new_func: cst.BaseExpression) -> Replacement | None:
    """The replacement that passes the device to one use of `member` (spelled `expr`, renamed to `new_func`).
    None when nothing but the name changes (a `GradScaler` annotation under a rewritten import)."""
    if type(outer) is cst.Call and outer.func is expr:
        return outer, outer.with_changes(func=new_func, args=_device_args(member, outer))
    if type(outer) is cst.Decorator and outer.decorator is expr and member in ("custom_fwd", "custom_bwd"):
        return expr, cst.Call(func=new_func, args=[new_keyword_arg("device_type", cst.SimpleString(_CUDA))])
    if member == "GradScaler":  # `isinstance(s, GradScaler)`, annotations: torch.amp's is the base class
        return None if new_func is expr else (expr, new_func)
    raise _Unfixable


def _device_args(member: str, call: cst.Call) -> list[cst.Arg]:
    args = list(call.args)
    cuda = cst.SimpleString(_CUDA)
    if member == "GradScaler":
        if keyword_arg(call, "device") is not None:
            raise _Unfixable
        return [cst.Arg(cuda), *args]
    if member == "autocast":
        if any(arg.star for arg in args) or keyword_arg(call, "device_type") is not None:
            raise _Unfixable
        converted = []
        for index, arg in enumerate(args):
            if arg.keyword is None:
                if index >= len(_AUTOCAST_POSITIONAL):
                    raise _Unfixable
                arg = new_keyword_arg(_AUTOCAST_POSITIONAL[index], arg.value).with_changes(comma=arg.comma)
            converted.append(arg)
        return [cst.Arg(cuda), *converted]
    if keyword_arg(call, "device_type") is not None:
        raise _Unfixable
    at = next((i for i, arg in enumerate(args) if arg.keyword is not None or arg.star == "**"), len(args))
    return [*args[:at], new_keyword_arg("device_type", cuda), *args[at:]]


def _replacement_text(member: str) -> str:
    if member in ("custom_fwd", "custom_bwd"):
        return f'torch.amp.{member}(device_type="cuda")'
    return f'torch.amp.{member}("cuda", ...)'


def _local(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and type(alias.asname.name) is cst.Name:
        return alias.asname.name.value
    return (dotted_name(alias.name) or "").split(".", 1)[0]
