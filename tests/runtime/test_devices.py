"""Device agreement. The `meta` device stands in for a second device, so all of this runs without a GPU."""

from __future__ import annotations

import pytest
import torch
from jaxtyping import Float
from torch import Tensor, nn

import shapecheck


def cpu(*shape: int) -> Tensor:
    return torch.zeros(shape)


def meta(*shape: int) -> Tensor:
    return torch.zeros(shape, device="meta")


@shapecheck.check
def matmul(x: Float[Tensor, "N D"], w: Float[Tensor, "D E"]) -> Float[Tensor, "N E"]:
    return x @ w


def test_torch_itself_returns_garbage_for_cpu_at_meta_and_we_raise():
    # pytorch#139437: no error, a CPU result computed from nothing.
    assert matmul.__wrapped__(cpu(2, 3), meta(3, 4)).device.type == "cpu"
    with pytest.raises(shapecheck.DeviceError, match="x is on cpu, but w is on meta"):
        matmul(cpu(2, 3), meta(3, 4))


def test_same_device_passes_on_any_device():
    assert matmul(meta(2, 3), meta(3, 4)).device.type == "meta"
    assert matmul(cpu(2, 3), cpu(3, 4)).device.type == "cpu"


def test_error_names_every_disagreeing_tensor_and_its_device():
    @shapecheck.check
    def f(a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> None:
        pass

    with pytest.raises(shapecheck.DeviceError) as error:
        f(cpu(1), meta(1), cpu(1), meta(1))
    text = str(error.value)
    assert "got tensors on 2 devices; all must share one" in text
    assert "on cpu: a, c" in text and "on meta: b, d" in text
    assert "b: shape (1,)  float32  meta" in text


def test_unannotated_and_nested_arguments_take_part():
    @shapecheck.check
    def f(x, batch, *rest, **named) -> None:
        pass

    f(cpu(2), {"a": [cpu(1), (cpu(3),)]}, cpu(1), k=cpu(1))
    for bad in [lambda: f(cpu(2), {"a": [cpu(1), (meta(3),)]}),
                lambda: f(cpu(2), {}, meta(1)),
                lambda: f(cpu(2), {}, k=meta(1))]:
        with pytest.raises(shapecheck.DeviceError):
            bad()
    with pytest.raises(shapecheck.DeviceError, match=r"batch\['a'\]\[1\]\[0\] is on meta"):
        f(cpu(2), {"a": [cpu(1), (meta(3),)]})


def test_return_value_must_agree():
    @shapecheck.check
    def leaks(x: Tensor) -> Tensor:
        return torch.zeros(3)

    with pytest.raises(shapecheck.DeviceError, match="x is on meta, but return is on cpu"):
        leaks(meta(3))


def test_zero_dim_cpu_tensors_are_exempt_as_in_pytorch():
    @shapecheck.check
    def scale(x: Tensor, factor: Tensor) -> Tensor:
        return x * factor

    assert scale(meta(3), torch.tensor(2.0)).device.type == "meta"
    assert scale(torch.tensor(2.0), meta(3)).device.type == "meta"  # scalar first, then the real device
    with pytest.raises(shapecheck.DeviceError):
        scale(meta(3), torch.tensor([2.0]))  # 1-d is not exempt
    with pytest.raises(shapecheck.DeviceError):
        scale(cpu(3), torch.tensor(2.0, device="meta"))  # only CPU scalars are


def test_the_fast_fold_settles_a_trailing_cpu_scalar_by_itself():
    from shapecheck.runtime.devices import MIXED, fold

    assert fold([meta(3), torch.tensor(2.0)], None) == torch.device("meta")
    assert fold([torch.tensor(2.0), meta(3)], None) is MIXED  # a leading scalar is left to the slow path


def test_device_requirement():
    @shapecheck.check(device="meta")
    def on_meta(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        return x

    assert on_meta(meta(3)).device.type == "meta"
    with pytest.raises(shapecheck.DeviceError, match=r"on_meta\(\) requires device meta, but its tensors are on cpu"):
        on_meta(cpu(3))

    @shapecheck.check(device="cuda")
    def on_cuda(x: Tensor) -> None:
        pass

    with pytest.raises(shapecheck.DeviceError, match="requires device cuda"):
        on_cuda(cpu(3))

    @shapecheck.check(device="cpu")
    def makes_meta() -> Tensor:
        return meta(1)

    with pytest.raises(shapecheck.DeviceError, match="requires device cpu"):
        makes_meta()  # no tensor argument, but the return still has to be on the device


def test_device_requirement_index_rules():
    from shapecheck.runtime.devices import Requirement

    any_cuda, cuda1 = Requirement("cuda"), Requirement("cuda:1")
    assert any_cuda.allows(torch.device("cuda", 0)) and any_cuda.allows(torch.device("cuda", 3))
    assert cuda1.allows(torch.device("cuda", 1)) and not cuda1.allows(torch.device("cuda", 0))
    assert not any_cuda.allows(torch.device("cpu")) and not any_cuda.allows(torch.device("mps"))
    with pytest.raises(ValueError, match="argument 'device': Expected one of cpu, cuda"):
        shapecheck.check(device="cdua")


def test_containers_are_walked_only_when_their_first_item_may_hold_tensors():
    from shapecheck.runtime.devices import MIXED, fold

    # A list of a million ints must not cost a million steps per call: the first item decides.
    assert fold([[1, meta(1)], cpu(1)], None) == torch.device("cpu")
    assert fold([[meta(1), 1], cpu(1)], None) is MIXED
    assert fold([{"k": (meta(1),)}, cpu(1)], None) is MIXED


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.register_buffer("scale", torch.ones(2))

    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x) * self.scale


shapecheck.check(Head)


def test_module_parameters_and_buffers_join_device_agreement():
    assert Head()(cpu(3, 4)).shape == (3, 2)
    assert Head().to("meta")(meta(3, 4)).device.type == "meta"
    with pytest.raises(shapecheck.DeviceError) as error:
        Head().to("meta")(cpu(3, 4))
    text = str(error.value)
    assert "x is on cpu, but fc.weight is on meta" in text
    assert "on meta: fc.weight, fc.bias, scale" in text


def test_a_single_stray_parameter_is_named():
    head = Head()
    head.fc.bias = nn.Parameter(torch.zeros(2, device="meta"))
    with pytest.raises(shapecheck.DeviceError, match="on meta: fc.bias"):
        head(cpu(3, 4))


class ForwardOnly(nn.Module):
    """Only `forward` decorated, as jaxtyping users decorate it: the class is not decorated."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.register_buffer("scale", torch.ones(2))

    @shapecheck.check
    def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 2"]:
        return self.fc(x) * self.scale


def test_a_forward_decorated_on_its_own_brings_the_module_tensors():
    assert ForwardOnly()(cpu(3, 4)).shape == (3, 2)
    assert ForwardOnly().to("meta")(meta(3, 4)).device.type == "meta"
    with pytest.raises(shapecheck.DeviceError) as error:
        ForwardOnly().to("meta")(cpu(3, 4))  # model.to(device) fed a CPU batch
    text = str(error.value)
    assert "ForwardOnly.forward() got tensors on 2 devices" in text
    assert "x is on cpu, but fc.weight is on meta" in text and "on meta: fc.weight, fc.bias, scale" in text


def test_a_forward_decorated_on_its_own_with_a_device_requirement_counts_the_parameters():
    class Required(ForwardOnly):
        @shapecheck.check(device="cpu")
        def forward(self) -> None:  # no tensor argument: only the parameters and buffers can break the rule
            return None

    Required()()
    with pytest.raises(shapecheck.DeviceError, match="requires device cpu, but its tensors are on meta"):
        Required().to("meta")()


def test_a_forward_on_a_plain_class_or_called_unbound_is_only_its_arguments():
    class Pipeline:  # not an nn.Module: `self` holds no parameters
        @shapecheck.check
        def forward(self, x: Float[Tensor, "B 4"]) -> Float[Tensor, "B 4"]:
            return x

    assert Pipeline().forward(meta(2, 4)).device.type == "meta"
    assert ForwardOnly.forward(ForwardOnly().to("meta"), meta(2, 4)).device.type == "meta"
    with pytest.raises(shapecheck.DeviceError, match="fc.weight is on meta"):
        ForwardOnly.forward(ForwardOnly().to("meta"), cpu(2, 4))
