"""SC216's examples are programs autograd judges: each INVALID one must make backward raise the in-place error,
and each VALID one must run, so the rule's idea of what autograd saves stays torch's."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from shapecheck.rules.inplace_on_saved_tensor import InplaceOnSavedTensor  # noqa: E402

# backward's version check, or the check of an in-place op on a view `split` / `chunk` / `unbind` returned
INPLACE_ERRORS = ("modified by an inplace operation", "is a view and is being modified inplace")


def run(code: str) -> str | None:
    """The autograd in-place error the program raises, or None when it runs."""
    try:
        exec(compile(code, "<example>", "exec"), {"__name__": "__main__"})
    except RuntimeError as error:
        if any(message in str(error) for message in INPLACE_ERRORS):
            return str(error)
        raise
    return None


@pytest.mark.parametrize("code", InplaceOnSavedTensor.valid_examples())
def test_valid_example_backward_runs(code: str) -> None:
    assert run(code) is None


@pytest.mark.parametrize("code", [example.code for example in InplaceOnSavedTensor.invalid_examples()])
def test_invalid_example_backward_raises(code: str) -> None:
    assert run(code) is not None
