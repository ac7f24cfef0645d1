"""The error text: short, no tensor values, and it names the conflict in one sentence."""

from __future__ import annotations

import pytest
import torch
from jaxtyping import Float
from torch import Tensor, nn

import shapecheck


@shapecheck.check
def attend(q: Float[Tensor, "B H T D"], k: Float[Tensor, "B H S D"]) -> Float[Tensor, "B H T S"]:
    return q @ k.transpose(-1, -2)


def error_of(function, *args, **kwargs) -> str:
    with pytest.raises(shapecheck.CheckError) as error:
        function(*args, **kwargs)
    return str(error.value)


def test_argument_error_text():
    text = error_of(attend, torch.randn(2, 4, 8, 4), torch.randn(2, 4, 8, 6))
    assert text == (
        "shapecheck: attend() argument 'k' does not match Float[Tensor, \"B H S D\"]\n"
        "  k.shape[3] is D=6, but q.shape[3] bound D=4\n"
        "  bound: B=2 H=4 T=8 D=4 S=8\n"
        "  q: shape (2, 4, 8, 4)  float32  cpu\n"
        "  k: shape (2, 4, 8, 6)  float32  cpu")


def test_return_error_text_lists_the_return_value():
    @shapecheck.check
    def step(x: Float[Tensor, "B D"], n: int) -> Float[Tensor, "B"]:
        return x

    text = error_of(step, torch.randn(3, 5), 7)
    assert text.splitlines()[0] == "shapecheck: test_return_error_text_lists_the_return_value.<locals>.step() " \
                                   "return value does not match Float[Tensor, \"B\"]"
    assert "return has 2 dimensions, but Float[Tensor, \"B\"] needs 1" in text
    assert "n: int = 7" in text
    assert text.splitlines()[-1] == "  return: shape (3, 5)  float32  cpu"


def test_error_never_prints_tensor_values():
    big = torch.full((2, 4, 8, 6), 123.456)
    assert "123" not in error_of(attend, torch.randn(2, 4, 8, 4), big)


def test_error_stays_short_with_many_arguments():
    @shapecheck.check
    def many(x: Float[Tensor, "N"], *rest: Float[Tensor, "N"]) -> None:
        pass

    lines = error_of(many, *[torch.randn(3)] * 30, torch.randn(4)).splitlines()
    assert len(lines) <= 15
    assert lines[-1].startswith("  ... and ")


def test_error_is_a_type_error_and_a_check_error():
    with pytest.raises(TypeError):
        attend(torch.randn(2, 4, 8, 4), torch.randn(2, 4, 8, 6))
    assert issubclass(shapecheck.ShapeError, shapecheck.CheckError)
    assert issubclass(shapecheck.DeviceError, shapecheck.CheckError)


def test_method_error_names_the_class():
    class Block(nn.Module):
        def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:
            return x

    shapecheck.check(Block)
    text = error_of(Block(), torch.randn(2, 3))
    assert "Block.forward() argument 'x' does not match Float[Tensor, \"B 4\"]" in text
    assert "x.shape[1] is 3, but the annotation fixes it to 4" in text
    assert "self: Block" in text


def test_traceback_points_at_the_generated_line():
    try:
        attend(torch.randn(2, 4, 8, 4), torch.randn(2, 4, 8, 6))
    except shapecheck.ShapeError as error:
        import traceback

        frames = traceback.extract_tb(error.__traceback__)
    assert any("shape_error('k'" in (frame.line or "") for frame in frames)
