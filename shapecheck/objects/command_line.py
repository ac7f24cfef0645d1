"""What an `argparse` parser given no command line holds: `parser.parse_args([])` (a notebook's or a test's way to
run a script) sets each option to its default, so `args.hidden` IS the `default=` its `add_argument` states.
`parse_args()` reads `sys.argv`, which the code does not state: its options stay unknown (the shapes floor names
each one a size of its own).

The parser must be one the code builds and fills where it can be read whole: one `argparse.ArgumentParser(...)`
bound once, its `add_argument` calls statements of the same block before the parse. A parser handed to a helper,
given parents, groups, subparsers or `set_defaults`, or an option this module can't read leaves everything unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from shapecheck.engine.walker import walk
from shapecheck.objects.dims import Dim, option_size
from shapecheck.objects.ini_files import ini_read
from shapecheck.objects.values import (
    FALSE, NONE, TRUE, UNKNOWN, Const, FunctionValue, Imported, Mapping, Namespace, Seq,
)

if TYPE_CHECKING:
    from shapecheck.engine.context import Binding, Context, Scope
    from shapecheck.objects.evaluator import Evaluator

_NO_ATTRIBUTE = object()  # what `--help` and `--version` set: no attribute

PARSE_METHODS = frozenset({"parse_args", "parse_known_args"})

# methods of a parser that neither add options nor change their defaults
_READS = PARSE_METHODS | {"print_help", "print_usage", "format_help", "format_usage", "error", "exit"}

# `ArgumentParser(...)` keywords that leave the defaults as `add_argument` states them (not `argument_default`,
# `parents`)
_PARSER_KEYWORDS = frozenset({"prog", "usage", "description", "epilog", "formatter_class", "prefix_chars",
                              "add_help", "allow_abbrev", "exit_on_error", "conflict_handler", "fromfile_prefix_chars"})

_OPTION_KEYWORDS = frozenset({"type", "default", "help", "action", "dest", "choices", "metavar", "nargs", "required",
                              "const"})

# actions whose attribute is the default where the command line says nothing; `store_true` defaults to False
_STORES = {None: NONE, "store": NONE, "store_const": NONE, "append": NONE, "append_const": NONE, "extend": NONE,
           "count": NONE, "store_true": FALSE, "store_false": TRUE, "help": None, "version": None}


def parsed(ev: Evaluator, call: cst.Call, before: int) -> object:
    """`parser.parse_args([])` as a `Namespace` of the defaults, `parser.parse_known_args([])` as the pair it
    returns; UNKNOWN for anything else. The parser is a name bound where the parse is (the parse may be a helper's
    `return parser.parse_args([])`, read in a call being run), or the call of a helper of the project that builds
    it and ends in `return parser` (`get_args_parser().parse_args([])`)."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value not in PARSE_METHODS \
            or not _no_command_line(ev, call, before):
        return UNKNOWN
    if type(func.value) is cst.Name:
        binding = one_assignment(ev, func.value, before)
        return UNKNOWN if binding is None else _namespace(ev, binding, call, before, func.attr.value)
    if type(func.value) is cst.Call and not func.value.args:
        return _built_by_helper(ev, func.value, before, func.attr.value)
    return UNKNOWN


def option_default(ev: Evaluator, expr: cst.BaseExpression, before: int) -> int | None:
    """The int default of an option of `args = parser.parse_args()` (or of `args = parse_args()`, a helper of the
    project whose one `return` is that parse): `args.classes` of `--classes`, `default=4`. The command line may set
    it to anything, so the option stays a size of its own, not its default; but one the code states (see
    `dims.option_size`). None for anything else."""
    if type(expr) is cst.Call:  # `config.getint("model", "hidden")`: the value the project's ini file holds
        return ini_read(ev.ctx, expr)
    if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
        return None
    found = command_line_defaults(ev, expr.value, before)
    return None if found is None else namespace_default(found, expr.attr.value)


def attribute_size(ev: Evaluator, node: cst.Attribute, before: int) -> Dim | None:
    """The size `args.epochs` (`cfg.model.hidden`) names where its value is not stated: one size for every read
    between the same writes of the attribute, its option's default kept (see `option_default`); None where the
    attribute is not read off a name, or a statement both sets it and holds the read."""
    root = node.value
    while type(root) is cst.Attribute:
        root = root.value
    if type(root) is not cst.Name:
        return None
    binding = ev.binding(root, before)
    first = node
    while first.value is not root:  # type: ignore[comparison-overlap]
        first = first.value  # type: ignore[assignment]
    # `cfg.hidden = cfg.hidden * 2`: the reads before the write and those after it are two sizes
    writes = ev.writes_before(binding, root.value, first.attr.value, node)
    if writes is None:
        return None
    return option_size(("attribute", ev.ctx.code(node), id(binding), writes), ev.ctx.code(node),
                       option_default(ev, node, before))


def command_line_defaults(ev: Evaluator, expr: cst.BaseExpression, before: int) -> Namespace | None:
    """The defaults of the options `args` holds, where `args = parser.parse_args()` (or a helper's one `return
    parser.parse_args()`) reads the command line, or of such a parse itself (`main(parser.parse_args())`): what a
    run with no flags sets (see `option_default`)."""
    found = _read_parser(ev, expr, before, lambda reader, parser, parse, end: _namespace(
        reader, parser, parse, end, "parse_args"))
    return found if isinstance(found, Namespace) else None


def number_option(ev: Evaluator, expr: cst.BaseExpression, before: int) -> bool:
    """`args.gamma` of `args = parser.parse_args()` (as `option_default` reads it) whose default is a number
    (`--gamma`, `type=float, default=2.0`): a Python number in the run with no flags, and no tensor whatever the
    command line says (argparse makes none), so `losses ** args.gamma` keeps the losses' shape."""
    if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
        return False
    found = command_line_defaults(ev, expr.value, before)
    return found is not None and stated_number(found.get(expr.attr.value))


def stated_number(default: object) -> bool:
    """An option's default that is a Python number: an int literal (a size) or a float."""
    return isinstance(default, Dim) and default.literal is not None or isinstance(default, Const) and type(
        default.value) is float


def namespace_default(defaults: Namespace, option: str) -> int | None:
    """The int default of `option` among `defaults` (see `command_line_defaults`); None where it is no int."""
    default = defaults.get(option)
    return default.literal if isinstance(default, Dim) else None


def integral_option(ev: Evaluator, args: cst.Name, name: str, before: int) -> bool:
    """`args.<name>` of `args = parser.parse_args()` (or of a helper's, as `option_default` reads it) is an int or a
    list of ints whatever the command line says: its option is converted by `type=int` (with any `nargs`) and its
    default is an int or a list of int literals (`--coeffs`, `type=int, nargs="+", default=[0, 1, 0]`)."""
    def read(reader: Evaluator, parser: Binding, parse: cst.CSTNode, end: int) -> bool:
        options = _options(reader, parser, parse, end)
        fields = [(option, _field(reader, option, end)) for option in options or ()]
        named = [(option, field) for option, field in fields if isinstance(field, tuple) and field[0] == name]
        if len(named) != 1:
            return False
        option, (_, default) = named[0]
        keywords = {arg.keyword.value: arg.value for arg in option.args if arg.keyword is not None}
        if "action" in keywords or "const" in keywords or "type" not in keywords \
                or reader.object(keywords["type"], end) != Imported("builtins.int"):
            return False
        defaults = default.items if isinstance(default, Seq) and default.complete else (default,)
        return bool(defaults) and all(isinstance(item, Dim) and item.literal is not None for item in defaults)

    return _read_parser(ev, args, before, read) is True


def _read_parser(ev: Evaluator, args: cst.BaseExpression, before: int,
                 read: Callable[[Evaluator, Binding, cst.CSTNode, int], object]) -> object:
    """`read(evaluator, parser, parse, end)` of the parser whose parse `args` is (`main(parser.parse_args())`) or is
    bound to (`args = parser.parse_args()`, whatever command line it reads, or `args = parse_args()` of a helper whose
    one `return` is such a parse), read where the parse is; UNKNOWN when `args` holds no such parse."""
    made: cst.CSTNode | None = args
    if type(args) is cst.Name:
        # in a call being run (`range(args.epochs)` in a run of `main`, a script's loop), the one binding of the name
        binding = ev.binding(args, before)
        if before < 0:
            binding = one_assignment(ev, args, before) or binding
        made = binding.value if binding is not None and binding.kind == "assign" else None
    if type(made) is not cst.Call:
        return UNKNOWN
    if _is_parse(made):
        parser = one_assignment(ev, made.func.value, before)  # type: ignore[attr-defined]  # a Name
        return UNKNOWN if parser is None else read(ev, parser, made, before)
    if _parses_built(made):
        # `build_parser().parse_args()`: the parser a helper fills and returns (`return parser`), read there
        built = _helper_parser(ev, made.func.value, before)  # type: ignore[attr-defined]
        if built is None or type(built[1].value) is not cst.Name:
            return UNKNOWN
        reader, returned, binding, end = built
        return reader.in_home(binding, lambda: read(reader, binding, returned, end))
    helper = _helper_parser(ev, made, before) if not made.args else None
    if helper is None or not _is_parse(helper[1].value):
        return UNKNOWN
    evaluator, returned, parser, end = helper
    return evaluator.in_home(parser, lambda: read(evaluator, parser, returned.value, end))  # type: ignore


def _is_parse(node: cst.CSTNode | None) -> bool:
    """`parser.parse_args(...)`, whatever command line it reads."""
    return type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "parse_args" \
        and type(node.func.value) is cst.Name


def _parses_built(node: cst.Call) -> bool:
    """`build_parser().parse_args(...)`: a parse of what a helper called with no arguments returns."""
    return type(node.func) is cst.Attribute and node.func.attr.value == "parse_args" \
        and type(node.func.value) is cst.Call and not node.func.value.args


def one_assignment(ev: Evaluator, name: cst.Name, before: int) -> Binding | None:
    """The one assignment `name` holds where it is read (a parser where it is parsed, a parsed command line), in a
    call being run too."""
    if before >= 0:
        bindings = ev.candidates(name, before)
    else:  # in a call being run, the function's own scope: its one binding of the name, or nothing sure
        function = ev.frame_at(before)[0].function
        if type(function) is cst.Module:
            return _module_binding(ev, name, before)
        scope = _scope_of(ev.ctx, function)
        bindings = None if scope is None else scope.bindings.get(name.value)
    if not bindings or len(bindings) != 1 or bindings[0].kind != "assign":
        return None
    return bindings[0]


def _module_binding(ev: Evaluator, name: cst.Name, before: int) -> Binding | None:
    """In the module's own run (a script's loop, read as of its passes), the module's one assignment of `name`."""
    if type(ev.frame_at(before)[0].function) is not cst.Module:
        return None
    bindings = ev.ctx._module_scope().bindings.get(name.value)
    if not bindings or len(bindings) != 1 or bindings[0].kind != "assign":
        return None
    return bindings[0]


def _built_by_helper(ev: Evaluator, builder: cst.Call, before: int, method: str) -> object:
    """`get_args_parser().parse_args([])`: the defaults of the parser the helper fills and returns, read in the
    helper, whose one `return` returns it."""
    found = _helper_parser(ev, builder, before)
    if found is None or type(found[1].value) is not cst.Name:
        return UNKNOWN
    helper, returned, binding, end = found
    return helper.in_home(binding, lambda: _namespace(helper, binding, returned, end, method))


def _helper_parser(ev: Evaluator, call: cst.Call, before: int) -> tuple[Evaluator, cst.Return, Binding, int] | None:
    """What a call of a plain helper of the project returns from its parser (`return parser` or `return
    parser.parse_args()`, its one `return`): the helper's evaluator, that `return`, the parser's one assignment,
    and the point after the helper's last binding, where each local holds what it ends with."""
    function = ev.object(call.func, before)
    if not isinstance(function, FunctionValue) or function.bound is not None or function.closure is not None:
        return None
    scope = _scope_of(function.ctx, function.node)
    returns = [node for node in walk(function.node) if type(node) is cst.Return]
    if scope is None or len(returns) != 1:
        return None
    returned = returns[0].value
    if type(returned) is cst.Call and type(returned.func) is cst.Attribute:
        returned = returned.func.value
    if type(returned) is not cst.Name:
        return None
    bindings = scope.bindings.get(returned.value)
    if not bindings or len(bindings) != 1 or bindings[0].kind != "assign":
        return None
    end = 1 + max(binding.seq for named in scope.bindings.values() for binding in named)  # each local as it ends
    return ev.calls.evaluator_for(function.ctx), returns[0], bindings[0], end


def _scope_of(ctx: Context, function: cst.CSTNode) -> Scope | None:
    """The scope of a function the traversal has left, or is in (a run of `main` made while it is visited)."""
    found = next((scope for _, _, scope in ctx.closed_functions if scope.node is function), None)
    open_scope = ctx._frame
    while found is None and open_scope is not None:
        found = open_scope if open_scope.node is function else None
        open_scope = open_scope.parent
    return found


def _namespace(ev: Evaluator, binding: Binding, parse: cst.CSTNode, before: int, method: str) -> object:
    options = _options(ev, binding, parse, before)
    if options is None:
        return UNKNOWN
    fields: dict[str, object] = {}
    for option in options:
        field = _field(ev, option, before)
        if field is None:
            return UNKNOWN
        if field is _NO_ATTRIBUTE:
            continue
        name, value = field
        if name in fields:  # two options for one attribute: the first's default wins, unless it suppresses
            return UNKNOWN
        fields[name] = value
    found = Namespace(tuple(fields.items()))
    if method == "parse_known_args":
        return Seq((found, Seq(())), "tuple")
    return found


def built(ev: Evaluator, call: cst.Call, before: int) -> object:
    """`argparse.Namespace(hidden=64, layers=2)`, `SimpleNamespace(**config)`: the keywords, and the entries of a
    dict the code states in full, as its attributes."""
    fields: dict[str, object] = {}
    for arg in call.args:
        if arg.star == "**":
            entries = ev.object(arg.value, before)
            if not isinstance(entries, Mapping) or not entries.complete:
                return UNKNOWN
            fields.update((str(key), value) for key, value in entries.items)
        elif arg.star or arg.keyword is None:
            return UNKNOWN
        else:
            fields[arg.keyword.value] = ev.object(arg.value, before)
    return Namespace(tuple(fields.items()))


def _no_command_line(ev: Evaluator, call: cst.Call, before: int) -> bool:
    """`parse_args([])` / `parse_args(args=[])` / `parse_args('')`: no argument, and nothing else; also
    `parse_args(argv)` where `argv` holds an empty list for certain (a script's `main([])` handing its `argv` on)."""
    if len(call.args) != 1:
        return False
    arg = call.args[0]
    if arg.star or arg.keyword is not None and arg.keyword.value != "args":
        return False
    value = arg.value
    if type(value) is cst.SimpleString:  # `parse_args('')`: argparse makes a list of its characters
        return value.evaluated_value == ""
    if type(value) in (cst.List, cst.Tuple):
        return not value.elements  # type: ignore[union-attr]
    # `None` (what `main(argv=None)` passes on when called bare) reads `sys.argv`: not a Seq, so unknown
    held = ev.object(value, before) if type(value) is cst.Name else None
    return isinstance(held, Seq) and held.complete and not held.items


def _options(ev: Evaluator, binding: Binding, parse: cst.CSTNode, before: int) -> list[cst.Call] | None:
    """The `add_argument` calls of the parser `binding` bound, in order, before `parse` (the parse, or the helper's
    `return parser`); None when the parser is not built by `argparse.ArgumentParser(...)` or is used in a way that
    may add options or change defaults out of sight."""
    made = binding.value
    if type(made) is not cst.Call or ev.object(made.func, before) != Imported("argparse.ArgumentParser") \
            or any(arg.star or arg.keyword is not None and arg.keyword.value not in _PARSER_KEYWORDS
                   for arg in made.args):
        return None
    block = _block_of(binding)
    if block is None:
        return None
    scope = next((node for node in reversed(binding.path) if type(node) in (cst.FunctionDef, cst.Module)), None)
    if scope is None:
        return None
    name = binding.name
    uses = sum(1 for node in walk(scope) if type(node) is cst.Name and node.value == name)
    calls = [node for node in walk(scope) if type(node) is cst.Call and type(node.func) is cst.Attribute
             and type(node.func.value) is cst.Name and node.func.value.value == name]
    # each use but the binding's own target (and the helper's `return parser`) is a call of a method of the parser:
    # none is passed anywhere
    if uses != len(calls) + 1 + (type(parse) is cst.Return) or any(c.func.attr.value not in _READS | {"add_argument"} for c in calls):  # type: ignore
        return None
    statements = list(block)
    position = {id(_call_of(statement)): index for index, statement in enumerate(statements)
                if _call_of(statement) is not None}
    parse_at = next((index for index, statement in enumerate(statements)
                     if any(node is parse for node in walk(statement))), None)
    added = [c for c in calls if c.func.attr.value == "add_argument"]  # type: ignore[attr-defined]
    if parse_at is None or any(position.get(id(c), parse_at) >= parse_at for c in added):
        return None  # an option added in a branch, a loop or after the parse
    return added


def _block_of(binding: Binding) -> tuple[cst.BaseStatement, ...] | None:
    """The statements of the block the binding's statement is one of."""
    path = binding.path
    for index in range(len(path) - 1, 0, -1):
        if type(path[index]) is cst.SimpleStatementLine:
            holder = path[index - 1]
            body = holder.body if type(holder) in (cst.Module, cst.IndentedBlock) else None  # type: ignore
            return tuple(body) if body is not None else None
    return None


def _call_of(statement: cst.BaseStatement) -> cst.Call | None:
    """The call a statement line is, when it is one expression statement of a call."""
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1 \
            or type(statement.body[0]) is not cst.Expr or type(statement.body[0].value) is not cst.Call:
        return None
    return statement.body[0].value


def _field(ev: Evaluator, option: cst.Call, before: int) -> tuple[str, object] | object | None:
    """The attribute an `add_argument` call sets and its default, as argparse makes it with no command line;
    _NO_ATTRIBUTE for one that sets none; None when the call can't be read or the parse would fail (a required
    option, a positional one)."""
    flags: list[str] = []
    keywords: dict[str, cst.BaseExpression] = {}
    for arg in option.args:
        if arg.star:
            return None
        if arg.keyword is None:
            flag = ev.object(arg.value, before)
            if not isinstance(flag, Const) or not isinstance(flag.value, str) or not flag.value:
                return None
            flags.append(flag.value)
        elif arg.keyword.value in _OPTION_KEYWORDS:
            keywords[arg.keyword.value] = arg.value
        else:
            return None
    if not flags:
        return None
    action = ev.object(keywords["action"], before) if "action" in keywords else Const(None)
    required = ev.object(keywords["required"], before) if "required" in keywords else FALSE
    if not isinstance(action, Const) or action.value not in _STORES or required != FALSE:
        return None  # a custom action makes its own default; a required option stops the parse
    if _STORES[action.value] is None:
        return _NO_ATTRIBUTE
    if not flags[0].startswith("-"):
        nargs = ev.object(keywords["nargs"], before) if "nargs" in keywords else UNKNOWN
        if len(flags) != 1 or nargs not in (Const("?"), Const("*")):
            return None  # a positional argument the empty command line lacks
        dest = flags[0]
    else:
        dest = _dest(ev, flags, keywords.get("dest"), before)
        if dest is None:
            return None
    if "default" not in keywords:
        return dest, _STORES[action.value]
    default = ev.object(keywords["default"], before)
    if default == Imported("argparse.SUPPRESS"):
        return None  # no attribute at all: reading it raises
    if isinstance(default, Const) and isinstance(default.value, str) and "type" in keywords:
        default = _converted(ev.object(keywords["type"], before), default.value)
    return dest, default


def _dest(ev: Evaluator, flags: list[str], dest: cst.BaseExpression | None, before: int) -> str | None:
    """The attribute of an option: `dest=`, else its first long flag, else its first short one, `-` as `_`."""
    if dest is not None:
        value = ev.object(dest, before)
        return value.value if isinstance(value, Const) and isinstance(value.value, str) else None
    long = [flag for flag in flags if flag.startswith("--")]
    return (long or flags)[0].lstrip("-").replace("-", "_") or None


def _converted(kind: object, text: str) -> object:
    """A string default through `type=`, as argparse converts it: `int` and `float` of a literal, a `str` kept."""
    try:
        if kind == Imported("builtins.int"):
            return Dim.of(int(text))
        if kind == Imported("builtins.float"):
            return Const(float(text))
    except ValueError:
        return UNKNOWN
    return Const(text) if kind == Imported("builtins.str") else UNKNOWN
