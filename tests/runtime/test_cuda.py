"""The same checks with real CUDA tensors; skipped (see conftest.py) where no GPU is present."""

from __future__ import annotations

import pytest
import torch
from jaxtyping import Float
from torch import Tensor, nn

import shapecheck

pytestmark = pytest.mark.cuda


@shapecheck.check
def matmul(x: Float[Tensor, "N D"], w: Float[Tensor, "D E"]) -> Float[Tensor, "N E"]:
    return x @ w


@shapecheck.check
class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x)


def test_cuda_tensors_pass_and_cpu_beside_cuda_fails():
    x, w = torch.randn(2, 4, device="cuda"), torch.randn(4, 3, device="cuda")
    torch.testing.assert_close(matmul(x, w), x @ w)
    with pytest.raises(shapecheck.DeviceError, match="x is on cuda:0, but w is on cpu"):
        matmul(x, w.cpu())
    with pytest.raises(shapecheck.ShapeError, match=r"w.shape\[0\] is D=3"):
        matmul(x, torch.randn(3, 3, device="cuda"))


def test_cpu_scalars_are_allowed_beside_cuda_tensors():
    @shapecheck.check
    def scale(x: Tensor, factor: Tensor) -> Tensor:
        return x * factor

    assert scale(torch.ones(3, device="cuda"), torch.tensor(2.0)).device.type == "cuda"


def test_device_requirement_matches_any_cuda_index():
    @shapecheck.check(device="cuda")
    def anywhere(x: Tensor) -> Tensor:
        return x

    @shapecheck.check(device="cuda:0")
    def first_gpu(x: Tensor) -> Tensor:
        return x

    anywhere(torch.ones(1, device="cuda"))
    first_gpu(torch.ones(1, device="cuda:0"))
    with pytest.raises(shapecheck.DeviceError, match="requires device cuda"):
        anywhere(torch.ones(1))


def test_module_on_cuda_with_a_cpu_input():
    head = Head().cuda()
    assert head(torch.randn(3, 4, device="cuda")).device.type == "cuda"
    with pytest.raises(shapecheck.DeviceError, match="on cuda:0: fc.weight, fc.bias"):
        head(torch.randn(3, 4))


class ForwardOnly(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)

    @shapecheck.check  # only forward, as jaxtyping users decorate it
    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x)


def test_a_forward_decorated_on_its_own_on_cuda_with_a_cpu_input():
    model = ForwardOnly().to("cuda")
    assert model(torch.randn(3, 4, device="cuda")).device.type == "cuda"
    with pytest.raises(shapecheck.DeviceError, match="x is on cpu, but fc.weight is on cuda:0"):
        model(torch.randn(3, 4))  # PyTorch's own error here is a long trace from inside F.linear


def test_inductor_on_cuda_matches_eager():
    head = Head().cuda()
    compiled = torch.compile(head, fullgraph=True)
    x = torch.randn(8, 4, device="cuda")
    torch.testing.assert_close(compiled(x), head(x))
    with pytest.raises((shapecheck.ShapeError, torch._dynamo.exc.Unsupported), match="fixes it to 4"):
        compiled(torch.randn(8, 5, device="cuda"))


def test_bf16_autocast_outputs_satisfy_float_annotations():
    # Mixed precision is where CUDA users meet dtype checks: autocast's bf16 results are still `Float`.
    head = Head().cuda()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        out = head(torch.randn(3, 4, device="cuda"))
        assert out.dtype == torch.bfloat16
        assert matmul(torch.randn(2, 4, device="cuda"), torch.randn(4, 3, device="cuda")).dtype == torch.bfloat16


def test_dynamic_shapes_compile_on_cuda_keeps_checking_symbols():
    compiled = torch.compile(matmul, dynamic=True)
    for n in (2, 5, 9):
        x, w = torch.randn(n, 4, device="cuda"), torch.randn(4, 3, device="cuda")
        torch.testing.assert_close(compiled(x, w), x @ w)
    with pytest.raises((shapecheck.ShapeError, torch._dynamo.exc.Unsupported), match="D"):
        compiled(torch.randn(5, 4, device="cuda"), torch.randn(3, 3, device="cuda"))
