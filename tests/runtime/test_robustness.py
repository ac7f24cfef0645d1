"""Unusual functions and values: the checked function keeps its kind and its parameter names, overlapping
`disabled()` blocks never leave checks off, and bad values are explained, never raw errors."""

from __future__ import annotations

import asyncio
import inspect
import threading
import warnings

import pytest
import torch
from jaxtyping import Float
from torch import Tensor

import shapecheck
from shapecheck.runtime.decorator import Options, decorate


def test_parameters_named_like_builtins_the_wrapper_uses() -> None:
    @shapecheck.check
    def f(x: Float[Tensor, "n"], len: int, isinstance: int, type: int) -> Float[Tensor, "n"]:
        return x

    assert f(torch.ones(3), 1, 2, 3).shape == (3,)
    with pytest.raises(shapecheck.ShapeError):
        f(torch.ones(3, 1), 1, 2, 3)


def test_an_async_function_stays_a_coroutine_function() -> None:
    @shapecheck.check
    async def f(x: Float[Tensor, "n"]) -> Float[Tensor, "n"]:
        return x

    assert inspect.iscoroutinefunction(f)
    assert asyncio.run(f(torch.ones(2))).shape == (2,)
    with pytest.raises(shapecheck.ShapeError):
        asyncio.run(f(torch.ones(2, 2)))


def test_a_generator_stays_a_generator_function() -> None:
    @shapecheck.check
    def f(x: Float[Tensor, "n"]):
        received = yield x
        return received

    assert inspect.isgeneratorfunction(f)
    generator = f(torch.ones(2))
    assert next(generator).shape == (2,)
    with pytest.raises(StopIteration) as stop:
        generator.send("sent")
    assert stop.value.value == "sent"  # send() and the return value go through
    with pytest.raises(shapecheck.ShapeError):
        next(f(torch.ones(2, 2)))


def test_an_async_generator_stays_an_async_generator_function() -> None:
    @shapecheck.check
    async def f(x: Float[Tensor, "n"]):
        received = yield x
        yield received

    async def use() -> list:
        generator = f(torch.ones(2))
        return [await generator.asend(None), await generator.asend("sent")]

    assert inspect.isasyncgenfunction(f)
    first, second = asyncio.run(use())
    assert (first.shape, second) == ((2,), "sent")


def test_overlapping_disabled_blocks_in_two_threads() -> None:
    # A enters, B enters, A leaves, B leaves: a saved-and-restored flag would end up off.
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def a() -> None:
        with shapecheck.disabled():
            a_in.set()
            b_in.wait()
        a_out.set()

    def b() -> None:
        a_in.wait()
        with shapecheck.disabled():
            b_in.set()
            a_out.wait()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    @shapecheck.check
    def f(x: Float[Tensor, "n"]) -> None:
        return None

    with pytest.raises(shapecheck.ShapeError):
        f(torch.ones(2, 2))


def test_disable_outlasts_a_disabled_block() -> None:
    shapecheck.disable()
    with shapecheck.disabled():
        pass
    from shapecheck.runtime import switch

    assert switch.enabled is False
    shapecheck.enable()
    assert switch.enabled is True


def test_a_nested_tensor_is_explained() -> None:
    @shapecheck.check
    def f(x: Float[Tensor, "n m"]) -> None:
        return None

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nested tensors are a prototype
        nested = torch.nested.nested_tensor([torch.ones(2, 3), torch.ones(4, 3)])
    with pytest.raises(shapecheck.ShapeError, match="x is a nested tensor"):
        f(nested)


def test_none_for_a_symbolic_dimension_is_explained() -> None:
    @shapecheck.check
    def f(x: Float[Tensor, "{k}+1"], k: int) -> None:
        return None

    f(torch.ones(3), 2)
    with pytest.raises(shapecheck.ShapeError, match=r"cannot be computed with \{k\}=None"):
        f(torch.ones(3), None)


def test_a_nested_function_without_tensor_annotations_is_analysed_once() -> None:
    # The import hook decorates a nested function each time its parent runs; the second time is a lookup.
    def parent():
        def inner(x, y):
            return x + y

        return inner

    first = parent()
    assert decorate(first, Options(), only_annotated=True) is first
    from shapecheck.runtime import decorator

    assert first.__code__ in decorator._NOTHING_TO_CHECK
