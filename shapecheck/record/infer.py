"""From recorded sizes to jaxtyping annotations: which dims are one symbol, which are literals, and their names.

Two dims are one symbol only on evidence: dims of two tensors equal in every call where both were seen, over at least
two different sizes (a batch of 4 and 4 channels in the same call prove nothing; neither do the height and width of
square test images). A size that varied is a symbol, named by the code
(`B, T, C = x.size()`), by a caller that passes it on, by an int argument, a `self.` int or a configuration object's
setting equal to it in every call (`seq_len`, `self.config.n_embd`, `dims.n_audio_state`), or else by its role (`B`
for batch, `T` for sequence). A size that never varied is a symbol too when the code or a setting names it: a model
width of 32 is `n_embd`, so the same model at another width still fits its annotation. A size fixed by a module
constant is pinned and named (`"N_FRAMES=3000"`, jaxtyping's documented literal); any other is a literal, and the
function is named in a note. A leading group of dims whose count varies between calls becomes `*batch`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shapecheck.record.store import FunctionRecord
from shapecheck.record.values import Description

Slot = tuple[str, int]  # (a tensor's path such as "x" or "return[0]", axis; negative when counted from the right)
_SPARE_NAMES = ("N", "M", "K", "L", "P", "Q", "R", "S")
_SCALAR_HINTS = {"int": "int", "float": "float", "bool": "bool", "str": "str", "none": "None"}


@dataclass(frozen=True)
class Spelling:
    """How the file spells typing's containers: `tuple`/`Tuple`, `list`/`List`, `Optional[X]`/`X | None`."""

    tuple: str = "tuple"
    list: str = "list"
    union: bool = False  # `X | None` rather than `Optional[X]`


@dataclass
class Annotations:
    """What `annotate` writes for one function: an annotation per parameter and for the return value."""

    params: dict[str, str] = field(default_factory=dict)
    returns: str | None = None
    dtypes: set[str] = field(default_factory=set)  # jaxtyping names used: Float, Int, UInt8, Bool, ...
    optional: bool = False  # `Optional` is used
    notes: list[str] = field(default_factory=list)
    # The symbol each parameter's dims got ((parameter, axis) -> name), for callees that receive them.
    symbols: dict[Slot, str] = field(default_factory=dict)


@dataclass
class _Leaf:
    path: str
    shapes: list[list[int] | None]  # per call; None where the value was None or absent
    dtypes: set[str]
    variadic: bool = False
    rank: int = 0
    ragged: set[int] = field(default_factory=set)  # axes whose size differs between the items of one list


@dataclass
class _Group:
    sizes: list[int | None]
    slots: list[Slot]
    name: str | None = None
    pinned: bool = False  # `name=value`: the name documents a literal

    @property
    def varies(self) -> bool:
        return len({size for size in self.sizes if size is not None}) > 1

    @property
    def value(self) -> int:
        return next(size for size in self.sizes if size is not None)

    def joins(self, sizes: list[int | None]) -> bool:
        """Equal wherever both were seen, over two different sizes at least: evidence, not a coincidence."""
        both = [(a, b) for a, b in zip(self.sizes, sizes) if a is not None and b is not None]
        return all(a == b for a, b in both) and len({a for a, _ in both}) > 1

    def absorb(self, slot: Slot, sizes: list[int | None]) -> None:
        self.slots.append(slot)
        self.sizes = [a if a is not None else b for a, b in zip(self.sizes, sizes)]


def infer(record: FunctionRecord, code_names: Mapping[Slot, str] = {}, inherited: Mapping[Slot, str] = {},
          spelling: Spelling = Spelling()) -> Annotations:
    """Annotations for `record`'s parameters and return value. `code_names` maps (parameter, axis) to the name the
    function's body gives that size (`B, T, C = x.shape` gives ("x", 0) -> "B"); `inherited` maps (parameter, axis)
    to the symbol a caller's annotation gives the size it passes there."""
    calls = record.calls
    result = Annotations()
    leaves: list[_Leaf] = []
    skeletons: dict[str, Any] = {}
    for name in record.params:
        skeletons[name] = _unify(name, [call["args"].get(name, {"t": "other"}) for call in calls], leaves, top=True)
    if calls and all(not call.get("raised") and "return" in call for call in calls):
        skeletons["return"] = _unify("return", [call["return"] for call in calls], leaves, top=True)
    if not leaves:
        return result
    groups = _group(leaves)
    ranks = {leaf.path: leaf.rank for leaf in leaves}
    _Namer(groups, leaves, record).name(code_names, inherited)
    rendered = {leaf.path: _render(leaf, groups, result) for leaf in leaves}
    for name, skeleton in skeletons.items():
        text = _spell(skeleton, rendered, result, spelling)
        if text is None:
            continue
        if name == "return":
            result.returns = text
        else:
            result.params[name] = text
    for group in groups:
        if group.name is not None and not group.pinned:
            for path, axis in group.slots:
                if path in record.params:
                    result.symbols[(path, axis)] = group.name
                    if axis >= 0:
                        result.symbols[(path, axis - ranks[path])] = group.name
    _note_literals(record, groups, rendered, result)
    return result


def _note_literals(record: FunctionRecord, groups: list[_Group], rendered: dict[str, str],
                   result: Annotations) -> None:
    # Size 1 is a kept or broadcast dim, not a setting frozen by chance.
    literals = [f"{path}.shape[{axis}]" for group in groups if group.name is None and group.value > 1
                for path, axis in group.slots if path in rendered]
    if not literals:
        return
    runs = len({call.get("run") for call in record.calls})
    shown = ", ".join(literals[:4]) + (", ..." if len(literals) > 4 else "")
    seen = "one run recorded it" if runs < 2 else f"{len(record.calls)} calls in {runs} runs recorded it"
    result.notes.append(f"{record.qualname}: {seen}, and {shown} never changed size, so they are written as "
                        "literals; if a size comes from the batch, the data or a setting, record another run with "
                        "another value to make it a symbol")


# ---------------------------------------------------------------------------------------------- structure

def _unify(path: str, entries: list[Description | None], leaves: list[_Leaf], top: bool = False) -> Any:
    """The common structure of one value over all calls (None in `entries` where it was absent, inside a tuple that
    was None): a tensor leaf, Optional of a structure, a tuple or a list of such, a scalar type inside a container,
    or None (no annotation) when the calls disagree."""
    seen = [entry for entry in entries if entry is not None]
    values = [entry for entry in seen if entry["t"] != "none"]
    if not values:
        return None if top or not seen else ("scalar", "None")
    kinds = {value["t"] for value in values}
    inner = _structure(path, [entry if entry is not None and entry["t"] != "none" else None for entry in entries],
                       kinds, leaves, top)
    if inner is None:
        return None
    return ("optional", inner) if len(values) < len(seen) else inner


def _structure(path: str, values: list[Description | None], kinds: set[str], leaves: list[_Leaf], top: bool) -> Any:
    present = [value for value in values if value is not None]
    if kinds == {"tensor"}:
        shapes = [value["shape"] if value is not None else None for value in values]
        return _leaf(path, shapes, {value["dtype"] for value in present}, leaves)
    if kinds == {"tuple"}:
        lengths = {len(value["items"]) for value in present}
        if len(lengths) != 1:
            return None
        items = [_unify(f"{path}[{index}]", [value["items"][index] if value is not None else None for value in values],
                        leaves) for index in range(lengths.pop())]
        if any(item is None for item in items) or not any(_has_leaf(item) for item in items):
            return None
        return ("tuple", items)
    if kinds == {"list"}:
        return _list(path, values, leaves)
    if top:
        return None
    if kinds <= {"int", "float"}:
        return ("scalar", "float" if "float" in kinds else "int")
    if len(kinds) == 1 and kinds <= set(_SCALAR_HINTS):
        return ("scalar", _SCALAR_HINTS[kinds.pop()])
    return None


def _list(path: str, values: list[Description | None], leaves: list[_Leaf]) -> Any:
    """A list of tensors: one leaf for its items, whose per-call shape is that of the items where they agree."""
    shapes: list[list[int] | None] = []
    dtypes: set[str] = set()
    ragged: set[int] = set()
    for value in values:
        items = value["items"] if value is not None else []
        if any(item["t"] != "tensor" for item in items):
            return None
        item_shapes = [item["shape"] for item in items]
        dtypes |= {item["dtype"] for item in items}
        if len({len(shape) for shape in item_shapes}) > 1:
            return None
        if item_shapes:
            ragged |= {axis for axis in range(len(item_shapes[0])) if len({shape[axis] for shape in item_shapes}) > 1}
        shapes.append(item_shapes[0] if item_shapes else None)
    if not dtypes or len({len(shape) for shape in shapes if shape is not None}) > 1:
        return None
    skeleton = _leaf(f"{path}[*]", shapes, dtypes, leaves)
    leaves[-1].ragged = ragged
    return ("list", skeleton)


def _leaf(path: str, shapes: list[list[int] | None], dtypes: set[str], leaves: list[_Leaf]) -> Any:
    ranks = {len(shape) for shape in shapes if shape is not None}
    leaves.append(_Leaf(path, shapes, dtypes, variadic=len(ranks) > 1, rank=min(ranks)))
    return ("leaf", path)


def _has_leaf(skeleton: Any) -> bool:
    kind, payload = skeleton
    if kind in ("leaf", "list"):
        return True
    if kind == "optional":
        return _has_leaf(payload)
    return kind == "tuple" and any(_has_leaf(item) for item in payload)


def _axes(leaf: _Leaf) -> list[int]:
    return list(range(-leaf.rank, 0)) if leaf.variadic else list(range(leaf.rank))


def _group(leaves: list[_Leaf]) -> list[_Group]:
    groups: list[_Group] = []
    once: list[tuple[Slot, list[int | None]]] = []
    for leaf in leaves:
        for axis in _axes(leaf):
            sizes = [shape[axis] if shape is not None else None for shape in leaf.shapes]
            slot = (leaf.path, axis)
            if axis in leaf.ragged:
                groups.append(_Group(sizes, [slot], name="_"))  # each item its own size: left unchecked
            elif sum(size is not None for size in sizes) < 2:
                once.append((slot, sizes))
            else:
                # Two dims of one tensor are never one symbol on sizes alone: square test images would make every
                # image's height its width. Among equal candidates, the one seen at the same axis is the likelier.
                joined = [group for group in groups if group.name != "_" and group.joins(sizes)
                          and all(path != leaf.path for path, _ in group.slots)]
                joined.sort(key=lambda group: all(axis != other for _, other in group.slots))
                if joined:
                    joined[0].absorb(slot, sizes)
                else:
                    groups.append(_Group(sizes, [slot]))
    for slot, sizes in once:  # seen in one call: it is the dim it equals there, if exactly one does
        call, size = next((call, size) for call, size in enumerate(sizes) if size is not None)
        equal = [group for group in groups if group.name != "_" and group.sizes[call] == size
                 and all(path != slot[0] for path, _ in group.slots)]
        varying = [group for group in equal if group.varies]
        constant = [group for group in equal if not group.varies and group.sizes.count(None) == 0]
        if len(varying) == 1:
            varying[0].slots.append(slot)
        elif not varying and constant:
            constant[0].slots.append(slot)
        else:
            groups.append(_Group(sizes, [slot]))
    return groups


# ------------------------------------------------------------------------------------------------- naming

class _Namer:
    def __init__(self, groups: list[_Group], leaves: list[_Leaf], record: FunctionRecord) -> None:
        self.groups = [group for group in groups if group.name != "_"]
        self.ranks = {leaf.path: leaf.rank for leaf in leaves}
        self.integral = {leaf.path: dtype_class(leaf.dtypes) in ("Int", "UInt", "UInt8", "Integer") for leaf in leaves}
        self.record = record
        self.owners: dict[str, _Group] = {}  # name -> the first group that took it

    def name(self, code_names: Mapping[Slot, str], inherited: Mapping[Slot, str]) -> None:
        for given in (code_names, inherited):  # names the code gives (and its callers pass on) win, constant or not
            for group in self.groups:
                for path, axis in group.slots:
                    # `x.size(-1)` names the last dim too; a variadic leaf's axes are already counted from the right.
                    name = given.get((path, axis)) or (axis >= 0 and given.get((path, axis - self.ranks[path])))
                    if name and group.name is None and self.take(group, name):
                        break
        candidates = _int_candidates(self.record)
        for group in self.unnamed(varying=True):
            for name, values in candidates.items():
                if all(size is None or size == value for size, value in zip(group.sizes, values)) \
                        and self.take(group, name):
                    break
        for group in self.unnamed(varying=True):
            roles = {_role(slot, self.ranks[slot[0]], self.integral[slot[0]]) for slot in group.slots
                     if not slot[0].startswith("return")}
            # B only for a dim that is first wherever it is seen; T for a sequence dim (second of a 3-d tensor or of
            # a tensor of token ids) that is nothing else.
            role = "B" if roles == {"B"} else "T" if roles and roles <= {"T", "B"} and "T" in roles else None
            for name in [role] * (role is not None) + list(_SPARE_NAMES):
                if self.take(group, name):
                    break
            else:
                self.take(group, f"N{len(self.owners)}")
        for group in self.unnamed(varying=False):  # a setting equal to the size in every call: free, not frozen
            matches = {name for name, values in candidates.items()
                       if all(size is None or size == value for size, value in zip(group.sizes, values))}
            if len(matches) == 1:
                self.take(group, matches.pop())
        for group in self.unnamed(varying=False):  # a size fixed by a module constant: pinned, and named
            constants = {name for name, value in self.record.constants.items() if value == group.value}
            if len(constants) == 1 and group.value > 1:
                group.name, group.pinned = f"{constants.pop()}={group.value}", True
        for group in self.unnamed(varying=False):  # the same constant as a named one: one name, not a literal
            names = {other.name for other in self.groups if not other.varies and not other.pinned
                     and other.name is not None and other.value == group.value}
            if len(names) == 1:
                group.name = names.pop()

    def unnamed(self, varying: bool) -> list[_Group]:
        return [group for group in self.groups if group.name is None and group.varies == varying]

    def take(self, group: _Group, name: str) -> bool:
        name = name.lstrip("_")  # jaxtyping reads `_bsz` as a dim it does not check
        if not name.isidentifier():
            return False
        owner = self.owners.get(name)
        # Constant sizes named by one setting share its name: they are one size, whoever else carries it.
        if owner is not None and (group.varies or owner.varies or owner.value != group.value):
            return False
        group.name = name
        self.owners.setdefault(name, group)
        return True


def _role(slot: Slot, rank: int, integral: bool) -> str:
    axis = slot[1]
    if axis == 0 and rank >= 2:
        return "B"
    if axis == 1 and (rank == 3 or rank == 2 and integral):
        return "T"
    return "other"


def _int_candidates(record: FunctionRecord) -> dict[str, list[int | None]]:
    """Int parameters, `self.` int attributes and the int settings of configuration objects (held by `self` or
    passed in), with their value in each call, in that order of preference."""
    candidates: dict[str, list[int | None]] = {}
    calls = record.calls
    for name in record.params:
        values = [call["args"].get(name, {}) for call in calls]
        if values and all(value.get("t") == "int" for value in values):
            candidates[name] = [value["v"] for value in values]
    names = {name: None for call in calls for name in call.get("self_ints", {})}
    for name in names:
        candidates.setdefault(name, [call.get("self_ints", {}).get(name) for call in calls])
    for parameter in record.params:
        settings = [call["args"].get(parameter, {}) for call in calls]
        if settings and all(setting.get("t") == "config" for setting in settings):
            for name in {name: None for setting in settings for name in setting["ints"]}:
                candidates.setdefault(name, [setting["ints"].get(name) for setting in settings])
    return candidates


# ------------------------------------------------------------------------------------------------ writing

def dtype_class(dtypes: set[str]) -> str:
    """jaxtyping's narrowest class that accepts every recorded dtype: `UInt8` for images of bytes (`Int` is signed
    only), `Int`, `Integer` (signed and unsigned), `Float`, `Complex`, `Inexact`, `Real`, `Num`, `Bool`, `Shaped`."""
    kinds = {_kind(dtype) for dtype in dtypes}
    if kinds == {"uint8"}:
        return "UInt8"
    kinds = {"uint" if kind == "uint8" else kind for kind in kinds}
    for accepted, name in ((("bool",), "Bool"), (("uint",), "UInt"), (("int",), "Int"), (("int", "uint"), "Integer"),
                           (("float",), "Float"), (("complex",), "Complex"), (("float", "complex"), "Inexact"),
                           (("int", "uint", "float"), "Real"), (("int", "uint", "float", "complex"), "Num")):
        if kinds <= set(accepted):
            return name
    return "Shaped"


def _kind(dtype: str) -> str:
    if dtype == "bool":
        return "bool"
    if dtype == "uint8":
        return "uint8"
    if dtype.startswith("uint"):
        return "uint"
    if dtype.startswith("int"):
        return "int"
    if dtype.startswith(("float", "bfloat", "half", "double")):
        return "float"
    if dtype.startswith("complex"):
        return "complex"
    return "other"  # quantized, bits, ...


def _render(leaf: _Leaf, groups: list[_Group], result: Annotations) -> str:
    dims = ["*batch"] if leaf.variadic else []
    for axis in _axes(leaf):
        group = next(group for group in groups if (leaf.path, axis) in group.slots)
        dims.append(group.name if group.name is not None else str(group.value))
    family = dtype_class(leaf.dtypes)
    result.dtypes.add(family)
    shape = " ".join(dims)
    # jaxtyping's advice for flake8: a single name would read as a forward reference (F821); a space avoids it.
    if len(dims) == 1 and shape.isidentifier():
        shape = " " + shape
    return f'{family}[Tensor, "{shape}"]'


def _spell(skeleton: Any, rendered: dict[str, str], result: Annotations, spelling: Spelling) -> str | None:
    if skeleton is None:
        return None
    kind, payload = skeleton
    if kind == "leaf":
        return rendered[payload]
    if kind == "scalar":
        return payload
    if kind == "optional":
        inner = _spell(payload, rendered, result, spelling)
        if spelling.union:
            return f"{inner} | None"
        result.optional = True
        return f"Optional[{inner}]"
    if kind == "list":
        return f"{spelling.list}[{_spell(payload, rendered, result, spelling)}]"
    items = [_spell(item, rendered, result, spelling) for item in payload]
    return f"{spelling.tuple}[{', '.join(item for item in items if item is not None)}]"
