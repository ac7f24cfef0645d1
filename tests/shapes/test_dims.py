"""Dim: exact symbolic arithmetic and the three-valued `same`."""

from __future__ import annotations

from shapecheck.objects.dims import Atom, Dim, at_defaults, of_item, option_size, per_item, same

B = Dim.symbol("B", "B", rigid=True)
D = Dim.symbol("D", "D", rigid=True)
h = Dim.symbol("h", "h")
w = Dim.symbol("w", "w")
C = Dim.symbol("C", "C")
n_head = Dim.symbol("n_head", "n_head")


def test_literal_arithmetic_is_exact() -> None:
    assert (Dim.of(32) * 13 * 13).literal == 5408
    assert str(Dim.of(32) * 13 * 13) == "5408"
    assert (Dim.of(416) // 32).literal == 13
    assert (Dim.of(31) // 2).literal == 15  # floor division of literals is what Python computes
    assert (Dim.of(7) / 2).literal is None  # not divisible: kept opaque, a size is never a fraction
    assert str(Dim.of(7) / 2) == "7 / 2"


def test_products_and_sums_are_normalized() -> None:
    assert h * w == w * h
    assert str(h * w) == "h * w"
    assert h + w - h == w
    assert str(2 * h * w + 1) == "2 * h * w + 1"
    assert str(h - 1) == "h - 1"


def test_division_exact_when_provable() -> None:
    assert (h * w) // w == h
    assert (4 * C) // 4 == C
    assert (4 * C) / 2 == 2 * C


def test_division_otherwise_opaque_and_equal_only_to_itself() -> None:
    head = C // n_head
    assert str(head) == "C // n_head"
    assert head == C // n_head
    assert same(head * n_head, C) is None
    assert str((h + 1) // 2) == "(h + 1) // 2"
    assert str(2 * (C // n_head)) == "2 * (C // n_head)"


def test_same() -> None:
    assert same(Dim.of(3), Dim.of(3)) is True
    assert same(Dim.of(3), Dim.of(4)) is False
    assert same(h * w, w * h) is True
    assert same(h, w) is None  # flexible symbols may be equal
    assert same(B, D) is False  # rigid annotation symbols are different sizes
    assert same(D, Dim.of(3)) is False
    assert same(h, Dim.of(3)) is None
    assert same(B, h) is None
    assert same(2 * D, D) is False


def test_cancelled_floor_division_for_matching() -> None:
    from shapecheck.shapes.views import cancelled

    H = Dim.symbol("H", "H")
    assert cancelled((H // w) * w) == H
    assert cancelled(2 * (H // 2)) == H
    assert cancelled(H // w) == H // w
    assert cancelled((H // w) * h) == (H // w) * h


def test_operands_of_division_are_parenthesized() -> None:
    assert str(C // (h * w)) == "C // (h * w)"
    assert str((h * w) // C) == "h * w // C"
    assert str(C // (2 * h)) == "C // (2 * h)"


def test_a_size_differs_from_its_multiples_and_fractions() -> None:
    d, h, pad = Dim.symbol("d", "d"), Dim.symbol("h", "h"), Dim.symbol("pad", "pad")
    assert same(2 * h, h) is False
    assert same(h, 3 * h) is False
    assert same(d // 2, d) is False
    assert same(d, d / 4) is False
    assert same(d * h, 2 * d * h) is False
    assert same(h + pad, h) is None  # pad may be 0
    assert same(d // 2, h) is None
    assert same(d // 1, d) is True


def test_a_bounded_size_differs_only_from_literals_above_its_bound() -> None:
    window = Dim((((Atom("window", "block_size", compound=True, at_most=8),), 1),))
    assert same(window, Dim.of(65)) is False
    assert same(Dim.of(65), window) is False
    assert same(window, Dim.of(8)) is None  # a full window
    assert same(window, Dim.of(1)) is None
    assert same(window, h) is None


def test_a_size_is_at_least_its_constant_when_no_term_takes_it_lower() -> None:
    from shapecheck.objects.dims import at_least
    assert at_least(C + 1) == 1
    assert at_least(2 * h * w) == 0
    assert at_least(Dim.of(8)) == 8
    assert at_least(h - 1) == -1  # h may be 0
    assert at_least(1 - h) is None
    assert at_least(C // n_head + 2) == 2
    assert at_least((C - 3) // 2 + 1) is None  # (C - 3) // 2 may be -2


def test_a_size_that_varies_per_item() -> None:
    """A size drawn anew for each item is equal to itself within one item, and differs between two items of a batch
    (`3 * n` of item 0 against `3 * n` of item 1); a size that does not vary is not told apart that way."""
    drawn = Atom(("draw", 1), "random.randint(5, 9)", compound=True, at_most=9)
    varying = per_item(drawn)
    n = Dim((((varying,), 1),))
    first, second = (Dim((((of_item(varying, position),), 1),)) for position in (0, 1))
    assert same(3 * n, 3 * n) is True
    assert same(3 * first, 3 * second) is False
    assert same(first + 2, second + 2) is False
    assert same(first, first) is True
    assert same(first, h) is None  # another size, not the same one of another item
    assert same(Dim((((drawn,), 1),)), h) is None


def test_one_command_line_option_differs_where_its_default_does() -> None:
    # `--patch` defaulting to 84: four halvings leave 5, doubled to 10 against the 10 of three halvings, then to 20
    # against 21; two options are two sizes whatever their defaults, and a size of its own has no default
    patch = option_size("patch", "args.patch", 84)
    other = option_size("other", "args.other", 84)
    assert at_defaults(patch // 16 * 2) == 10 and at_defaults(patch // 8) == 10
    assert same(patch // 16 * 2, patch // 8) is None
    assert same(patch // 8 * 2, patch // 4) is False
    assert same(patch, Dim.of(96)) is False and same(patch, Dim.of(84)) is None
    assert same(patch, other + 12) is None
    assert same(option_size("n", "args.n", None), Dim.of(3)) is None
    assert at_defaults(patch + h) is None and at_defaults(patch / 5) is None


def test_a_size_built_from_the_same_parts_over_and_over_is_hashed_once_a_part() -> None:
    # A 23-block residual network's sizes: each block's either-or size is made of the last block's, twice over.
    # Hashed anew at each level, the leaf below was hashed 2 ** 20 times here.
    class Leaf:
        hashed = 0

        def __hash__(self) -> int:
            Leaf.hashed += 1
            return 7

    size = Dim.symbol(Leaf(), "H")
    for depth in range(20):
        size = Dim((((Atom(("broadcast", size, size), f"H{depth}", compound=True),), 1),))
    assert isinstance(hash(size), int) and hash(size) == hash(size)
    assert Leaf.hashed == 1


def test_the_options_of_a_size_built_from_the_same_parts_are_read_once_a_part(monkeypatch) -> None:
    # A row LSTM's state over 32 rows (`c = f * c + i * g`): each row's either-or size is made of the last row's,
    # twice over. Read as a tree, a question about command-line options took 2 ** 32 steps (a file that never ended).
    import shapecheck.objects.dims as dims

    read = []
    sides = dims._broadcast_sides
    monkeypatch.setattr(dims, "_broadcast_sides", lambda atom: read.append(atom) or sides(atom))
    patch = option_size("patch", "args.patch", 84)
    size = patch
    for depth in range(16):
        size = Dim((((Atom(("broadcast", size, size), f"c{depth}", compound=True),), 1),))
    assert same(size, Dim.of(3)) is False  # 84 at the defaults, every row
    assert len(read) <= 4 * 16
