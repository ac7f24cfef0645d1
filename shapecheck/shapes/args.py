"""A call's arguments as the transfer functions read them: by keyword, else by position (after the tensor a
`torch.f(x, ...)` form takes first)."""

from __future__ import annotations

import libcst as cst


class Hidden(Exception):
    """The call passes `*args` or `**kwargs`: which argument is which can't be told."""


class Args:
    def __init__(self, call: cst.Call, offset: int = 0) -> None:
        if any(arg.star for arg in call.args):
            raise Hidden
        self.call = call
        self.offset = offset
        self.positional = [arg.value for arg in call.args if arg.keyword is None]
        self.keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}

    def get(self, index: int, *names: str) -> cst.BaseExpression | None:
        """Argument `index` (counted after the offset), or the first of `names` passed by keyword."""
        for name in names:
            found = self.keywords.get(name)
            if found is not None:
                return found
        position = self.offset + index
        return self.positional[position] if 0 <= position < len(self.positional) else None

    def rest(self, index: int) -> list[cst.BaseExpression]:
        return self.positional[self.offset + index:]

    def count(self) -> int:
        """How many positional arguments follow the offset."""
        return max(0, len(self.positional) - self.offset)

    def keyword(self, name: str) -> cst.BaseExpression | None:
        return self.keywords.get(name)
