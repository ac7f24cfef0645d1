"""The complexity guard: what libcst must not be asked to parse, found with CPython's tokenizer in linear time.

libcst's parser is quadratic in the length of a left-nested chain (`x.a.a.a...`, `a + a + ...`, `f().g().h()...`,
`x[0][0]...`) and in memory in the depth of right-nested expressions (`not not ...`, `- - ...`, `lambda: lambda:
...`, `a if b else a if b else ...`, `a ** a ** ...`): a 4,000-term attribute chain takes seconds, a 20,000-term one
minutes, and nesting 4,000 deep takes gigabytes (bench/guard_curve.py prints the curve). It also rejects more than
a few thousand implicitly concatenated strings. The guard measures each statement from its tokens, so brackets,
operators and keywords inside strings and comments never count, and reports the first statement over a limit.

More than 200 nested brackets is a syntax error, as CPython's own tokenizer says.
"""

from __future__ import annotations

import io
import keyword
import sys
import tokenize
from collections.abc import Iterator
from operator import itemgetter

# Terms in one chain at one bracket level: 1,000 parse in 0.2-0.4 s (2,000: 1-8 s, bench/guard_curve.py).
MAX_CHAIN = 1000
# Levels of brackets and right-nested operators open at once: 500 take 17-51 MiB (2,000: 220-745 MiB).
MAX_DEPTH = 500
# CPython's tokenizer refuses deeper brackets ("too many nested parentheses").
MAX_BRACKETS = 200

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_BINARY = frozenset({"+", "-", "*", "/", "//", "%", "@", "<<", ">>", "&", "|", "^"})
_COMPARISON = frozenset({"<", ">", "==", ">=", "<=", "!=", "in", "is"})
# Tokens that end one expression and start another at the same bracket level.
_SEPARATORS = frozenset({",", "=", ";", ":=", "for", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=",
                         ">>=", "<<=", "**=", "->", "yield", "return", "assert", "del", "import", "from"})
_VALUE_KEYWORDS = frozenset({"None", "True", "False"})
_KEYWORDS = frozenset(keyword.kwlist) - _VALUE_KEYWORDS
_NAME, _NUMBER = tokenize.NAME, tokenize.NUMBER
_STATEMENT_END = bytes([tokenize.NEWLINE])
# A statement with no more tokens than this is within every limit, whatever its tokens are.
_SHORT = min(MAX_CHAIN, MAX_DEPTH, MAX_BRACKETS)


class _Level:
    """One bracket level of the current statement: its chain and its open right-nested operators."""

    __slots__ = ("chain", "tight", "negations", "loose", "lambdas")

    def __init__(self) -> None:
        self.chain = 0  # binary operators, attribute accesses, calls, subscripts, string concatenations
        self.tight = 0  # unary operators and `**`: closed by the next binary operator
        self.negations = 0  # `not`: closed by `and` / `or`
        self.loose = 0  # `lambda` and conditional `else`: open to the end of the expression
        self.lambdas = 0  # lambdas whose `:` is still to come

    @property
    def depth(self) -> int:
        return self.tight + self.negations + self.loose


class TooComplex(Exception):
    """What `too_complex` found, raised by the parsers that guard themselves with it (`engine.source`)."""


def too_complex(text: str, filename: str = "<unknown>", first_line: int = 1) -> str | None:
    """Why libcst must not parse `text` ("a 20,000-term expression on line 2"), or None. Raises SyntaxError where
    CPython's tokenizer does, and for more than MAX_BRACKETS nested brackets. `first_line`: the line `text` starts
    on in its file (an edited span), for the line numbers in the answer."""
    if _short_statements(text, filename):
        return None
    levels = [_Level()]
    outer_depth = 0  # brackets and operators open in the enclosing levels
    chain = depth = 0  # the statement's largest
    chain_row = depth_row = 0
    previous = ""
    value_before = False  # the previous token ends an operand: `-` after it is binary, `(` a call
    for string, kind, row, _, column, _, line in _tokens(text, filename):
        if kind == _NAME and string not in _KEYWORDS or kind == _NUMBER:
            # an operand, most tokens: it opens and closes nothing, so the maxima stand
            value_before, previous = True, string
            continue
        level = levels[-1]
        if kind == tokenize.NEWLINE or kind == tokenize.ENDMARKER:
            if chain > MAX_CHAIN:
                return f"a {chain + 1:,}-term expression on line {chain_row + first_line - 1}"
            if depth > MAX_DEPTH:
                return f"an expression nested {depth:,} deep on line {depth_row + first_line - 1}"
            levels, outer_depth, chain, depth, value_before, previous = [_Level()], 0, 0, 0, False, ""
            continue
        if kind in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            continue
        if kind == tokenize.STRING:
            if previous == "STRING":
                level.chain += 1
            string = "STRING"
        elif kind == tokenize.NUMBER or (kind == tokenize.NAME and string not in _KEYWORDS) or string == "...":
            pass
        elif string in _OPEN:
            if value_before:
                level.chain += 1  # a call or a subscript
            outer_depth += level.depth + 1
            if len(levels) > MAX_BRACKETS:
                raise SyntaxError("too many nested parentheses", (filename, row, column, line))
            levels.append(_Level())
        elif string in _CLOSE:
            if len(levels) > 1:
                levels.pop()
                outer_depth -= levels[-1].depth + 1
        elif string == ".":
            level.chain += 1
        elif string in _BINARY and value_before:
            level.chain += 1
            level.tight = 0
        elif string in ("-", "+", "~", "**", "await"):
            level.tight += 1
        elif string in _COMPARISON or (string == "not" and (value_before or previous == "is")):
            level.tight = 0
        elif string == "not":
            level.negations += 1
        elif string in ("and", "or"):
            level.tight = level.negations = 0
        elif string == "lambda":
            level.loose += 1
            level.lambdas += 1
        elif string == "else" and previous:  # a conditional expression: the statement `else` starts a line
            level.loose += 1
            level.tight = level.negations = 0
        elif string == ":" and level.lambdas:
            level.lambdas -= 1
        elif string in _SEPARATORS or string == ":":
            levels[-1] = _Level()
        level = levels[-1]
        if level.chain > chain:
            chain, chain_row = level.chain, row
        if outer_depth + level.depth > depth:
            depth, depth_row = outer_depth + level.depth, row
        value_before = string in _CLOSE or string == "STRING" or kind in (tokenize.NUMBER, tokenize.NAME) and (
            string not in _KEYWORDS) or string == "..."
        previous = string
    return None


def _short_statements(text: str, filename: str) -> bool:
    """Whether no statement of `text` has more tokens than the smallest limit: each term of a chain, each level of
    depth and each bracket takes a token of its statement, so such a text is within every limit. Counted in C (the
    tokens' kinds as bytes, split at each NEWLINE), at a third of the cost of the measuring loop, which only the
    rare file with a longer statement then pays for."""
    try:
        kinds = bytes(map(itemgetter(1), _tokens(text, filename)))
    except SyntaxError:
        return False  # the measuring loop reports the statement over a limit before the error, if there is one
    return max(map(len, kinds.split(_STATEMENT_END))) <= _SHORT


def _tokens(text: str, filename: str) -> Iterator[tuple[str, int, int, int, int, int, str]]:
    """(string, type, row, end row, column, end column, line) of each token."""
    # Python 3.11's C tokenizer is private, but four times faster than the pure-Python one, and its raw tuples
    # spare building a TokenInfo per token; from 3.12 the public generate_tokens is the C one.
    if sys.version_info < (3, 12):
        try:
            from _tokenize import TokenizerIter
        except ImportError:
            pass
        else:
            return TokenizerIter(text)
    return _python_tokens(text, filename)


def _python_tokens(text: str, filename: str) -> Iterator[tuple[str, int, int, int, int, int, str]]:
    try:
        for kind, string, (row, column), (end_row, end_column), line in tokenize.generate_tokens(
                io.StringIO(text).readline):
            yield string, kind, row, end_row, column, end_column, line
    except tokenize.TokenError as error:
        message, (row, column) = error.args
        raise SyntaxError(message, (filename, row, column + 1, "")) from None
