"""Symbolic sizes: `Dim`, an exact polynomial over symbols with int coefficients.

A size is what the code says about one dimension: a literal (`416`), a symbol (`B` from `B, T, C = x.shape`, `D` from
a jaxtyping annotation, a name the code never explains) or exact arithmetic on them (`C // n_head`, `h * w`,
`32 * 13 * 13`). Sums and products are normalized, so `h * w` and `w * h` are the same Dim; `//` and `/` are exact
when the divisor provably divides the dividend and otherwise become one opaque symbol (`C // n_head`) that is equal
only to itself.

Symbols are either *rigid* (a jaxtyping annotation's names: the function must work for every size, as a type checker
treats type variables, so `B` and `D` are different sizes and `D` is not 3) or *flexible* (everything else: sizes the
code computes or reads, which may happen to be equal).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from contextvars import ContextVar
from dataclasses import field

from shapecheck.engine.records import record

Monomial = tuple["Atom", ...]  # sorted, with repetition: h * h is (h, h)


# Records of the analysis are not frozen=True: see CONTRIBUTING.md, "Records".
@record(slots=True)
class Atom:
    """One symbol. Identity is `key` alone (what it measures); `name` is how the code spells it."""

    key: Hashable
    name: str = field(compare=False)
    rigid: bool = field(default=False, compare=False)
    compound: bool = field(default=False, compare=False)  # an opaque `a // b`: parenthesized inside a product
    placeholder: bool = field(default=False, compare=False)  # named by the analysis, renamed when the code names it
    at_most: int | None = field(default=None, compare=False)  # a bound the code states (`x[i:i + 8]`: at most 8)
    # an index drawn from `range(below)`: the one a DataLoader's default sampler hands `__getitem__`
    below: Dim | None = field(default=None, compare=False)
    # the size on the last pass of the loop over a loader whose last batch is short (35 rows in batches of 16: 3),
    # every other pass having another: checked only where a call certainly runs on that pass (`shapes.last_batch`)
    last: int | None = field(default=None, compare=False)
    # a size of one item of a collection that differs between its items (a clip length drawn anew on each pass of
    # the loop that appends the clips): see `per_item`
    varies: bool = field(default=False, compare=False)
    # the int default of the command-line option it is (`--patch`, `default=84`): the size of a run with no flags
    default: int | None = field(default=None, compare=False)
    hashed: int | None = field(default=None, compare=False, repr=False)  # `hash(key)`, once made

    def __hash__(self) -> int:
        # The key of an opaque (`a // b`) or either-or size holds the sizes it is made of, and a deep stack of layers
        # builds them from the same parts many times over (each residual block's output from the last): hashed anew
        # at each level, the work doubled with each block, and a 23-block network took minutes.
        hashed = self.hashed
        if hashed is None:
            hashed = self.hashed = hash(self.key)
        return hashed

    def sort_key(self) -> tuple[str, str]:
        return self.name, repr(self.key)


def _monomial_key(monomial: Monomial) -> tuple:
    return (len(monomial), tuple(atom.sort_key() for atom in monomial))


@record(slots=True, unsafe_hash=True)
class Dim:
    """A size: sum of coefficient * monomial terms, normalized (sorted, no zero coefficients, constant last)."""

    terms: tuple[tuple[Monomial, int], ...]

    # ------------------------------------------------------------------------------------------- constructors

    @staticmethod
    def of(value: int) -> Dim:
        return Dim(((((), value),)) if value else ())

    @staticmethod
    def symbol(key: Hashable, name: str, rigid: bool = False, placeholder: bool = False,
               below: Dim | None = None, default: int | None = None) -> Dim:
        return Dim((((Atom(key, name, rigid, placeholder=placeholder, below=below, default=default),), 1),))

    @staticmethod
    def _from(terms: Iterable[tuple[Monomial, int]]) -> Dim:
        merged: dict[Monomial, int] = {}
        for monomial, coef in terms:
            merged[monomial] = merged.get(monomial, 0) + coef
        kept = [(m, c) for m, c in merged.items() if c]
        kept.sort(key=lambda term: (not term[0], _monomial_key(term[0])))
        return Dim(tuple(kept))

    # ---------------------------------------------------------------------------------------------- queries

    @property
    def literal(self) -> int | None:
        """The int this size certainly is; None when it involves a symbol."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and not self.terms[0][0]:
            return self.terms[0][1]
        return None

    @property
    def atoms(self) -> frozenset[Atom]:
        return frozenset(atom for monomial, _ in self.terms for atom in monomial)

    @property
    def atom(self) -> Atom | None:
        """The one symbol this size is (`T`, `C // h`), not a multiple or a sum of symbols; None otherwise."""
        if len(self.terms) == 1 and self.terms[0][1] == 1 and len(self.terms[0][0]) == 1:
            return self.terms[0][0][0]
        return None

    @property
    def rigid(self) -> bool:
        """Every symbol in it is an annotation's (a literal is rigid too)."""
        return all(atom.rigid for atom in self.atoms)

    # ------------------------------------------------------------------------------------------- arithmetic

    def __add__(self, other: Dim | int) -> Dim:
        other = _dim(other)
        return Dim._from(self.terms + other.terms)

    __radd__ = __add__

    def __neg__(self) -> Dim:
        return Dim(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: Dim | int) -> Dim:
        return self + -_dim(other)

    def __rsub__(self, other: Dim | int) -> Dim:
        return _dim(other) - self

    def __mul__(self, other: Dim | int) -> Dim:
        other = _dim(other)
        return Dim._from((tuple(sorted(m1 + m2, key=Atom.sort_key)), c1 * c2)
                         for m1, c1 in self.terms for m2, c2 in other.terms)

    __rmul__ = __mul__

    def __floordiv__(self, other: Dim | int) -> Dim:
        other = _dim(other)
        if self.literal is not None and other.literal:
            return Dim.of(self.literal // other.literal)
        return self._division("//", other)

    def __truediv__(self, other: Dim | int) -> Dim:
        return self._division("/", _dim(other))

    def _division(self, operator: str, other: Dim) -> Dim:
        """Exact when `other` divides every term; else one opaque size, after cancelling shared factors."""
        exact = self._divided(other)
        if exact is not None:
            return exact
        left, right = _reduced(self, other)
        return left._opaque(operator, right)

    def __mod__(self, other: Dim | int) -> Dim:
        other = _dim(other)
        if self.literal is not None and other.literal:
            return Dim.of(self.literal % other.literal)
        if self._divided(other) is not None:
            return Dim.of(0)
        return self._opaque("%", other)

    def _divided(self, other: Dim) -> Dim | None:
        """self / other when `other` is one term dividing every term of self exactly; else None."""
        if len(other.terms) != 1 or not self.terms:
            return Dim.of(0) if not self.terms and other.terms else None
        divisor, coef = other.terms[0]
        quotient = []
        for monomial, value in self.terms:
            if value % coef:
                return None
            rest = list(monomial)
            for atom in divisor:
                if atom not in rest:
                    return None
                rest.remove(atom)
            quotient.append((tuple(rest), value // coef))
        return Dim._from(quotient)

    def _opaque(self, operator: str, other: Dim) -> Dim:
        name = f"{self._operand()} {operator} {other._operand(right=True)}"
        atom = Atom((operator, self, other), name, compound=True)
        return Dim((((atom,), 1),))

    def _operand(self, right: bool = False) -> str:
        """The text of this size as an operand of `//`, `/` or `%`: a sum is parenthesized, and so is a product
        on the right (`C // (h * w)`)."""
        text = str(self)
        if len(self.terms) > 1 or self.terms and (self.terms[0][1] < 0 or right and
                                                  len(self.terms[0][0]) + (self.terms[0][1] != 1) > 1):
            return f"({text})"
        return text

    def substitute(self, sizes: dict[Atom, Dim]) -> Dim:
        """This size with the symbols of `sizes` replaced by theirs (an annotation's names by a call's sizes)."""
        if not any(atom in sizes for atom in self.atoms):
            return self
        total = Dim.of(0)
        for monomial, coef in self.terms:
            term = Dim.of(coef)
            for atom in monomial:
                term = term * sizes.get(atom, Dim((((atom,), 1),)))
            total = total + term
        return total

    # ------------------------------------------------------------------------------------------------ text

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts: list[str] = []
        # Terms are normalized by their atoms' keys, which may hold a node's id: two symbols of one name (each
        # field's `longest`) would print in an order that changes from run to run. Text orders them by name, and
        # among equal names puts the added term first.
        shown = sorted(self.terms, key=lambda term: (not term[0], len(term[0]),
                                                     tuple(atom.name for atom in term[0]), term[1] < 0))
        for monomial, coef in shown:
            factors = [f"({atom.name})" if atom.compound and len(monomial) + (abs(coef) != 1) > 1 else atom.name
                       for atom in monomial]
            magnitude = abs(coef)
            if magnitude != 1 or not factors:
                factors.insert(0, str(magnitude))
            text = " * ".join(factors)
            if not parts:
                parts.append(("-" if coef < 0 else "") + text)
            else:
                parts.append(("- " if coef < 0 else "+ ") + text)
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Dim({self})"


def opaque_operands(atom: Atom) -> tuple[Dim, Dim] | None:
    """The two sizes of an opaque `a // b`, `a / b` or `a % b` the atom stands for; None for any other atom."""
    key = atom.key
    if type(key) is tuple and len(key) == 3 and key[0] in ("//", "/", "%") and type(key[1]) is Dim:
        return key[1], key[2]
    return None


def _reduced(a: Dim, b: Dim) -> tuple[Dim, Dim]:
    """a / b with the factors they share cancelled (`B * T * C` over `B * T * n` is `C` over `n`): the same ratio,
    so the same floor."""
    if len(a.terms) != 1 or len(b.terms) != 1:
        return a, b
    (top, top_coef), (bottom, bottom_coef) = a.terms[0], b.terms[0]
    shared = list(bottom)
    kept_top = []
    for atom in top:
        if atom in shared:
            shared.remove(atom)
        else:
            kept_top.append(atom)
    kept_bottom = list(bottom)
    for atom in top:
        if atom in kept_bottom and atom not in kept_top:
            kept_bottom.remove(atom)
    divisor = math.gcd(top_coef, bottom_coef) or 1
    if bottom_coef < 0:
        divisor = -divisor
    return Dim(((tuple(kept_top), top_coef // divisor),)), Dim(((tuple(kept_bottom), bottom_coef // divisor),))


def _dim(value: Dim | int) -> Dim:
    return value if isinstance(value, Dim) else Dim.of(value)


# What a size that varies per item is keyed by: ("per item", the key of what it was, the item's position or None).
PER_ITEM = "per item"


def per_item(atom: Atom) -> Atom:
    """The size `atom` measures, as one of the items of a collection it differs between: a draw made anew for each
    item (`random.randint(5, 9)` on each pass of a loop appending clips). One item's sizes are still equal to
    themselves; `of_item` tells the items apart."""
    return atom if atom.varies else _item_atom(atom, atom.key, None, f"{atom.name} per item")


def of_item(atom: Atom, position: int) -> Atom:
    """The size `atom` (one that varies per item) in the item at `position` of a batch of distinct items."""
    return _item_atom(atom, atom.key[1], position,  # type: ignore[index]
                      f"{atom.name.removesuffix(' per item')} of item {position}")


def varies(size: Dim) -> bool:
    """Whether `size` involves a size that varies per item."""
    return any(atom.varies for atom in size.atoms)


def _item_atom(atom: Atom, base: Hashable, position: int | None, name: str) -> Atom:
    return Atom((PER_ITEM, base, position), name, compound=True, at_most=atom.at_most, varies=True)


def _of_any_item(size: Dim) -> Dim:
    return size.substitute({atom: Dim((((_item_atom(atom, atom.key[1], None, atom.name),), 1),))  # type: ignore[index]
                            for atom in size.atoms if atom.varies})


def same(a: Dim, b: Dim) -> bool | None:
    """True when `a` and `b` are proven equal, False when proven different, None when it can't be told.

    Proven different: two different literals; a nonzero difference made only of rigid symbols (two different
    annotation names, an annotation name against a literal), since the code must hold for every size they stand for;
    a size against a multiple or a fraction of itself (`2 * h` and `h`, `d // 2` and `d`), for sizes that are not 0;
    a size known to be at most n (`x[i:i + 8]`) against a literal above n; one size of two different items of a
    collection it varies between.
    """
    difference = a - b
    if not difference.terms:
        return True
    if difference.literal is not None or difference.rigid:
        return False
    if _scaled(a, b) or _divided_down(a, b) or _divided_down(b, a) or _beyond(a, b) or _beyond(b, a):
        return False
    if _other_items(a, b, difference):
        return False
    if _differ_at_default(a, b) or _beyond_at_default(a, b) or _beyond_at_default(b, a):
        return False
    return None


# The command-line options whose defaults prove sizes different (see `_differ_at_default`), in the order they do,
# into the list the asker sets here: a finding built on such a proof names them (`shapes.evaluator`). Set and reset
# by the asker itself, not through a context manager: it asks for every conflict question the shape rules put.
DEFAULTS_USED: ContextVar[list[Atom] | None] = ContextVar("defaults_used", default=None)


def _differ_at_default(a: Dim, b: Dim) -> bool:
    """`a` and `b` differ in the run with no flags, where they involve one command-line option and sizes the code
    states (`args.patch // 16 * 2` against `args.patch // 8`, `--patch 84`): the one value the author gives it
    fails. Two options are two sizes, whatever their defaults: the command line sets them together. The factors the
    two share are cancelled first (sizes are not 0): `batch` against `batch * args.max_len` is 1 against the option
    alone, a batch of per-token labels flattened for a per-sentence output, which fails at `--max-len`'s default
    whatever the batch."""
    if not (_options(a) or _options(b)):
        return False  # most sizes involve no option, and cancelling factors would only remove options
    a, b = _reduced(a, b)
    options = _options(a) | _options(b)
    if len(options) != 1:
        return False
    at_a, at_b = at_defaults(a), at_defaults(b)
    if at_a is None or at_b is None or at_a == at_b:
        return False
    recorded = DEFAULTS_USED.get()
    if recorded is not None:
        recorded.append(next(iter(options)))
    return True


def _beyond_at_default(a: Dim, b: Dim) -> bool:
    """`b` involves one command-line option and sizes the code states, and in the run with no flags it is larger
    than the bound `a` is known to stay within: a chunk of at most `BPTT = 20` rows (`min(bptt, len(source) - 1 -
    i)`) against a causal mask built for `--context 35`."""
    if a.atom is None or a.atom.at_most is None or not _options(b):
        return False
    options = _options(b)
    value = at_defaults(b)
    if len(options) != 1 or value is None or value <= a.atom.at_most:
        return False
    recorded = DEFAULTS_USED.get()
    if recorded is not None:
        recorded.append(next(iter(options)))
    return True


def _options(size: Dim) -> set[Atom]:
    """The command-line options `size` involves, inside an opaque `a // b` too."""
    # Each atom once: a loop's state updated by broadcasting (`c = f * c + i * g` over 32 rows) makes sizes whose
    # parts share their parts, and read as a tree they double with each pass.
    found = set()
    seen: set[Atom] = set()
    stack = [size]
    while stack:
        for atom in stack.pop().atoms:
            if atom in seen:
                continue
            seen.add(atom)
            if atom.default is not None:
                found.add(atom)
            operands = opaque_operands(atom) or _broadcast_sides(atom)
            if operands is not None:
                stack.extend(operands)
    return found


def _broadcast_sides(atom: Atom) -> tuple[Dim, Dim] | None:
    """The two sizes a broadcast's result dim is one of (`c + up` of an FPN level whose sizes the code does not
    prove equal: `shapes.broadcast`); None for any other atom."""
    key = atom.key
    if type(key) is tuple and len(key) == 3 and key[0] == "broadcast" and type(key[1]) is Dim:
        return key[1], key[2]
    return None


def _other_items(a: Dim, b: Dim, difference: Dim) -> bool:
    """`3 * n_0` against `3 * n_1`: the same size of two different items of a collection it varies between (clips
    of lengths drawn anew for each), as a batch of them holds it."""
    if not all(atom.varies and atom.key[2] is not None for atom in difference.atoms):  # type: ignore[index]
        return False
    return (_of_any_item(a) - _of_any_item(b)).terms == ()


def at_least(size: Dim) -> int | None:
    """The least value `size` can take, when the code's sizes bound it: its constant term, when every other term
    adds a positive multiple of sizes (`seq_len + 1` is at least 1, `2 * n` at least 0); None when a term may take
    it lower without bound (`1 - T`). Symbols stand for sizes and counts, so they are never negative."""
    constant = 0
    for monomial, coef in size.terms:
        if not monomial:
            constant = coef
        elif coef < 0 or not all(_never_negative(atom) for atom in monomial):
            return None
    return constant


def at_defaults(size: Dim) -> int | None:
    """The int `size` is in the run the program makes with no flags on its command line, where each of its symbols
    is a command-line option with an int default (`args.patch`, `default=84`) or an opaque `a // b` of such sizes
    (`args.patch // 16`); None where any other symbol is in it. A bug of that run is a bug the code states: its
    author ships those defaults as the run that works."""
    return _at_defaults(size, {})


def _at_defaults(size: Dim, known: dict[Atom, int | None]) -> int | None:
    total = 0
    for monomial, coef in size.terms:
        term = coef
        for atom in monomial:
            if atom not in known:  # each atom once: sizes a loop builds share their parts (see `_options`)
                known[atom] = _atom_at_defaults(atom, known)
            value = known[atom]
            if value is None:
                return None
            term *= value
        total += term
    return total


def _atom_at_defaults(atom: Atom, known: dict[Atom, int | None]) -> int | None:
    if atom.default is not None:
        return atom.default
    sides = _broadcast_sides(atom)
    if sides is not None:
        # a broadcast result's size, one of two sizes (`shapes.broadcast`): at defaults, the one that is not 1
        left = _at_defaults(sides[0], known)
        right = _at_defaults(sides[1], known) if left is not None else None
        if left is None or right is None:
            return None
        return left if right in (1, left) else right if left == 1 else None
    operands = opaque_operands(atom)
    if operands is None:
        return None
    dividend = _at_defaults(operands[0], known)
    divisor = _at_defaults(operands[1], known) if dividend is not None else None
    if dividend is None or not divisor:
        return None
    operator = atom.key[0]  # type: ignore[index]
    if operator == "%":
        return dividend % divisor
    if operator == "/" and dividend % divisor:
        return None  # a float: no size
    return dividend // divisor


def option_size(key: Hashable, name: str, default: int | None) -> Dim:
    """A size the code names whose value it does not state: a placeholder, which may be 1 (the analysis can tell
    nothing of it), unless it is a command-line option whose default the code states over 1 (`args.classes`,
    `default=4`), a size the code means to be several."""
    return Dim.symbol(key, name, placeholder=default is None or default <= 1, default=default)


def _never_negative(atom: Atom) -> bool:
    """A symbol or an opaque size is; `a // b`, `a / b` and `a % b` are when neither `a` nor `b` is (`b` was not
    0, the division ran; `(T - 3) // 2` may be -1)."""
    key = atom.key
    if not (atom.compound and type(key) is tuple and len(key) == 3 and key[0] in ("//", "/", "%")):
        return True
    dividend, divisor = at_least(key[1]), at_least(key[2])
    return dividend is not None and dividend >= 0 and divisor is not None and divisor >= 0


def _beyond(a: Dim, b: Dim) -> bool:
    """`b` is a literal larger than the bound `a` is known to stay within."""
    if b.literal is None or a.atom is None:
        return False
    bound = a.atom.at_most
    return bound is not None and b.literal > bound


def _scaled(a: Dim, b: Dim) -> bool:
    """`2 * h` against `h`: one product of symbols with two different coefficients, never equal for a size that
    is not 0 (a sum such as `x + pad` against `x` may be: `pad` may be 0)."""
    if len(a.terms) != 1 or len(b.terms) != 1:
        return False
    (monomial, x), (other, y) = a.terms[0], b.terms[0]
    return bool(monomial) and monomial == other and x != y


def _divided_down(a: Dim, b: Dim) -> bool:
    """`d // 2` (or `d / 2`) against `d`: smaller than any size that is not 0."""
    if len(a.terms) != 1 or a.terms[0][1] != 1 or len(a.terms[0][0]) != 1:
        return False
    atom = a.terms[0][0][0]
    key = atom.key
    if not (atom.compound and type(key) is tuple and len(key) == 3 and key[0] in ("//", "/")):
        return False
    dividend, divisor = key[1], key[2]
    return divisor.literal is not None and divisor.literal >= 2 and same(dividend, b) is True
