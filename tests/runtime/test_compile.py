"""torch.compile: checked code compiles without graph breaks, gives the eager results, and still fails on bad
shapes. Under `fullgraph=True` PyTorch reports any exception raised inside the graph as
`torch._dynamo.exc.Unsupported` ("Observed exception") with the original message in its text."""

from __future__ import annotations

import pytest
import torch
from jaxtyping import Float
from torch import Tensor, nn

import shapecheck

BACKENDS = ["eager", "aot_eager"]


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@shapecheck.check
def attend(q: Float[Tensor, "B T D"], k: Float[Tensor, "B S D"]) -> Float[Tensor, "B T S"]:
    return torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)


@shapecheck.check
class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.register_buffer("gain", torch.ones(4))

    def forward(self, x: Float[Tensor, "B T 4"], mask: Float[Tensor, "B T"] | None = None) -> Float[Tensor, "B T 4"]:
        y = self.fc(x).relu() * self.gain
        return y if mask is None else y * mask[..., None]


class ForwardOnly(nn.Module):
    """Only `forward` decorated, the jaxtyping way: the parameters join device agreement through an isinstance."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)

    @shapecheck.check
    def forward(self, x: Float[Tensor, "B T 4"]) -> Float[Tensor, "B T 4"]:
        return self.fc(x)


def fails_check(call, match: str) -> None:
    with pytest.raises((shapecheck.CheckError, torch._dynamo.exc.Unsupported)) as error:
        call()
    if isinstance(error.value, torch._dynamo.exc.Unsupported):
        assert "Observed exception" in str(error.value)
    assert match in str(error.value)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fullgraph", [False, True])
def test_function_compiles_to_the_eager_result_and_still_fails(backend, fullgraph):
    compiled = torch.compile(attend, backend=backend, fullgraph=fullgraph)
    q, k = torch.randn(2, 3, 4), torch.randn(2, 5, 4)
    torch.testing.assert_close(compiled(q, k), attend(q, k))
    torch.testing.assert_close(compiled(q[:1], k[:1]), attend(q[:1], k[:1]))  # a recompile, still right
    fails_check(lambda: compiled(q, torch.randn(2, 5, 6)), "k.shape[2] is D=6, but q.shape[2] bound D=4")
    if not fullgraph:
        with pytest.raises(shapecheck.ShapeError):
            compiled(q, torch.randn(2, 5, 6))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fullgraph", [False, True])
def test_module_compiles_with_identical_outputs_and_gradients(backend, fullgraph):
    torch.manual_seed(0)
    eager = Block()
    compiled_block = Block()
    compiled_block.load_state_dict(eager.state_dict())
    compiled = torch.compile(compiled_block, backend=backend, fullgraph=fullgraph)
    x, mask = torch.randn(2, 3, 4), torch.rand(2, 3)
    for args in [(x,), (x, mask)]:
        expected, actual = eager(*args), compiled(*args)
        torch.testing.assert_close(actual, expected)
        expected.sum().backward()
        actual.sum().backward()
    for (name, p_eager), p_compiled in zip(eager.named_parameters(), compiled_block.parameters()):
        torch.testing.assert_close(p_compiled.grad, p_eager.grad, msg=name)
    fails_check(lambda: compiled(x, torch.rand(2, 4)), "mask.shape[1] is T=4, but x.shape[1] bound T=3")
    fails_check(lambda: compiled(torch.randn(2, 3, 5)), "x.shape[2] is 5, but the annotation fixes it to 4")


def test_device_error_under_compile():
    compiled = torch.compile(attend, backend="eager")
    with pytest.raises(shapecheck.DeviceError, match="q is on cpu, but k is on meta"):
        compiled(torch.randn(2, 3, 4), torch.randn(2, 5, 4, device="meta"))
    module = torch.compile(ForwardOnly().to("meta"), backend="eager")
    with pytest.raises(shapecheck.DeviceError, match="x is on cpu, but fc.weight is on meta"):
        module(torch.randn(2, 3, 4))


def test_no_graph_breaks_on_the_success_path():
    block = Block()
    for function, args in [(attend, (torch.randn(2, 3, 4), torch.randn(2, 5, 4))),
                           (block, (torch.randn(2, 3, 4), torch.rand(2, 3))),
                           (ForwardOnly(), (torch.randn(2, 3, 4),))]:
        explanation = torch._dynamo.explain(function)(*args)
        assert explanation.graph_break_count == 0, explanation.break_reasons
        assert explanation.graph_count == 1


def test_dynamic_shapes_keep_the_relations():
    compiled = torch.compile(attend, backend="eager", dynamic=True, fullgraph=True)
    for batch, time in [(2, 3), (3, 7), (5, 2)]:
        q, k = torch.randn(batch, time, 4), torch.randn(batch, 6, 4)
        torch.testing.assert_close(compiled(q, k), attend(q, k))
    fails_check(lambda: compiled(torch.randn(4, 3, 4), torch.randn(5, 6, 4)), "k.shape[0] is B=5")


def test_disable_at_run_time_recompiles_instead_of_keeping_the_checks():
    @shapecheck.check
    def total(x: Float[Tensor, "N"]) -> Float[Tensor, ""]:
        return x.sum()

    compiled = torch.compile(total, backend="eager")
    assert compiled(torch.ones(3)).item() == 3
    with pytest.raises(shapecheck.ShapeError):
        compiled(torch.ones(2, 2))
    with shapecheck.disabled():
        assert compiled(torch.ones(2, 2)).item() == 4
    with pytest.raises(shapecheck.ShapeError):
        compiled(torch.ones(2, 2))


def test_sampling_does_not_count_compiled_calls():
    @shapecheck.check(first=1)
    def total(x: Float[Tensor, "N"]) -> Float[Tensor, ""]:
        return x.sum()

    compiled = torch.compile(total, backend="eager", fullgraph=True)
    for _ in range(3):
        compiled(torch.ones(3))
    fails_check(lambda: compiled(torch.ones(2, 2)), "x has 2 dimensions")  # compiled: always checked (guards)
    total(torch.ones(3))  # the one eager call that is checked
    total(torch.ones(2, 2))  # sampled out


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")  # inductor's own
def test_inductor_fullgraph():
    pytest.importorskip("torch._inductor")
    block = Block()
    compiled = torch.compile(block, fullgraph=True)  # the default backend: inductor, C++ codegen on CPU
    x = torch.randn(2, 3, 4)
    torch.testing.assert_close(compiled(x), block(x))
    fails_check(lambda: compiled(torch.randn(2, 3, 5)), "x.shape[2] is 5")
