"""From recorded sizes to jaxtyping annotations: which dims are one symbol, which are literals, and their names.

Within one call, equal sizes across arguments and the return value are candidates for one symbol; across calls a
candidate survives only while the sizes stay equal every time (an optional argument that was None in a call does
not vote there). A size that never varied stays a literal (3 channels, a vocabulary of 50257) unless the code names
it. Names come from the code first (`B, T, C = x.size()`), then from int parameters or `self.` attributes whose
recorded values equal the size (`seq_len`, `n_embd`), then from the dim's role (`B` for batch, `T` for sequence).
A leading group of dims whose count varies between calls becomes `*batch`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shapecheck.record.store import FunctionRecord
from shapecheck.record.values import Description

Slot = tuple[str, int]  # (a tensor's path such as "x" or "return[0]", axis; negative when counted from the right)
_SPARE_NAMES = ("N", "M", "K", "L", "P", "Q", "R", "S")


@dataclass
class Annotations:
    """What `annotate` writes for one function: an annotation per parameter and for the return value."""

    params: dict[str, str] = field(default_factory=dict)
    returns: str | None = None
    dtypes: set[str] = field(default_factory=set)  # jaxtyping names used: Float, Int, Bool, ...
    optional: bool = False  # `Optional` is used
    notes: list[str] = field(default_factory=list)


@dataclass
class _Leaf:
    path: str
    shapes: list[list[int] | None]  # per call; None where the value was None
    dtypes: set[str]
    variadic: bool = False
    rank: int = 0


@dataclass
class _Group:
    sizes: list[int | None]
    slots: list[Slot]
    name: str | None = None

    def agrees(self, sizes: list[int | None]) -> bool:
        both = [(a, b) for a, b in zip(self.sizes, sizes) if a is not None and b is not None]
        return bool(both) and all(a == b for a, b in both)

    def absorb(self, slot: Slot, sizes: list[int | None]) -> None:
        self.slots.append(slot)
        self.sizes = [a if a is not None else b for a, b in zip(self.sizes, sizes)]

    @property
    def varies(self) -> bool:
        return len({size for size in self.sizes if size is not None}) > 1


def infer(record: FunctionRecord, code_names: Mapping[Slot, str] = {}) -> Annotations:
    """Annotations for `record`'s parameters and return value. `code_names` maps (parameter, axis) to the name the
    function's body gives that size (`B, T, C = x.shape` gives ("x", 0) -> "B")."""
    calls = record.calls
    result = Annotations()
    leaves: list[_Leaf] = []
    skeletons: dict[str, Any] = {}
    for name in record.params:
        skeletons[name] = _unify(name, [call["args"].get(name, {"t": "other"}) for call in calls], leaves)
    returned = [call for call in calls if not call.get("raised") and "return" in call]
    if returned and len(returned) == len(calls):
        skeletons["return"] = _unify("return", [call["return"] for call in calls], leaves)
    if not leaves:
        return result
    groups = _group(leaves)
    _name(groups, leaves, record, code_names)
    rendered = {leaf.path: _render(leaf, groups, result) for leaf in leaves}
    for name, skeleton in skeletons.items():
        text = _spell(skeleton, rendered, result)
        if text is None:
            continue
        if name == "return":
            result.returns = text
        else:
            result.params[name] = text
    literals = [f"{path}.shape[{axis}]" for group in groups if group.name is None for path, axis in group.slots]
    if literals and len({call.get("run") for call in calls}) < 2:
        shown = ", ".join(literals[:4]) + (", ..." if len(literals) > 4 else "")
        result.notes.append(f"{record.qualname}: one run recorded it, and {shown} never changed size in that run, so "
                            "they are written as literals; record another run with another batch size (and sequence "
                            "length) to turn the ones that vary into symbols")
    return result


# ---------------------------------------------------------------------------------------------- structure

def _unify(path: str, descriptions: list[Description], leaves: list[_Leaf]) -> Any:
    """The common structure of one value over all calls: a tensor leaf, Optional of one, a tuple of such, or None
    (no annotation) when the calls disagree."""
    kinds = {description["t"] for description in descriptions}
    if kinds <= {"tensor", "none"} and "tensor" in kinds:
        shapes = [description.get("shape") if description["t"] == "tensor" else None for description in descriptions]
        dtypes = {description["dtype"] for description in descriptions if description["t"] == "tensor"}
        ranks = {len(shape) for shape in shapes if shape is not None}
        leaf = _Leaf(path, shapes, dtypes, variadic=len(ranks) > 1, rank=min(ranks))
        leaves.append(leaf)
        return ("optional", ("leaf", path)) if "none" in kinds else ("leaf", path)
    if kinds == {"tuple"}:
        lengths = {len(description["items"]) for description in descriptions}
        if len(lengths) == 1:
            items = [_unify(f"{path}[{index}]", [description["items"][index] for description in descriptions], leaves)
                     for index in range(lengths.pop())]
            if all(item is not None for item in items):
                return ("tuple", items)
    return None


def _axes(leaf: _Leaf) -> list[int]:
    return list(range(-leaf.rank, 0)) if leaf.variadic else list(range(leaf.rank))


def _group(leaves: list[_Leaf]) -> list[_Group]:
    groups: list[_Group] = []
    for leaf in leaves:
        for axis in _axes(leaf):
            sizes = [shape[axis] if shape is not None else None for shape in leaf.shapes]
            slot = (leaf.path, axis)
            for group in groups:
                if group.agrees(sizes):
                    group.absorb(slot, sizes)
                    break
            else:
                groups.append(_Group(sizes, [slot]))
    return groups


# ------------------------------------------------------------------------------------------------- naming

def _name(groups: list[_Group], leaves: list[_Leaf], record: FunctionRecord, code_names: Mapping[Slot, str]) -> None:
    used: set[str] = set()

    def take(group: _Group, name: str) -> bool:
        if name in used or not name.isidentifier():
            return False
        group.name = name
        used.add(name)
        return True

    ranks = {leaf.path: leaf.rank for leaf in leaves}
    for group in groups:  # names the code gives win, constant or not
        for path, axis in group.slots:
            # `x.size(-1)` names the last dim too; a variadic leaf's axes are already counted from the right.
            name = code_names.get((path, axis)) or (axis >= 0 and code_names.get((path, axis - ranks[path])))
            if name and take(group, name):
                break
    candidates = _int_candidates(record)
    for group in groups:
        if group.name is None and group.varies:
            for name, sizes in candidates.items():
                if len(sizes) == len(group.sizes) and all(a is None or a == b for a, b in zip(group.sizes, sizes)) \
                        and take(group, name):
                    break
    for group in groups:
        if group.name is None and group.varies:
            roles = [_role(slot, ranks[slot[0]]) for slot in group.slots]
            for name in [role for role in roles if role] + list(_SPARE_NAMES):
                if take(group, name):
                    break
            else:
                take(group, f"N{len(used)}")


def _role(slot: Slot, rank: int) -> str | None:
    path, axis = slot
    if path == "return" or path.startswith("return["):
        return None  # the inputs say what a dim is; a size first seen in the output gets a spare name
    if axis == 0 and rank >= 2:
        return "B"
    if axis == 1 and rank == 3:
        return "T"
    return None


def _int_candidates(record: FunctionRecord) -> dict[str, list[int | None]]:
    """Int parameters and `self.` int attributes, with their value in each call."""
    candidates: dict[str, list[int | None]] = {}
    for name in record.params:
        values = [call["args"].get(name, {}) for call in record.calls]
        if values and all(value.get("t") == "int" for value in values):
            candidates[name] = [value["v"] for value in values]
    attributes = {name for call in record.calls for name in call.get("self_ints", {})}
    for name in sorted(attributes):
        candidates.setdefault(name, [call.get("self_ints", {}).get(name) for call in record.calls])
    return candidates


# ------------------------------------------------------------------------------------------------ writing

_FAMILIES = (("Bool", ("bool",)), ("Complex", ("complex",)), ("Int", ("int", "uint")),
             ("Float", ("float", "bfloat", "half", "double")))


def _family(dtypes: set[str]) -> str:
    found = set()
    for dtype in dtypes:
        for family, prefixes in _FAMILIES:
            if dtype.startswith(prefixes):
                found.add(family)
                break
        else:
            found.add("Shaped")
    return found.pop() if len(found) == 1 else "Shaped"


def _render(leaf: _Leaf, groups: list[_Group], result: Annotations) -> str:
    dims = ["*batch"] if leaf.variadic else []
    for axis in _axes(leaf):
        group = next(group for group in groups if (leaf.path, axis) in group.slots)
        if group.name is not None:
            dims.append(group.name)
        else:
            dims.append(str(next(size for size in group.sizes if size is not None)))
    family = _family(leaf.dtypes)
    result.dtypes.add(family)
    return f'{family}[Tensor, "{" ".join(dims)}"]'


def _spell(skeleton: Any, rendered: dict[str, str], result: Annotations) -> str | None:
    if skeleton is None:
        return None
    kind, payload = skeleton
    if kind == "leaf":
        return rendered[payload]
    if kind == "optional":
        result.optional = True
        return f"Optional[{_spell(payload, rendered, result)}]"
    items = [_spell(item, rendered, result) for item in payload]
    return f"tuple[{', '.join(item for item in items if item is not None)}]"
